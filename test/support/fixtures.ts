// The alert, the API key and the pipe the providers' unit tests start from, stated once; each test file
// adds what it needs (a message, a serialized provider, a stored state).

/** An alert's id as the service makes them (24 hex digits), and its paths. */
export const ALERT_ID = "65f0c1a2b3c4d5e6f7a8b9c0";
export const ALERT_PATH = `/api/v2/alerts/${ALERT_ID}`;
export const ALERTS_PATH = "/api/v2/alerts";

/** What a program passes for a search alert. */
export const searchAlert = {
  threshold: 5,
  interval: "5m",
  source: "search",
  thresholdType: "above",
  channel: { type: "webhook", webhookId: "hook-1" },
};

/** What a program passes for a tile alert. */
export const tileAlert = {
  ...searchAlert,
  threshold: 90,
  source: "tile",
  dashboardId: "dash-1",
  tileId: "tile-1",
  name: "High CPU",
};

/** The organization, a key's uuid (not its key ID) and their paths. */
export const ORG_ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
export const KEY_UUID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
export const KEYS_PATH = `/v1/organizations/${ORG_ID}/keys`;
export const KEY_PATH = `${KEYS_PATH}/${KEY_UUID}`;
/** The secret a create answers with: a canary no error may carry. */
export const CREATED_SECRET = "created-key-secret-CANARY-0b5e";
/** The key ID a create answers with. */
export const CREATED_KEY_ID = "KEYIDABCDEFGHIJKWXYZ";

/** The key as the service returns it for keyInputs: no key ID or secret. */
export const serviceKey = {
  id: KEY_UUID,
  name: "deployer",
  state: "enabled",
  roles: ["developer"],
  expireAt: null,
  usedAt: null,
  createdAt: "2026-11-22T09:00:00.000Z",
  keySuffix: "WXYZ",
  ipAccessList: [],
};

/** What a program passes for a key, as the host hands it over. */
export const keyInputs = { organizationId: ORG_ID, name: "deployer", roles: ["developer"], __provider: "serialized" };

/** A key's outputs as create records them for keyInputs. */
export const storedKey = {
  organizationId: ORG_ID,
  name: "deployer",
  roles: ["developer"],
  expireAt: null,
  state: "enabled",
  ipAccessList: [],
  keyId: CREATED_KEY_ID,
  keySecret: CREATED_SECRET,
  keySuffix: "WXYZ",
  createdAt: "2026-11-22T09:00:00.000Z",
  usedAt: null,
  managedArgs: ["name", "roles"],
};

/** The pipe a PipeSettings manages (under ORG_ID), its resource id and its settings path. */
export const PIPE_IDS = {
  organizationId: ORG_ID,
  serviceId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
  pipeId: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed",
};
export const PIPE_RESOURCE_ID = `${PIPE_IDS.organizationId}/${PIPE_IDS.serviceId}/${PIPE_IDS.pipeId}`;
export const SETTINGS_PATH = `/v1/organizations/${PIPE_IDS.organizationId}/services/${PIPE_IDS.serviceId}/pipes/${PIPE_IDS.pipeId}/settings`;

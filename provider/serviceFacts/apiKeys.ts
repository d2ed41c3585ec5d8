// An organization API key's roles and states, as the cloud service names them.

export const KEY_ROLES = ["admin", "developer", "query_endpoints"] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

/** A key's state; a new key is "enabled" unless the create says otherwise. */
export const KEY_STATES = ["enabled", "disabled"] as const;
export type KeyState = (typeof KEY_STATES)[number];

/** The state of a key whose create names none. */
export const NEW_KEY_STATE: KeyState = "enabled";

/** A key's role: predefined, or the organization's own. */
export const ROLE_TYPES = ["system", "custom"] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

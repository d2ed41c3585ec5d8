// Webhooks managed ClickStack answers with service "slack_api" or "pagerduty_api" are made in its
// console and not through the API: lookups read them, and a Webhook refuses them as inputs naming
// the services it can make.

import { describe, expect, it } from "vitest";
import * as webhook from "../../provider/webhook/provider";
import { lookupNamed, runLookup } from "../../provider/lookups/run";
import { exportEstate } from "../../provider/export/export";
import { checkFailures } from "../support/failures";
import {
  CLICKSTACK_ORG,
  CLICKSTACK_SVC,
  cloudAnswer,
  managedClickStackPerTest,
  mockApiPerTest,
} from "../support/mockApi";

const ORG = CLICKSTACK_ORG;
const SVC = CLICKSTACK_SVC;
const LIST = `/v1/organizations/${ORG}/services/${SVC}/clickstack/webhooks?limit=1000&offset=0`;
const slackApi = {
  id: "65f5e4a3b9e77c001a789012",
  name: "Slack Alerts",
  service: "slack_api",
  url: "https://hooks.slack.com/services/T00/B00/xxxx",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-15T12:00:00.000Z",
};

const mock = mockApiPerTest();
managedClickStackPerTest();

describe("console-made webhooks on managed ClickStack", () => {
  it("getWebhook reads one of service slack_api through the Cloud list", async () => {
    mock.api.cloud.intercept({ method: "GET", path: LIST }).reply(200, cloudAnswer([slackApi]));
    const def = lookupNamed("getWebhook");
    if (def === undefined) throw new Error("no getWebhook");
    expect(await runLookup(def, { name: "Slack Alerts" })).toEqual(slackApi);
  });

  it.each(["slack_api", "pagerduty_api"])(
    "a Webhook of service %s fails the check naming the creatable ones",
    async (service) => {
      const failures = await checkFailures(webhook.check)({ name: "x", service, url: "https://example.com/x" });
      expect(failures).toEqual([
        {
          property: "service",
          reason: expect.stringContaining(`service "${service}" is made in the ClickStack console`),
        },
      ]);
      expect(failures[0]?.reason).toContain('"slack", "generic", "incidentio"');
      expect(failures[0]?.reason).toContain("getWebhook");
    },
  );

  it("any other unknown service fails as before", async () => {
    const failures = await checkFailures(webhook.check)({ name: "x", service: "teams", url: "https://example.com/x" });
    expect(failures).toEqual([
      { property: "service", reason: 'service must be one of "slack", "generic", "incidentio"' },
    ]);
  });

  it("alertpipe export leaves one out of the import document, saying to read it with getWebhook", async () => {
    const generic = {
      ...slackApi,
      id: "65f5e4a3b9e77c001a789013",
      name: "ops",
      service: "generic",
      url: "https://example.com/ops",
    };
    mock.api.cloud.intercept({ method: "GET", path: LIST }).reply(200, cloudAnswer([slackApi, generic]));
    const result = await exportEstate({ types: ["Webhook"], organizations: [], pipes: [], names: [] });
    expect(result.document.resources).toEqual([{ type: "alertpipe:index:Webhook", name: "ops", id: generic.id }]);
    expect(result.skipped).toEqual([
      expect.objectContaining({ type: "Webhook", id: slackApi.id, why: expect.stringContaining("getWebhook") }),
    ]);
  });
});

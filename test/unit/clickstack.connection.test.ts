// On managed ClickStack there is no connections route (its platform makes the connection), so a
// Connection fails its check saying why, before any request; a self-hosted one passes.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as connection from "../../provider/connection/provider";
import { checkFailures } from "../support/failures";
import { mockApiPerTest } from "../support/mockApi";

const ch = { name: "ch", host: "http://127.0.0.1:8123", username: "default" };
const failures = checkFailures(connection.check);

mockApiPerTest();
beforeEach(() => {
  process.env.ALERTPIPE_CLICKSTACK_ORGANIZATION_ID = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
  process.env.ALERTPIPE_CLICKSTACK_SERVICE_ID = "7b2c3d4e-5f60-4b7c-9d8e-0f1a2b3c4d5e";
  delete process.env.ALERTPIPE_ALERTING_URL;
  delete process.env.ALERTPIPE_ALERTING_TOKEN;
});
afterEach(() => {
  delete process.env.ALERTPIPE_CLICKSTACK_ORGANIZATION_ID;
  delete process.env.ALERTPIPE_CLICKSTACK_SERVICE_ID;
});

describe("a Connection on managed ClickStack", () => {
  it("fails its check naming why: the platform makes the connection", async () => {
    const reasons = (await failures(ch)).map((f) => f.reason).join("\n");
    expect(reasons).toContain("managed ClickStack");
    expect(reasons).toContain("has no connections route");
  });
});

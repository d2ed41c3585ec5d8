// On managed ClickStack there is no connections route (its platform makes the connection), so a
// Connection fails its check saying why, before any request; a self-hosted one passes.

import { describe, expect, it } from "vitest";
import * as connection from "../../provider/connection/provider";
import { checkFailures } from "../support/failures";
import { managedClickStackPerTest, mockApiPerTest } from "../support/mockApi";

const ch = { name: "ch", host: "http://127.0.0.1:8123", username: "default" };
const failures = checkFailures(connection.check);

mockApiPerTest();
managedClickStackPerTest();

describe("a Connection on managed ClickStack", () => {
  it("fails its check naming why: the platform makes the connection", async () => {
    const reasons = (await failures(ch)).map((f) => f.reason).join("\n");
    expect(reasons).toContain("managed ClickStack");
    expect(reasons).toContain("has no connections route");
  });
});

// The real alerting service as this tier runs it: HyperDX's own API server (vendor/hyperdx/) on a
// fresh database, a user made by its registration. These pin the facts the provider's pacing and
// the differential suite rely on; if HyperDX changes them, these fail first.

import { describe, expect, it } from "vitest";
import { call, realServicePerFile } from "../support/realService";

const service = realServicePerFile();

describe("the real alerting service", () => {
  it("answers GET /api/v2 with its version and the key's user", async () => {
    const answer = await call(service(), "GET", "/api/v2");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ version: "v2", user: { accessKey: service().accessKey } });
  });

  it("counts each key's requests to /api/v2/alerts in the RateLimit-* headers of every answer, 404s included", async () => {
    const first = await call(service(), "GET", "/api/v2/alerts");
    const missing = await call(service(), "GET", "/api/v2/alerts/0123456789abcdef01234567");
    expect(missing.status).toBe(404);
    expect(first.headers["ratelimit-limit"]).toBe("100");
    expect(Number(missing.headers["ratelimit-remaining"])).toBe(Number(first.headers["ratelimit-remaining"]) - 1);
    expect(Number(missing.headers["ratelimit-reset"])).toBeGreaterThanOrEqual(0);
    expect(Number(missing.headers["ratelimit-reset"])).toBeLessThanOrEqual(60);
  });

  it("refuses a key it does not know with 401, having counted the request against that key", async () => {
    const answer = await call({ url: service().url, accessKey: "not-a-key" }, "GET", "/api/v2/alerts");
    expect(answer.status).toBe(401);
    expect(answer.headers["ratelimit-remaining"]).toBe("99");
  });
});

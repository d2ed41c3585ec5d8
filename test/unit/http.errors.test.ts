// The HTTP layer's errors are one hierarchy: whatever the kind, a caller finds method, path,
// status, requestId and a stable code on the base class, and a transport error's reason as a field.

import { describe, expect, it } from "vitest";
import {
  ApiError,
  HttpError,
  OutcomeUnknownError,
  RateLimitWaitError,
  TransportError,
  UnexpectedResponseError,
} from "../../provider/errors";

const ref = { method: "POST", path: "/v1/things" };

describe("the HTTP error hierarchy", () => {
  it("gives every kind the base fields and a stable code", () => {
    const api = new ApiError(ref, 429, "slow down", "rid-1");
    const kinds: Array<[HttpError, string, number | undefined, string | undefined]> = [
      [api, "RATE_LIMITED", 429, "rid-1"],
      [new ApiError(ref, 424, "idle", undefined), "SERVICE_IDLE", 424, undefined],
      [new RateLimitWaitError(ref, 120_000, 30_000, new Date(0), api), "RATE_LIMIT_WAIT_TOO_LONG", 429, "rid-1"],
      [new TransportError(ref, "connect refused (ECONNREFUSED)", "ECONNREFUSED"), "TRANSPORT", undefined, undefined],
      [
        new OutcomeUnknownError(ref, "a thing", "the service answered 502", { status: 502, requestId: "rid-2" }),
        "OUTCOME_UNKNOWN",
        502,
        "rid-2",
      ],
      [new UnexpectedResponseError(ref, "id is missing", "rid-3"), "UNEXPECTED_RESPONSE", undefined, "rid-3"],
    ];
    for (const [err, code, status, requestId] of kinds) {
      expect(err).toBeInstanceOf(HttpError);
      expect(err).toBeInstanceOf(Error);
      expect(err).toMatchObject({ method: "POST", path: "/v1/things", code, status, requestId });
    }
  });

  it("keeps a transport error's reason as a field, so nothing parses the message", () => {
    const err = new TransportError(ref, "socket hang up (UND_ERR_SOCKET)", "UND_ERR_SOCKET");
    expect(err.reason).toBe("socket hang up (UND_ERR_SOCKET)");
    expect(err.message).toBe("[TRANSPORT] POST /v1/things got no answer: socket hang up (UND_ERR_SOCKET)");
    expect(err.transportCode).toBe("UND_ERR_SOCKET");
  });
});

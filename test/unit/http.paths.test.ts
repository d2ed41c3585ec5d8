// The one module every resource's path goes through (provider/http/paths.ts): which ids may be a
// path segment, and the guard in `send` for a path built any other way.

import { describe, expect, it } from "vitest";
import { apiPath, idProblem, MAX_ID_CHARS } from "../../provider/http/paths";
import { send } from "../../provider/http/client";
import { connectionFor } from "../../provider/runtime/connection";
import { IdFormError } from "../../provider/errors";
import { failure } from "../support/failures";
import { mockApiPerTest } from "../support/mockApi";

const UUID = "0f8fad5b-d9cb-469f-a165-70867728950e";

describe("an id as a path segment", () => {
  it.each(["", " ", ".", "..", "%2e", "%2E%2e", "a/b", "a%2fb", "a\\b", "x".repeat(MAX_ID_CHARS + 1)])(
    "is refused when it is %j",
    (id) => expect(idProblem(id, "opaque")).toBeDefined(),
  );

  it.each(["65f0c1a2b3c4d5e6f7a8b9c0", "a b", "a?b#c", "...", ".a", "%zz", "x".repeat(MAX_ID_CHARS)])(
    "is taken, encoded, when opaque and %j",
    (id) => {
      expect(idProblem(id, "opaque")).toBeUndefined();
      expect(apiPath("alert", "/api/v2/alerts/", { name: "id", value: id, form: "opaque" })).toBe(
        `/api/v2/alerts/${encodeURIComponent(id)}`,
      );
    },
  );

  it("of a uuid's form must be a uuid, in either letter case", () => {
    expect(idProblem(UUID, "uuid")).toBeUndefined();
    expect(idProblem(UUID.toUpperCase(), "uuid")).toBeUndefined();
    expect(idProblem("org-1", "uuid")).toMatch(/uuid/);
  });

  it("is refused with ID_FORM naming the resource, the part and the id, shortened in words and whole on the error", () => {
    const long = `${"a".repeat(50_000)}..`;
    let err: unknown;
    try {
      apiPath("API key", "/v1/organizations/", { name: "organizationId", value: long, form: "uuid" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(IdFormError);
    const e = err as IdFormError;
    expect(e.code).toBe("ID_FORM");
    expect(e.message).toMatch(/^\[ID_FORM\] the API key's organizationId "a+"… \(50002 characters\)/);
    expect(e.message.length).toBeLessThan(400);
    expect(e.id).toBe(long);
  });
});

describe("send", () => {
  const { seen } = mockApiPerTest();

  it.each(["/api/v2/alerts/..", "/api/v2/alerts/.", "/api/v2//alerts", "/api/v2/alerts/%2E%2E"])(
    "refuses a path holding an empty or dot segment (%s) without sending it",
    async (path) => {
      const err = await failure(send(connectionFor("alerting"), { method: "DELETE", path }));
      expect(err).toBeInstanceOf(IdFormError);
      expect(seen).toHaveLength(0);
    },
  );
});

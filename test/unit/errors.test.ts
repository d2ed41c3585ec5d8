// Every error kind has a stable code from the one table of codes (provider/errors.ts' ERROR_CODES),
// and its message starts with that code in brackets: the engine prints only the message, so that
// is where a user sees the code docs/errors.md explains (its table is ERROR_CODES, held here).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  AlertpipeError,
  AmbiguousCreateError,
  ApiError,
  AttemptTimeout,
  ConfigError,
  ERROR_CODES,
  TRANSPORT_CODES_ADVICE,
  IdFormError,
  ImportIdFormError,
  ImportIdOnReplaceError,
  ImportNotFoundError,
  OutcomeUnknownError,
  PartialFailure,
  RateLimitWaitError,
  TransportError,
  UnexpectedResponseError,
  UnknownResourceTypeError,
  StillReferencedError,
  UsageError,
  UnusableKeyLeftError,
  LookupArgumentError,
  LookupNotFoundError,
  LookupAmbiguousError,
  UnknownFunctionError,
  type AlertpipeErrorCode,
} from "../../provider/errors";
// Type-only: the entry loads the resource classes, whose shims a unit test cannot require.
import type * as entry from "../../provider/index";

const ref = { method: "POST", path: "/v1/things" };
const lost = new OutcomeUnknownError(ref, "a thing", "the service answered 502", { status: 502 });
const setting = { configKey: "alertpipe:cloudUrl", envVar: "ALERTPIPE_CLOUD_URL", description: "the base URL" };

/** One of each kind, with every code ApiError can carry. */
const EXAMPLES: readonly AlertpipeError[] = [
  new ConfigError("cloudUrl", setting, "alertpipe:cloudUrl is not set"),
  new ApiError(ref, 400, "bad", "rid-1"),
  new ApiError(ref, 404, "gone", undefined),
  new ApiError(ref, 429, "slow down", undefined),
  new ApiError(ref, 424, "idle", undefined),
  new RateLimitWaitError(ref, 300_000, 120_000, new Date(0), new ApiError(ref, 429, "slow down", undefined)),
  lost,
  new AmbiguousCreateError(lost, ["a", "b"]),
  new UnexpectedResponseError(ref, "id is missing", undefined),
  new ImportNotFoundError(new ApiError(ref, 404, "gone", undefined), "alert", "a-1"),
  new UnusableKeyLeftError(ref, "k-1", new ApiError(ref, 503, "busy", undefined)),
  new AttemptTimeout(60_000),
  new PartialFailure("id-1", {}, new Error("the key cannot be used")),
  new ImportIdOnReplaceError("alert", "a-1", ["name"]),
  new ImportIdFormError("API key", "x", ["organizationId", "id"]),
  new IdFormError("alert", "id", "..", "it names no object"),
  new UnknownResourceTypeError("alertpipe", "alertpipe:index:Nope", ["alertpipe:index:Alert"]),
  new LookupArgumentError("getAlert", "id", "is required"),
  new LookupNotFoundError("getAlert", 'there is no alert with id "a-1"'),
  new LookupAmbiguousError("getApiKey", 'several keys are named "ci"', ["k-1", "k-2"]),
  new UnknownFunctionError("alertpipe", "alertpipe:index:getNope", ["alertpipe:index:getAlert"]),
  new StillReferencedError({ method: "DELETE", path: "/api/v2/webhooks/w1" }, "webhook", ['"cpu" (a1)']),
  new UsageError("--pipe org/svc: give <organizationId>/<serviceId>/<pipeId>"),
];

describe("error codes", () => {
  it("are exported from the package's entry with the classes", () => {
    expectTypeOf<entry.AlertpipeErrorCode>().toEqualTypeOf<AlertpipeErrorCode>();
    expectTypeOf<typeof entry.ERROR_CODES>().toEqualTypeOf<typeof ERROR_CODES>();
    expectTypeOf<typeof entry.ApiError>().toEqualTypeOf<typeof ApiError>();
    expectTypeOf<typeof entry.TransportError>().toEqualTypeOf<typeof TransportError>();
    expectTypeOf<typeof entry.AlertpipeError>().toEqualTypeOf<typeof AlertpipeError>();
  });

  it("give every code of the table to at least one kind, and every kind a code of the table", () => {
    expect(new Set(EXAMPLES.map((e) => e.code))).toEqual(new Set(Object.keys(ERROR_CODES)));
    type OwnKinds =
      | ConfigError
      | ApiError
      | RateLimitWaitError
      | OutcomeUnknownError
      | AmbiguousCreateError
      | UnexpectedResponseError
      | ImportNotFoundError
      | UnusableKeyLeftError
      | AttemptTimeout
      | PartialFailure
      | ImportIdOnReplaceError
      | ImportIdFormError
      | IdFormError
      | UnknownResourceTypeError
      | LookupArgumentError
      | LookupNotFoundError
      | LookupAmbiguousError
      | UnknownFunctionError
      | StillReferencedError
      | UsageError;
    expectTypeOf<OwnKinds["code"]>().toEqualTypeOf<AlertpipeErrorCode>();
  });

  it("start every message with the code in brackets, then the words, which another error quotes without the code", () => {
    for (const err of [...EXAMPLES, new TransportError(ref, "socket hang up (UND_ERR_SOCKET)", "UND_ERR_SOCKET")]) {
      expect(err.message).toBe(`[${err.code}] ${err.detail}`);
      expect(err.detail).not.toMatch(/^\[/);
    }
  });

  it("show one code in a message that quotes another error", () => {
    const drawnBy = new ApiError(ref, 429, "slow down", "rid-1");
    const wait = new RateLimitWaitError(ref, 300_000, 120_000, new Date(0), drawnBy);
    expect(wait.message).toMatch(
      /^\[RATE_LIMIT_WAIT_TOO_LONG\] POST \/v1\/things failed with status 429: slow down \(requestId rid-1\); the service asked/,
    );
    expect(wait.message).not.toContain("[RATE_LIMITED]");
    const partial = new PartialFailure(
      "id-1",
      {},
      new ConfigError("cloudUrl", setting, "alertpipe:cloudUrl is not set"),
    );
    expect(partial.reasons).toEqual([
      `[KEPT_AFTER_FAILURE] alertpipe:cloudUrl is not set: set the stack config "alertpipe:cloudUrl" or the environment variable ALERTPIPE_CLOUD_URL (the base URL)`,
    ]);
  });
});

describe("docs/errors.md", () => {
  it("lists every code with what to do, as ERROR_CODES says, in its order, then the transport codes", () => {
    const lines = readFileSync(join(__dirname, "..", "..", "docs", "errors.md"), "utf8").split("\n");
    const start = lines.indexOf("| Code | What to do |");
    expect(start).toBeGreaterThan(0);
    const rows: string[] = [];
    // The header's separator row, then rows until the table ends.
    for (const line of lines.slice(start + 2)) {
      if (!line.startsWith("|")) break;
      rows.push(line.trim());
    }
    const expected = Object.entries(ERROR_CODES).map(([code, advice]) => `| \`${code}\` | ${advice} |`);
    expected.push(
      `| a socket or undici code (\`ECONNREFUSED\`, \`UND_ERR_SOCKET\`, \`ATTEMPT_TIMEOUT\`, …) | ${TRANSPORT_CODES_ADVICE} |`,
    );
    expect(rows).toEqual(expected);
  });
});

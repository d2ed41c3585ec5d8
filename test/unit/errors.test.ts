// Every error kind has a stable code from the one table of codes (provider/errors.ts' ERROR_CODES),
// and its message starts with that code in brackets: the engine prints only the message, so that
// is where a user sees the code docs/errors.md explains (its table is ERROR_CODES, held here).
// A check failure is no thrown error: its reason, which the engine prints after "has a problem:",
// starts with INVALID_INPUT (or a connection setting's CONFIG).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  AlertpipeError,
  AmbiguousCreateError,
  ApiError,
  ServiceNotAwakeError,
  AttemptTimeout,
  ConfigError,
  CredentialRefusedError,
  ERROR_CODES,
  TileNotAlertableError,
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
  PipeStateError,
  UsageError,
  InternalError,
  UnusableKeyLeftError,
  LookupArgumentError,
  LookupNotFoundError,
  LookupAmbiguousError,
  UnknownFunctionError,
  type AlertpipeErrorCode,
} from "../../provider/errors";
// Type-only: the entry loads the resource classes, whose shims a unit test cannot require.
import type * as entry from "../../provider/index";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { behaviour as pipeSettingsBehaviour } from "../../provider/pipeSettings/behaviour";
import { dynamicProvider } from "../../provider/dynamic/provider";
import { PIPE_IDS } from "../support/fixtures";
import { connectionEnvPerFile } from "../support/mockApi";

connectionEnvPerFile();

const ref = { method: "POST", path: "/v1/things" };
const lost = new OutcomeUnknownError(ref, "a thing", "the service answered 502", { status: 502 });
const setting = { configKey: "alertpipe:cloudUrl", envVar: "ALERTPIPE_CLOUD_URL", description: "the base URL" };

/** One of each kind, with every code ApiError can carry. */
const EXAMPLES: readonly AlertpipeError[] = [
  new ConfigError("cloudUrl", setting, "alertpipe:cloudUrl is not set"),
  new CredentialRefusedError(new ApiError(ref, 401, "missing or invalid credentials", "rid-401")),
  new ApiError(ref, 400, "bad", "rid-1"),
  new ApiError(ref, 404, "gone", undefined),
  new ApiError(ref, 429, "slow down", undefined),
  new ApiError(ref, 424, "idle", undefined),
  new ServiceNotAwakeError(ref, "svc-1", "awaking", 600_000, new ApiError(ref, 424, "Current state: idle", undefined)),
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
  new TileNotAlertableError('the dashboard "Ops" has no tile named "Nope"; its tiles that take an alert: "Errors"'),
  new PipeStateError('the ClickPipe "events"', "Failed", "Stopped or Paused", "broke"),
  new UsageError("--pipe org/svc: give <organizationId>/<serviceId>/<pipeId>"),
  new TransportError(ref, "socket hang up (UND_ERR_SOCKET)", "UND_ERR_SOCKET"),
  new InternalError(new TypeError("cannot read properties of undefined")),
];

/** The code a check failure's reason starts with, as the engine prints it after "has a problem:". */
async function checkFailureCodes(props: Record<string, unknown>): Promise<string[]> {
  const failures = (await pipeSettings.check({}, { ...PIPE_IDS, ...props })).failures ?? [];
  return failures.map((f) => /^\[([A-Z_]+)\] /.exec(f.reason)?.[1] ?? `no code: ${f.reason}`);
}

describe("error codes", () => {
  it("are exported from the package's entry with the classes", () => {
    expectTypeOf<entry.AlertpipeErrorCode>().toEqualTypeOf<AlertpipeErrorCode>();
    expectTypeOf<typeof entry.ERROR_CODES>().toEqualTypeOf<typeof ERROR_CODES>();
    expectTypeOf<typeof entry.ApiError>().toEqualTypeOf<typeof ApiError>();
    expectTypeOf<typeof entry.TransportError>().toEqualTypeOf<typeof TransportError>();
    expectTypeOf<typeof entry.AlertpipeError>().toEqualTypeOf<typeof AlertpipeError>();
  });

  it("give every code of the table to at least one kind or to check failures, and every kind a code of the table", async () => {
    const checks = await checkFailureCodes({ dbMaxThreads: 100_000 });
    expect(new Set([...EXAMPLES.map((e) => e.code), ...checks])).toEqual(new Set(Object.keys(ERROR_CODES)));
    type OwnKinds =
      | ConfigError
      | CredentialRefusedError
      | ApiError
      | ServiceNotAwakeError
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
      | TileNotAlertableError
      | PipeStateError
      | UsageError
      | TransportError
      | InternalError;
    // INVALID_INPUT is a check failure's, never thrown.
    expectTypeOf<OwnKinds["code"]>().toEqualTypeOf<Exclude<AlertpipeErrorCode, "INVALID_INPUT">>();
  });

  it("start every message with the code in brackets, then the words, which another error quotes without the code", () => {
    for (const err of EXAMPLES) {
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

describe("check failures", () => {
  it("start with INVALID_INPUT, the one code of bad input, at a top-level or a nested property", async () => {
    expect(await checkFailureCodes({ dbMaxThreads: 100_000, dbMinThreads: "x" })).toEqual([
      "INVALID_INPUT",
      "INVALID_INPUT",
    ]);
  });

  it("start with CONFIG for a connection setting, naming no property", async () => {
    const url = process.env.ALERTPIPE_CLOUD_URL;
    delete process.env.ALERTPIPE_CLOUD_URL;
    try {
      const failures = (await pipeSettings.check({}, { ...PIPE_IDS, dbMaxThreads: 8 })).failures;
      expect(failures).toEqual([{ property: "", reason: expect.stringMatching(/^\[CONFIG\] alertpipe:cloudUrl/) }]);
    } finally {
      process.env.ALERTPIPE_CLOUD_URL = url;
    }
  });
});

describe("a transport failure", () => {
  it("says TRANSPORT first and keeps the socket's code as transportCode and in its words", () => {
    const err = new TransportError(ref, "connect ECONNREFUSED 127.0.0.1:1 (ECONNREFUSED)", "ECONNREFUSED");
    expect(err.message).toBe(
      "[TRANSPORT] POST /v1/things got no answer: connect ECONNREFUSED 127.0.0.1:1 (ECONNREFUSED)",
    );
    expect(err).toMatchObject({ code: "TRANSPORT", transportCode: "ECONNREFUSED" });
  });
});

describe("an error not of our making", () => {
  it("leaves the dynamic door starting with INTERNAL, its words and cause kept; ours pass unchanged", async () => {
    const boom = new TypeError("cannot read properties of undefined (reading 'x')");
    const door = dynamicProvider({
      ...pipeSettingsBehaviour,
      diff: () => Promise.reject(boom),
      delete: () => Promise.reject(new UsageError("ours")),
    });
    const err = await door.diff("id", {}, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalError);
    expect(err).toMatchObject({
      message: "[INTERNAL] cannot read properties of undefined (reading 'x')",
      code: "INTERNAL",
      cause: boom,
    });
    expect(await door.delete("id", {}).catch((e: unknown) => e)).toMatchObject({ message: "[USAGE] ours" });
  });
});

describe("docs/errors.md", () => {
  it("lists every code with what to do, as ERROR_CODES says, in its order", () => {
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
    expect(rows).toEqual(expected);
    expect(TRANSPORT_CODES_ADVICE).toBe(ERROR_CODES.TRANSPORT);
  });
});

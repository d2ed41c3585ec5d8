// Test support: points the provider at fake origins served by undici's MockAgent, with canary
// credentials whose appearance in any error would be a leak.

import { MockAgent, errors as undiciErrors } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { CONNECTION_SETTINGS } from "../../provider/runtime/connection";
import { resetRuntime, useRuntime } from "../../provider/runtime/runtime";
import { SETTINGS_PATH } from "./fixtures";

export const ALERTING_ORIGIN = "https://alerts.example.test";
export const CLOUD_ORIGIN = "https://cloud.example.test";
export const CANARY = {
  token: "tok-CANARY-7f3e9a",
  keyId: "KEYID-CANARY",
  keySecret: "secret-CANARY-91c2d8",
} as const;

export const CLOUD_AUTH = `Basic ${Buffer.from(`${CANARY.keyId}:${CANARY.keySecret}`).toString("base64")}`;
export const ALERTING_AUTH = `Bearer ${CANARY.token}`;

const ENV = {
  ALERTPIPE_ALERTING_URL: ALERTING_ORIGIN,
  ALERTPIPE_ALERTING_TOKEN: CANARY.token,
  ALERTPIPE_CLOUD_URL: CLOUD_ORIGIN,
  ALERTPIPE_CLOUD_KEY_ID: CANARY.keyId,
  ALERTPIPE_CLOUD_KEY_SECRET: CANARY.keySecret,
  ALERTPIPE_CLOUD_RATE_LIMIT: "off",
  ALERTPIPE_ALERTING_RATE_LIMIT: "off",
  // The mocked alerting service speaks the contract, said so: a search alert asks nothing first (alert/dialect.ts).
  ALERTPIPE_ALERTING_DIALECT: "contract",
};

export interface MockApi {
  agent: MockAgent;
  alerting: ReturnType<MockAgent["get"]>;
  cloud: ReturnType<MockAgent["get"]>;
  close(): Promise<void>;
}

/** Installs a MockAgent that refuses any request not explicitly intercepted. */
export function mockApi(): MockApi {
  const agent = new MockAgent();
  agent.disableNetConnect();
  resetRuntime();
  useRuntime({ dispatcher: agent, retryPolicy: { maxAttempts: 4, maxTotalMs: 5_000, baseDelayMs: 1, maxDelayMs: 5 } });
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(ENV)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  return {
    agent,
    alerting: agent.get(ALERTING_ORIGIN),
    cloud: agent.get(CLOUD_ORIGIN),
    async close() {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetRuntime();
      await agent.close();
    },
  };
}

/** For a test file: a fresh MockApi before each test, closed after it, and the requests it saw (emptied for each test). */
export function mockApiPerTest(): { readonly api: MockApi; readonly seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  let current: MockApi | undefined;
  beforeEach(() => {
    current = mockApi();
    seen.length = 0;
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get api(): MockApi {
      if (!current) throw new Error("mockApiPerTest: the mock API exists only while a test runs");
      return current;
    },
    seen,
  };
}

/**
 * For a describe of what a read makes of its answer: the GET path, each read its own GET, as a
 * process reading by list does only when the list cannot tell. A read served by the list returns
 * exactly what this path returns (test/unit/listedReads.equivalence.test.ts).
 */
export function readByGetPerTest(): void {
  beforeEach(() => useRuntime({ readByList: false }));
}

/** A uuid v4 for request ids in fake answers. */
export function requestId(): string {
  return "5b0c2b4e-8f1a-4c39-9d2e-3f6a7b8c9d0e";
}

/** Area B's answer: its envelope around `result`. */
export function cloudAnswer(result: unknown, status = 200): { requestId: string; status: number; result: unknown } {
  return { requestId: requestId(), status, result };
}

/** Asserts-friendly text of everything an error carries (message, causes, own fields). */
export function errorText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err, depth = 0; Boolean(e) && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    parts.push(String(e), JSON.stringify(e), (e as Error).stack ?? "");
  }
  return parts.join("\n");
}

/** A request as the fake service saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Pool = MockApi["cloud"];

/**
 * Answers one request to `method path` on `pool` and records what was sent into `seen`. A string
 * `data` is answered as plain text, anything else as JSON.
 */
export function answerOnce(
  pool: Pool,
  seen: SeenRequest[],
  request: { method: string; path: string },
  status: number,
  data: unknown,
  headers: Record<string, string> = {},
): void {
  pool.intercept(request).reply((opts) => {
    record(seen, opts);
    const text = typeof data === "string" ? data : JSON.stringify(data);
    const type = typeof data === "string" ? "text/plain" : "application/json";
    return { statusCode: status, data: text, responseOptions: { headers: { "content-type": type, ...headers } } };
  });
}

/** Answers one GET of the fixtures' pipe's settings with `settings` (wire names), as the cloud API does. */
export function settingsAnsweredOnce(
  mock: { readonly api: MockApi; readonly seen: SeenRequest[] },
  settings: Record<string, unknown>,
): void {
  answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: SETTINGS_PATH }, 200, cloudAnswer(settings));
}

/**
 * Cuts the connection on one request to `method path` on `pool` before any answer, as a service
 * that dies mid-request, and records what was sent into `seen`.
 */
export function cutOnce(pool: Pool, seen: SeenRequest[], request: { method: string; path: string }): void {
  pool.intercept(request).reply((opts) => {
    record(seen, opts);
    throw new undiciErrors.SocketError("other side closed");
  });
}

function record(seen: SeenRequest[], opts: { method: string; path: string; headers?: unknown; body?: unknown }): void {
  const raw = typeof opts.body === "string" ? opts.body : undefined;
  seen.push({
    method: opts.method,
    path: opts.path,
    headers: opts.headers as Record<string, string>,
    body: raw === undefined ? undefined : JSON.parse(raw),
  });
}

/**
 * For a test file that calls `check` alone: the connection settings present in the environment,
 * as a configured stack has them, since check reports missing ones. Restored after the file.
 */
export function connectionEnvPerFile(): void {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const [k, v] of Object.entries(ENV)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

/**
 * For a test file about the connection itself: every test starts with no connection setting in the
 * environment and no stack config, and the environment is put back after each.
 */
export function noConnectionPerTest(): void {
  const names = Object.values(CONNECTION_SETTINGS).map((s) => s.envVar);
  let saved: Record<string, string | undefined> = {};
  beforeEach(() => {
    saved = Object.fromEntries(names.map((k) => [k, process.env[k]]));
    for (const k of names) delete process.env[k];
    useRuntime({ config: undefined });
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    useRuntime({ config: undefined });
  });
}

/** The organization and service of managed ClickStack in the unit tests that speak to it. */
export const CLICKSTACK_ORG = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
export const CLICKSTACK_SVC = "7b2c3d4e-5f60-4b7c-9d8e-0f1a2b3c4d5e";

/**
 * For a test file about managed ClickStack: each test runs with its two ids set and no alerting URL
 * or token, so the alerting area goes through the Cloud's /clickstack path; the ids are unset after.
 */
export function managedClickStackPerTest(): void {
  beforeEach(() => {
    process.env.ALERTPIPE_CLICKSTACK_ORGANIZATION_ID = CLICKSTACK_ORG;
    process.env.ALERTPIPE_CLICKSTACK_SERVICE_ID = CLICKSTACK_SVC;
    delete process.env.ALERTPIPE_ALERTING_URL;
    delete process.env.ALERTPIPE_ALERTING_TOKEN;
  });
  afterEach(() => {
    delete process.env.ALERTPIPE_CLICKSTACK_ORGANIZATION_ID;
    delete process.env.ALERTPIPE_CLICKSTACK_SERVICE_ID;
  });
}

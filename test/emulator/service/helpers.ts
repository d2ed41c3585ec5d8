// Small helpers shared by the emulator tests: start one emulator per test and call it with fetch.

import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { afterEach } from "vitest";
import { tileAlert } from "../../support/fixtures";
import { lineTile } from "../../../scripts/record/scenarios/observability";
import {
  SEEDED_SOURCES,
  startEmulator,
  type EmulatorOptions,
  type RunningEmulator,
  type StoredAlert,
  type StoredKey,
} from "../../../emulator/index";
import { DELIBERATE_HEADER } from "../../../emulator/exchangeLog";

const running: RunningEmulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

/** Starts an emulator on a free port, closed automatically after the test. */
export async function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = await startEmulator({ port: 0, ...options });
  running.push(emulator);
  return emulator;
}

export interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

/** `data` of an area A answer, typed as the emulator stores alerts. */
export function data(answer: Answer): StoredAlert {
  return answer.json.data as StoredAlert;
}

/** `result` of an area B answer; the caller names the shape it expects and the assertions check it. */
export function result<T = Record<string, unknown>>(answer: Answer): T {
  return answer.json.result as T;
}

export type PublicKey = Omit<StoredKey, "organizationId" | "keyId" | "keySecretSha256" | "hashData">;
export interface KeyCreated {
  key: PublicKey;
  keyId: string;
  keySecret: string;
}

export interface CallOptions {
  /** Sent as JSON unless it is a string (sent as is). */
  body?: unknown;
  /** Full Authorization header value; undefined sends none. */
  auth?: string | undefined;
}

const wrongOnPurpose = new AsyncLocalStorage<true>();

/**
 * A test whose requests are wrong on purpose (a bad body, no credentials, a route that is not
 * there): each carries `x-alertpipe-deliberate: invalid`, which leaves it out of the openapi tier's
 * request validation; the emulator's answers to it are still validated.
 */
export function deliberately<A extends unknown[]>(test: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return (...args) => wrongOnPurpose.run(true, () => test(...args));
}

/** The header of a request wrong on purpose, for a test that calls fetch itself. */
export const DELIBERATE = { [DELIBERATE_HEADER]: "invalid" } as const;

export async function call(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.auth !== undefined) headers.authorization = options.auth;
  if (wrongOnPurpose.getStore() === true) headers[DELIBERATE_HEADER] = "invalid";
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  const res = await fetch(emulator.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    // An HTML page (the ClickHouse Cloud gateway's 404 for a route it does not serve) has no JSON.
    json:
      text === "" || (res.headers.get("content-type") ?? "").startsWith("text/html")
        ? {}
        : (JSON.parse(text) as Record<string, unknown>),
  };
}

export function bearer(emulator: RunningEmulator): string {
  return `Bearer ${emulator.token}`;
}

export function basic(keyId: string, keySecret: string): string {
  return `Basic ${Buffer.from(`${keyId}:${keySecret}`, "utf8").toString("base64")}`;
}

export function bootstrap(emulator: RunningEmulator): string {
  return basic(emulator.keyId, emulator.keySecret);
}

/** Calls area A with the emulator's token. */
export function alerting(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<Answer> {
  return call(emulator, method, path, { auth: bearer(emulator), body });
}

/** Calls area B with the emulator's bootstrap credentials (or the given Authorization value). */
export function cloud(
  emulator: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
  auth?: string,
): Promise<Answer> {
  return call(emulator, method, path, { auth: auth ?? bootstrap(emulator), body });
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function settingsPath(
  org: string = randomUUID(),
  svc: string = randomUUID(),
  pipe: string = randomUUID(),
): string {
  return `/v1/organizations/${org}/services/${svc}/pipes/${pipe}/settings`;
}

export const validAlert = {
  ...tileAlert,
  threshold: 5,
  channel: { type: "webhook", webhookId: "wh-1" },
  name: "errors high",
  message: "too many errors",
} as const;

/** What an alert may name, made through the emulator's API (the 2026 mode checks each exists). */
export interface Referents {
  readonly hooks: readonly [string, string];
  readonly savedSearchId: string;
  /** A dashboard with one line tile, which a tile alert names (the 2026 mode looks both up). */
  readonly dashboardId: string;
  readonly tileId: string;
}

/** A tile alert's dashboardId and tileId on the referents' dashboard. */
export const onTile = (refs: Referents) => ({ dashboardId: refs.dashboardId, tileId: refs.tileId });

/** Two webhooks, a saved search on a seeded source and a dashboard, made through the emulator's API. */
export async function makeReferents(emulator: RunningEmulator): Promise<Referents> {
  const made = async (path: string, body: unknown) => data(await alerting(emulator, "POST", path, body)).id;
  const hook = (name: string) =>
    made("/api/v2/webhooks", { name, service: "generic", url: `https://example.com/${name}` });
  const board = data(
    await alerting(emulator, "POST", "/api/v2/dashboards", {
      name: "ops",
      tiles: [lineTile("errors", SEEDED_SOURCES[0].id, 0, 0, [{ aggFn: "count" }])],
    }),
  ) as unknown as { id: string; tiles: { id: string }[] };
  return {
    hooks: [await hook("wh-1"), await hook("wh-2")],
    savedSearchId: await made("/api/v2/saved-searches", { name: "errors", sourceId: SEEDED_SOURCES[0].id }),
    dashboardId: board.id,
    tileId: board.tiles[0]?.id ?? "",
  };
}

/** Creates a key in `org` with the bootstrap credentials; returns the answer's result. */
export async function createKey(
  emulator: RunningEmulator,
  org: string,
  body: Record<string, unknown> = {},
): Promise<KeyCreated> {
  const answer = await cloud(emulator, "POST", `/v1/organizations/${org}/keys`, { roles: ["admin"], ...body });
  if (answer.status !== 200) throw new Error(`key creation failed: ${answer.status} ${JSON.stringify(answer.json)}`);
  return result<KeyCreated>(answer);
}

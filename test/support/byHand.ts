// Test support: a request sent to the emulator by hand, as a person does through the service's API
// (or its UI) beside the program, with the emulator's own credentials: the Cloud key under /v1/, the
// alerting token elsewhere.

import type { RunningEmulator } from "../../emulator";
import { CLICKSTACK_IDS } from "./emulatorPerTest";

type Credentials = Pick<RunningEmulator, "url" | "token" | "keyId" | "keySecret">;
type Obj = Record<string, unknown>;

/** The out-of-band change a refresh should find. Fails when the emulator refuses it. */
export async function byHand(emu: Credentials, method: string, path: string, body?: unknown): Promise<unknown> {
  const authorization = path.startsWith("/v1/")
    ? `Basic ${Buffer.from(`${emu.keyId}:${emu.keySecret}`).toString("base64")}`
    : `Bearer ${emu.token}`;
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} by hand failed with ${res.status}: ${text}`);
  return (res.headers.get("content-type") ?? "").includes("json") && text !== "" ? (JSON.parse(text) as unknown) : text;
}

export const CLICKSTACK_BASE = `/v1/organizations/${CLICKSTACK_IDS.organizationId}/services/${CLICKSTACK_IDS.serviceId}/clickstack`;

/**
 * An object of HyperDX's API by hand, `path` as HyperDX spells it under /api/v2 (`/sources/ID`): on
 * HyperDX itself, or on managed ClickStack under the Cloud's /clickstack. Answers HyperDX's `data`, the
 * Cloud's `result`.
 */
export async function objectByHand(
  emu: Credentials,
  where: "alerting" | "clickstack",
  method: string,
  path: string,
  body?: unknown,
): Promise<Obj> {
  const managed = where === "clickstack";
  const answer = (await byHand(emu, method, `${managed ? CLICKSTACK_BASE : "/api/v2"}${path}`, body)) as Obj;
  return (managed ? answer.result : answer.data) as Obj;
}

/** The object as a PUT takes it back: without the service's own members. */
export function asPutBody(object: Obj): Obj {
  const { id: _id, createdAt: _c, updatedAt: _u, teamId: _t, ...rest } = object;
  return rest;
}

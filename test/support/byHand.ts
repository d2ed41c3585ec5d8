// Test support: a request sent to the emulator by hand, as a user does through the service's API (or
// its UI) beside the program: HyperDX's /api/v2 with the alerting token, or managed ClickStack's
// /clickstack with the Cloud key. Answers the object (HyperDX's `data`, the Cloud's `result`).

import type { RunningEmulator } from "../../emulator";
import { CLICKSTACK_IDS } from "./emulatorPerTest";

export const CLICKSTACK_BASE = `/v1/organizations/${CLICKSTACK_IDS.organizationId}/services/${CLICKSTACK_IDS.serviceId}/clickstack`;

type Obj = Record<string, unknown>;

/** `path` as HyperDX spells it under /api/v2 (e.g. `/sources/ID`). */
export async function byHand(
  emulator: RunningEmulator,
  service: "alerting" | "clickstack",
  method: string,
  path: string,
  body?: unknown,
): Promise<Obj> {
  const managed = service === "clickstack";
  const authorization = managed
    ? `Basic ${Buffer.from(`${emulator.keyId}:${emulator.keySecret}`).toString("base64")}`
    : `Bearer ${emulator.token}`;
  const res = await fetch(`${emulator.url}${managed ? CLICKSTACK_BASE : "/api/v2"}${path}`, {
    method,
    headers: { authorization, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path} by hand: ${res.status} ${text}`);
  const answer = JSON.parse(text) as Obj;
  return (managed ? answer.result : answer.data) as Obj;
}

/** The object as a PUT takes it back: without the service's own members. */
export function asPutBody(object: Obj): Obj {
  const { id: _id, createdAt: _c, updatedAt: _u, teamId: _t, ...rest } = object;
  return rest;
}

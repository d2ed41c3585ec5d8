// Finding an alert on the service by what a program sends: the alerts a lost POST may have made
// (recovery) and whether a live alert already is what the program asks for (importId); and the
// listing that serves reads (reading/listedReads.ts).

import { z } from "../protocol/zod";
import type { AreaConnection } from "../runtime/connection";
import { deepEqual } from "../protocol/diff";
import { decode, send } from "../http/client";
import { ALERT_LIST_PAGE_MAX } from "../serviceFacts/alertRules";
import type { PropertyMap } from "../protocol/properties";
import { createdAfterSend, listedId, type Candidate } from "../creation/recovery";
import type { Collection } from "../reading/listedReads";
import { comparedForm } from "../protocol/definition";
import { ALERT } from "./definition";
import { alertsPath, fromWire, toWire, type WireAlert } from "./wire";

const compared = comparedForm(ALERT);

/** A list answer: alerts in `data`, each read as liberally as a single one. */
const alertList = z.object({ data: z.array(z.unknown()) });

/** An alert the lost POST may have made, as listed (no second request is needed to adopt it). */
export interface AlertCandidate extends Candidate {
  readonly alert: WireAlert;
}

/**
 * Every alert of the caller, page by page. Stops at a short page, or where the answer shows an
 * older service, which ignores the parameters and answers the whole list for every offset: a page
 * longer than asked for, or one that brings no alert not seen before. An item without a usable id
 * is skipped, since it could never be recorded.
 */
export async function listAlerts(conn: AreaConnection): Promise<AlertCandidate[]> {
  const found = new Map<string, WireAlert>();
  for (let offset = 0; ; offset += ALERT_LIST_PAGE_MAX) {
    const res = await send(conn, {
      method: "GET",
      path: `${alertsPath()}?limit=${ALERT_LIST_PAGE_MAX}&offset=${offset}`,
    });
    const page = decode(alertList, res).data;
    let fresh = 0;
    for (const item of page) {
      const id = listedId(item);
      if (id === undefined || found.has(id)) continue;
      found.set(id, item as WireAlert);
      fresh += 1;
    }
    if (page.length !== ALERT_LIST_PAGE_MAX || fresh === 0) return [...found].map(([id, alert]) => ({ id, alert }));
  }
}

/**
 * The sent value equals the live one: an object's members each as sent (a member the service adds
 * to a channel is not a difference), anything else in the form diff compares.
 */
function sameAsSentValue(name: string, sent: unknown, live: unknown): boolean {
  if (typeof sent === "object" && sent !== null && !Array.isArray(sent)) {
    if (typeof live !== "object" || live === null || Array.isArray(live)) return false;
    return Object.entries(sent).every(([k, v]) => deepEqual(v, (live as Record<string, unknown>)[k]));
  }
  return deepEqual(compared(name, sent), compared(name, live));
}

/** Whether a live alert holds every field the program's body sends, with the value it sends. */
export function matchesWhatIsSent(args: PropertyMap, alert: WireAlert): boolean {
  const live = fromWire(alert);
  return Object.entries(toWire(args)).every(([name, sent]) => sameAsSentValue(name, sent, live[name]));
}

/** The listed alerts a POST of `args` sent at `sentAt` (our clock) may have made. */
export async function alertsMadeBy(conn: AreaConnection, args: PropertyMap, sentAt: number): Promise<AlertCandidate[]> {
  const all = await listAlerts(conn);
  return all.filter((c) => createdAfterSend(c.alert.createdAt, sentAt) && matchesWhatIsSent(args, c.alert));
}

/** The caller's alerts as a collection whose listing serves reads: each listed as its GET answers it, in `data`. */
export function alertCollection(conn: AreaConnection): Collection {
  return {
    path: alertsPath(),
    list: async () => new Map((await listAlerts(conn)).map((c) => [c.id, c.alert])),
    asAnswer: (alert) => ({ data: alert }),
  };
}

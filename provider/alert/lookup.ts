// Alerts found by what a program sends: for a lost POST (recovery) and for importId.

import type { AreaConnection } from "../runtime/connection";
import { deepEqual } from "../protocol/diff";
import { memberOf } from "../protocol/properties";
import { listPaged } from "../reading/pagedList";
import { ALERT_LIST_PAGE_MAX } from "../serviceFacts/alertRules";
import { createdAfterSend, type Candidate } from "../creation/recovery";
import type { Collection } from "../reading/listedReads";
import { comparedForm } from "../protocol/definition";
import { ALERT } from "./definition";
import { alertsPath, fromWire, takesOneChannel, toWire, type Args, type WireAlert } from "./wire";

const compared = comparedForm(ALERT);

/** As listed: adopting it needs no second request. */
export interface AlertCandidate extends Candidate {
  readonly alert: WireAlert;
}

export async function listAlerts(conn: AreaConnection): Promise<AlertCandidate[]> {
  const found = await listPaged(conn, alertsPath(), ALERT_LIST_PAGE_MAX);
  return [...found].map(([id, alert]) => ({ id, alert }));
}

/** A member the service adds to a channel is no difference. */
function sameAsSentValue(name: string, sent: unknown, live: unknown): boolean {
  if (typeof sent === "object" && sent !== null && !Array.isArray(sent)) {
    if (typeof live !== "object" || live === null || Array.isArray(live)) return false;
    return Object.entries(sent).every(([k, v]) => deepEqual(v, memberOf(live, k)));
  }
  return deepEqual(compared(name, sent), compared(name, live));
}

/** `oneChannel`: compared as a service without `channels` holds it (wire.ts). */
export function matchesWhatIsSent(args: Args, alert: WireAlert, oneChannel = false): boolean {
  const live: Readonly<Record<string, unknown>> = fromWire(alert);
  return Object.entries(toWire(args, "contract", oneChannel)).every(([name, sent]) =>
    sameAsSentValue(name, sent, live[name]),
  );
}

/** `sentAt` on our clock. */
export async function alertsMadeBy(conn: AreaConnection, args: Args, sentAt: number): Promise<AlertCandidate[]> {
  const all = await listAlerts(conn);
  return all.filter(
    (c) => createdAfterSend(c.alert.createdAt, sentAt) && matchesWhatIsSent(args, c.alert, takesOneChannel(conn)),
  );
}

/** Each listed as its GET answers it, in `data`. */
export function alertCollection(conn: AreaConnection): Collection {
  return {
    path: alertsPath(),
    list: () => listPaged(conn, alertsPath(), ALERT_LIST_PAGE_MAX),
    asAnswer: (alert) => ({ data: alert }),
  };
}

// The service's DELETE also deletes every alert watching the search. The engine deletes or moves
// this stack's alerts first, so any left are outside it: the delete refuses to take them along.

import { connectionFor, type AreaConnection } from "../runtime/connection";
import { checkedWithCredential } from "../http/credentials";
import { send } from "../http/client";
import { unlessGone } from "../http/gone";
import { StillReferencedError } from "../errors";
import { createRecovering, createdAfterSend, createdId } from "../creation/recovery";
import { alertsReferring, alertsStillReferring, type Listed } from "../reading/pagedList";
import { behaviourOf, type Created, type Found } from "../protocol/behaviour";
import { importIdParts, keptByReplacement, readForImport } from "../creation/importing";
import { claimForThisRun, partsClaimedThisRun } from "../creation/runClaims";
import { notify } from "../runtime/notices";
import { comparedForm, importIdFormOf, type ArgsOf, type StateOf } from "../protocol/definition";
import type { RawInputs, Values } from "../protocol/properties";
import { wholeObject } from "../protocol/wholeObject";
import { ALERTS_PATH, LIST_PAGE_MAX, watchesSearch } from "../serviceFacts/alertRules";
import { SAVED_SEARCH } from "./definition";
import { SEARCHES } from "./wire";

type Args = ArgsOf<typeof SAVED_SEARCH>;
type State = StateOf<typeof SAVED_SEARCH>;

const WHOLE = wholeObject(SAVED_SEARCH, () => false);

const compared = comparedForm(SAVED_SEARCH);

/**
 * The engine checks a replacement's arguments again without olds, after its diff: such a check of
 * arguments this run diffed is a replacement. `--replace` calls no diff; the delete still refuses.
 */
const diffedKey = (args: Values) =>
  `saved search diffed\u0000${JSON.stringify(WHOLE.args.map((n) => compared(n, args[n])))}`;

/** The service deletes the alerts watching a replaced search: say which, in preview and up. */
async function sayReplaced(news: RawInputs): Promise<void> {
  for (const id of partsClaimedThisRun(diffedKey(news))) {
    const alerts = await alertsReferring(connectionFor("alerting"), ALERTS_PATH, LIST_PAGE_MAX, (alert) =>
      watchesSearch(alert, id),
    );
    if (alerts.length === 0) continue;
    notify(
      `pulumi-alertpipe: the saved search ${id} is to be replaced, and ${alerts.length} alert(s) watch it: ${alerts.join(", ")}. ` +
        "The service deletes the alerts that watch a search with it, so the old search's delete is refused (STILL_REFERENCED) " +
        "while any still does; this stack's alerts that take savedSearchId from it are moved to the new search first.",
    );
  }
}

async function check(olds: RawInputs, news: RawInputs) {
  const checked = await checkedWithCredential<Args>("alerting", SAVED_SEARCH, news);
  if (checked.ok && Object.keys(olds).length === 0) await sayReplaced(news);
  return checked;
}

const describe = (args: Args) => `the saved search "${args.name}"`;

async function create(args: Args): Promise<Created<State>> {
  const conn = connectionFor("alerting");
  if (typeof args.importId === "string") return takeOver(conn, args.importId.trim(), args);
  const description = describe(args);
  return createRecovering<Created<State>, { id: string; search: Listed }>({
    description,
    post: async () => {
      const res = await send(conn, {
        method: "POST",
        path: SEARCHES.path(),
        body: SEARCHES.toWire(args),
        creates: description,
      });
      const id = createdId(res, description, SEARCHES.created);
      return { id, outputs: WHOLE.outputs(SEARCHES.objectIn(res.body), args, {}) };
    },
    look: async (sentAt) =>
      [...(await SEARCHES.list(conn))]
        .filter(
          ([, s]) =>
            s.name === args.name.trim() && s.sourceId === args.sourceId && createdAfterSend(s.createdAt, sentAt),
        )
        .map(([id, search]) => ({ id, search })),
    adopt: async (found) => ({ id: found.id, outputs: WHOLE.outputs(found.search, args, {}) }),
  });
}

/** One GET; a PUT only when it differs. */
async function takeOver(conn: AreaConnection, importId: string, args: Args): Promise<Created<State>> {
  const path = SEARCHES.path(importId);
  const got = await readForImport("saved search", importId, () => send(conn, { method: "GET", path }));
  const answer = SEARCHES.objectIn(got.body);
  const live = WHOLE.outputs(answer, {}, {});
  if (!WHOLE.diff(live, args).changes) return { id: importId, outputs: WHOLE.outputs(answer, args, {}) };
  const res = await send(conn, { method: "PUT", path, body: SEARCHES.toWire(args) });
  return { id: importId, outputs: WHOLE.outputs(SEARCHES.objectIn(res.body), args, live) };
}

async function read(id: string, stored: State): Promise<Found<typeof SAVED_SEARCH> | undefined> {
  const conn = connectionFor("alerting");
  const res = await SEARCHES.read(conn, id);
  if (res === undefined) return undefined;
  const outputs = WHOLE.outputs(SEARCHES.objectIn(res.body), stored, stored);
  return { id, outputs, inputs: WHOLE.inputs(outputs) };
}

async function update(id: string, olds: State, news: Args): Promise<State> {
  // A field left out returns to the service's default.
  const res = await send(connectionFor("alerting"), {
    method: "PUT",
    path: SEARCHES.path(id),
    body: SEARCHES.toWire(news),
  });
  return WHOLE.outputs(SEARCHES.objectIn(res.body), news, olds);
}

async function del(id: string): Promise<void> {
  if (keptByReplacement("saved search", id)) return;
  const conn = connectionFor("alerting");
  const path = SEARCHES.path(id);
  // The service would silently delete them with it.
  const alerts = await alertsStillReferring(conn, ALERTS_PATH, LIST_PAGE_MAX, (alert) => watchesSearch(alert, id));
  if (alerts.length > 0) throw new StillReferencedError({ method: "DELETE", path }, "saved search", alerts);
  await unlessGone(() => send(conn, { method: "DELETE", path }));
}

export const behaviour = behaviourOf(SAVED_SEARCH, {
  check,
  diff: async (id, olds, news) => {
    claimForThisRun(diffedKey(news), [id]);
    return WHOLE.diff(olds, news);
  },
  create,
  read,
  readImported: async (importId) =>
    read(importIdParts("saved search", importId, importIdFormOf(SAVED_SEARCH), "opaque")[0] ?? "", {}),
  update,
  delete: del,
  previewCreate: (args) => WHOLE.previewCreate(args),
  previewUpdate: (_id, olds, news) => WHOLE.previewUpdate(olds, news),
});

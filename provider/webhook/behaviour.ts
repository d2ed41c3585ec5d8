// Read through the list: there is no GET of one. Write-only fields go in every PUT, since a PUT
// changing url or service drops those it does not carry.

import { connectionFor, type AreaConnection } from "../runtime/connection";
import { checkedWithCredential } from "../http/credentials";
import { send, type ApiResponse } from "../http/client";
import { unlessGone } from "../http/gone";
import { ApiError, StillReferencedError } from "../errors";
import { createRecovering, createdAfterSend, createdId } from "../creation/recovery";
import { importIdParts, keptByReplacement, listedForImport } from "../creation/importing";
import { alertsStillReferring, type Listed } from "../reading/pagedList";
import { notify } from "../runtime/notices";
import { behaviourOf, type Created, type Found } from "../protocol/behaviour";
import type { CheckFailure } from "../protocol/check";
import { importIdFormOf, type ArgsOf, type StateOf } from "../protocol/definition";
import type { RawInputs } from "../protocol/properties";
import { wholeObject } from "../protocol/wholeObject";
import { ALERTS_PATH, LIST_PAGE_MAX, notifiesWebhook } from "../serviceFacts/alertRules";
import { NOT_FOR_SLACK, isSlackHost } from "../serviceFacts/webhooks";
import { WEBHOOK, isWriteOnly } from "./definition";
import { WEBHOOKS } from "./wire";

type Args = ArgsOf<typeof WEBHOOK>;
type State = StateOf<typeof WEBHOOK>;

const WHOLE = wholeObject(WEBHOOK, isWriteOnly);

/** For the HTTP layer to scrub from errors. */
export function secretsOf(args: Args): string[] {
  const values = (m: Readonly<Record<string, string>> | null | undefined) => Object.values(m ?? {});
  return [...values(args.headers), ...values(args.queryParams)].filter((v) => v !== "");
}

const set = (v: unknown) => v !== undefined && v !== null;

/** Rules of slack webhooks; unknown in preview demands nothing. */
function crossFieldFailures(inputs: RawInputs): CheckFailure[] {
  if (inputs.service !== "slack") return [];
  const failures: CheckFailure[] = NOT_FOR_SLACK.filter((p) => set(inputs[p])).map((property) => ({
    property,
    reason: `${property} is not supported for a slack webhook: leave it out, or use service "generic" or "incidentio"`,
  }));
  const url = inputs.url;
  if (typeof url === "string") {
    let host: string | undefined;
    try {
      host = new URL(url).hostname;
    } catch {
      host = undefined; // the url's own check says what is wrong
    }
    if (host !== undefined && !isSlackHost(host))
      failures.push({
        property: "url",
        reason: `url of a slack webhook must have a host ending in slack.com, not "${host}"`,
      });
  }
  return failures;
}

async function check(_olds: RawInputs, news: RawInputs) {
  return checkedWithCredential<Args>("alerting", WEBHOOK, news, crossFieldFailures);
}

function describe(args: Args): string {
  return `the ${args.service} webhook "${args.name}"`;
}

function outputsAfterWrite(args: Args, res: ApiResponse, before: State = {}): State {
  return WHOLE.outputs(WEBHOOKS.objectIn(res.body), args, before);
}

async function create(args: Args): Promise<Created<State>> {
  const conn = connectionFor("alerting");
  if (typeof args.importId === "string") return takeOver(conn, args.importId.trim(), args);
  const description = describe(args);
  return createRecovering<Created<State>, { id: string; webhook: Listed }>({
    description,
    post: async () => {
      const res = await send(conn, {
        method: "POST",
        path: WEBHOOKS.path(),
        body: WEBHOOKS.toWire(args),
        creates: description,
        secrets: secretsOf(args),
      });
      const id = createdId(res, description, WEBHOOKS.created);
      return { id, outputs: outputsAfterWrite(args, res) };
    },
    // Service and trimmed name are unique, so a match is what the lost POST made.
    look: async (sentAt) =>
      [...(await WEBHOOKS.list(conn))]
        .filter(
          ([, w]) => w.service === args.service && w.name === args.name.trim() && createdAfterSend(w.createdAt, sentAt),
        )
        .map(([id, webhook]) => ({ id, webhook })),
    adopt: async (found) => ({ id: found.id, outputs: WHOLE.outputs(found.webhook, args, {}) }),
  });
}

/** Write-only fields cannot be compared, so set ones count as differing: one PUT, never a POST. */
async function takeOver(conn: AreaConnection, importId: string, args: Args): Promise<Created<State>> {
  const got = await listedForImport("webhook", importId, WEBHOOKS.path(), () => WEBHOOKS.read(conn, importId));
  const answer = WEBHOOKS.objectIn(got.body);
  const live = WHOLE.outputs(answer, {}, {});
  if (!WHOLE.diff(live, args).changes) return { id: importId, outputs: WHOLE.outputs(answer, args, {}) };
  return { id: importId, outputs: outputsAfterWrite(args, await put(conn, importId, args), live) };
}

async function read(id: string, stored: State): Promise<Found<typeof WEBHOOK> | undefined> {
  const conn = connectionFor("alerting");
  const res = await WEBHOOKS.read(conn, id);
  if (res === undefined) return undefined;
  const outputs = WHOLE.outputs(WEBHOOKS.objectIn(res.body), stored, stored);
  return { id, outputs, inputs: WHOLE.inputs(outputs) };
}

/** No write-only value is known: the first update sends the program's. */
const readImported = async (importId: string) => {
  const [id = ""] = importIdParts("webhook", importId, importIdFormOf(WEBHOOK), "opaque");
  return read(id, {});
};

/** A 409: url or service changed meanwhile. The program's values are absolute: the PUT goes again. */
async function conflicted(conn: AreaConnection, id: string, description: string): Promise<void> {
  const live = (await WEBHOOKS.list(conn)).get(id);
  notify(
    `pulumi-alertpipe: ${description} (id ${id}) was changed by another writer while this update was written` +
      (live === undefined ? " and is gone now" : "; sending the program's values again"),
  );
}

/** With every write-only field: a PUT changing url or service drops what it omits. */
function put(conn: AreaConnection, id: string, args: Args): Promise<ApiResponse> {
  return send(conn, {
    method: "PUT",
    path: WEBHOOKS.path(id),
    body: WEBHOOKS.toWire(args),
    secrets: secretsOf(args),
    readOnConflict: () => conflicted(conn, id, describe(args)),
  });
}

async function update(id: string, olds: State, news: Args): Promise<State> {
  return outputsAfterWrite(news, await put(connectionFor("alerting"), id, news), olds);
}

async function del(id: string): Promise<void> {
  if (keptByReplacement("webhook", id)) return;
  const conn = connectionFor("alerting");
  const once = () => unlessGone(() => send(conn, { method: "DELETE", path: WEBHOOKS.path(id) }));
  try {
    await once();
  } catch (err) {
    // A 409 only counts the alerts using it: name them, or if none is left, try again.
    if (!(err instanceof ApiError) || err.status !== 409) throw err;
    const alerts = await alertsStillReferring(conn, ALERTS_PATH, LIST_PAGE_MAX, (alert) => notifiesWebhook(alert, id));
    if (alerts.length > 0) throw new StillReferencedError(err, "webhook", alerts, err);
    await once();
  }
}

export const behaviour = behaviourOf(WEBHOOK, {
  check,
  diff: async (_id, olds, news) => WHOLE.diff(olds, news),
  create,
  read,
  readImported,
  update,
  delete: del,
  previewCreate: (args) => WHOLE.previewCreate(args),
  previewUpdate: (_id, olds, news) => WHOLE.previewUpdate(olds, news),
});

// The Webhook's behaviour. Created with POST, changed with a whole PUT, deleted with DELETE under
// /api/v2/webhooks; read through the list, since the service has no GET of one. headers and
// queryParams (and an incidentio body) are never returned: every PUT sends them again, since a PUT
// that changes url or service drops those it does not carry.

import { connectionFailures, connectionFor, type AreaConnection } from "../runtime/connection";
import { send, type ApiResponse } from "../http/client";
import { unlessGone } from "../http/gone";
import { ApiError, StillReferencedError } from "../errors";
import { createRecovering, createdAfterSend, createdId } from "../creation/recovery";
import { importIdParts, keptByReplacement, listedForImport } from "../creation/importing";
import { alertsStillReferring, type Listed } from "../reading/pagedList";
import { notify } from "../runtime/notices";
import { behaviourOf, type Created, type Found } from "../protocol/behaviour";
import { checkArgs, type CheckFailure } from "../protocol/check";
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

/** The values of the secrets a request carries, for the HTTP layer to scrub from errors. */
export function secretsOf(args: Args): string[] {
  const values = (m: Readonly<Record<string, string>> | null | undefined) => Object.values(m ?? {});
  return [...values(args.headers), ...values(args.queryParams)].filter((v) => v !== "");
}

const set = (v: unknown) => v !== undefined && v !== null;

/** The rules that need the service: what a slack webhook refuses, and its host. Unknown in preview demands nothing. */
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
  return checkArgs<Args>(WEBHOOK, news, crossFieldFailures, connectionFailures("alerting"));
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
    // Service and trimmed name are unique: the one listed with both is the one the lost POST made.
    look: async (sentAt) =>
      [...(await WEBHOOKS.list(conn))]
        .filter(
          ([, w]) => w.service === args.service && w.name === args.name.trim() && createdAfterSend(w.createdAt, sentAt),
        )
        .map(([id, webhook]) => ({ id, webhook })),
    adopt: async (found) => ({ id: found.id, outputs: WHOLE.outputs(found.webhook, args, {}) }),
  });
}

/**
 * Makes an existing webhook the resource's (importId): found in the list, and one PUT of the whole
 * body only when it differs. The write-only fields the program sets cannot be compared, so they
 * count as differing: the PUT makes the service hold the program's values. Never a POST.
 */
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

/** An import knows no write-only value: the program sets them, and the first update sends them. */
const readImported = async (importId: string) => {
  const [id = ""] = importIdParts("webhook", importId, importIdFormOf(WEBHOOK), "opaque");
  return read(id, {});
};

/**
 * The fresh read a PUT answered 409 needs: someone changed the webhook's url or service while the
 * service wrote ours. The program's values are absolute, so the PUT is sent again as it was.
 */
async function conflicted(conn: AreaConnection, id: string, description: string): Promise<void> {
  const live = (await WEBHOOKS.list(conn)).get(id);
  notify(
    `pulumi-alertpipe: ${description} (id ${id}) was changed by another writer while this update was written` +
      (live === undefined ? " and is gone now" : "; sending the program's values again"),
  );
}

/** The whole webhook, every write-only field the program holds: a PUT changing url or service drops what it omits. */
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
    // The service says only how many alerts use it; the words name them. Once none does, again.
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

// A connection is written whole, its password on every write (the service keeps the old one when
// none is sent, and never returns it). Its delete is refused while sources outside the stack use it:
// the service would leave them pointing at nothing.

import { connectionFor, isManagedClickStack, type AreaConnection } from "../runtime/connection";
import { checkedWithCredential } from "../http/credentials";
import { send, type ApiResponse } from "../http/client";
import { unlessGone } from "../http/gone";
import { StillReferencedError } from "../errors";
import { createRecovering, createdAfterSend, createdId } from "../creation/recovery";
import { importIdParts, keptByReplacement, listedForImport } from "../creation/importing";
import { listWhole, named, stillFound, type Listed } from "../reading/pagedList";
import { notify } from "../runtime/notices";
import { behaviourOf, type Created, type Found } from "../protocol/behaviour";
import type { CheckFailure } from "../protocol/check";
import { importIdFormOf, type ArgsOf, type StateOf } from "../protocol/definition";
import type { RawInputs } from "../protocol/properties";
import { wholeObject } from "../protocol/wholeObject";
import { SOURCES_PATH } from "../serviceFacts/observability";
import { CONNECTION, isWriteOnly } from "./definition";
import { CONNECTIONS } from "./wire";

type Args = ArgsOf<typeof CONNECTION>;
type State = StateOf<typeof CONNECTION>;

const WHOLE = wholeObject(CONNECTION, isWriteOnly);

const secretsOf = (args: Args): string[] =>
  typeof args.password === "string" && args.password !== "" ? [args.password] : [];

/** Managed ClickStack has no connections route: its platform makes the connection. */
const MANAGED: CheckFailure = {
  property: "",
  reason:
    "a Connection is for a self-hosted HyperDX: managed ClickStack (alertpipe:clickstackOrganizationId and " +
    "clickstackServiceId) has no connections route, its platform makes the connection; give a Source that " +
    "connection's id instead (each source's connection, as getSources lists them)",
};

async function check(_olds: RawInputs, news: RawInputs) {
  return checkedWithCredential<Args>("alerting", CONNECTION, news, () => (isManagedClickStack() ? [MANAGED] : []));
}

const describe = (args: Args) => `the connection "${args.name}"`;

/** A PUT keeps what it is not sent: a removed prefix is sent as null so that it is cleared. */
function bodyOf(args: Args, verb: "POST" | "PUT"): Record<string, unknown> {
  const body = CONNECTIONS.toWire(args);
  if (verb === "PUT" && body.hyperdxSettingPrefix === undefined) body.hyperdxSettingPrefix = null;
  return body;
}

/** isPrometheusEndpoint left out of the program is not managed: the service keeps its value. */
const managed = (olds: State, news: Args): Args =>
  news.isPrometheusEndpoint === undefined || news.isPrometheusEndpoint === null
    ? { ...news, isPrometheusEndpoint: olds.isPrometheusEndpoint ?? undefined }
    : news;

async function create(args: Args): Promise<Created<State>> {
  const conn = connectionFor("alerting");
  if (typeof args.importId === "string") return takeOver(conn, args.importId.trim(), args);
  const description = describe(args);
  return createRecovering<Created<State>, { id: string; connection: Listed }>({
    description,
    post: async () => {
      const res = await send(conn, {
        method: "POST",
        path: CONNECTIONS.path(),
        body: bodyOf(args, "POST"),
        creates: description,
        secrets: secretsOf(args),
      });
      const id = createdId(res, description, CONNECTIONS.created);
      return { id, outputs: outputsAfterWrite(args, res) };
    },
    look: async (sentAt) =>
      [...(await CONNECTIONS.list(conn))]
        .filter(
          ([, c]) =>
            c.name === args.name &&
            c.host === args.host &&
            c.username === args.username &&
            createdAfterSend(c.createdAt, sentAt),
        )
        .map(([id, connection]) => ({ id, connection })),
    adopt: async (found) => ({ id: found.id, outputs: WHOLE.outputs(found.connection, args, {}) }),
  });
}

function outputsAfterWrite(args: Args, res: ApiResponse, before: State = {}): State {
  return WHOLE.outputs(CONNECTIONS.objectIn(res.body), args, before);
}

/** One read; a PUT only when it differs or the program sets a password, which is never read back. */
async function takeOver(conn: AreaConnection, importId: string, args: Args): Promise<Created<State>> {
  const got = await listedForImport("connection", importId, CONNECTIONS.path(), () => CONNECTIONS.read(conn, importId));
  const answer = CONNECTIONS.objectIn(got.body);
  const live = WHOLE.outputs(answer, {}, {});
  if (!WHOLE.diff(live, managed(live, args)).changes && secretsOf(args).length === 0)
    return { id: importId, outputs: WHOLE.outputs(answer, args, {}) };
  const res = await send(conn, {
    method: "PUT",
    path: CONNECTIONS.path(importId),
    body: bodyOf(args, "PUT"),
    secrets: secretsOf(args),
  });
  return { id: importId, outputs: outputsAfterWrite(args, res, live) };
}

async function read(id: string, stored: State): Promise<Found<typeof CONNECTION> | undefined> {
  const res = await CONNECTIONS.read(connectionFor("alerting"), id);
  if (res === undefined) return undefined;
  const outputs = WHOLE.outputs(CONNECTIONS.objectIn(res.body), stored, stored);
  return { id, outputs, inputs: WHOLE.inputs(outputs) };
}

async function update(id: string, olds: State, news: Args): Promise<State> {
  if (typeof olds.password === "string" && olds.password !== "" && (news.password ?? "") === "")
    notify(
      `pulumi-alertpipe: ${describe(news)} (id ${id}) no longer sets a password; the service keeps the one it holds, ` +
        "since it cannot set a password back to empty.",
    );
  const res = await send(connectionFor("alerting"), {
    method: "PUT",
    path: CONNECTIONS.path(id),
    body: bodyOf(news, "PUT"),
    secrets: secretsOf(news),
  });
  return outputsAfterWrite(news, res, olds);
}

/** The sources outside the stack that use the connection: the stack's own are deleted before it. */
async function sourcesUsing(conn: AreaConnection, id: string): Promise<string[]> {
  return stillFound(async () => named(await listWhole(conn, SOURCES_PATH), (s) => s.connection === id));
}

async function del(id: string): Promise<void> {
  if (keptByReplacement("connection", id)) return;
  const conn = connectionFor("alerting");
  const path = CONNECTIONS.path(id);
  const sources = await sourcesUsing(conn, id);
  if (sources.length > 0)
    throw new StillReferencedError({ method: "DELETE", path }, "connection", sources, undefined, {
      counted: "source(s)",
      those: "sources",
    });
  await unlessGone(() => send(conn, { method: "DELETE", path }));
}

export const behaviour = behaviourOf(CONNECTION, {
  check,
  diff: async (_id, olds, news) => WHOLE.diff(olds, managed(olds, news)),
  create,
  read,
  readImported: async (importId) =>
    read(importIdParts("connection", importId, importIdFormOf(CONNECTION), "opaque")[0] ?? "", {}),
  update,
  delete: del,
  previewCreate: (args) => WHOLE.previewCreate(args),
  previewUpdate: (_id, olds, news) => WHOLE.previewUpdate(olds, managed(olds, news)),
});

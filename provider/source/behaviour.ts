// A source is written whole (a PUT clears what it is not sent; null is refused), read through the
// list; an update reads it first, to send back what the service holds that Source does not name. Its
// delete is refused while saved searches or dashboards outside the stack use it: the service would
// leave them pointing at nothing, and their next PUT would fail.

import { connectionFor, isManagedClickStack, type AreaConnection } from "../runtime/connection";
import { checkedWithCredential } from "../http/credentials";
import { send, type ApiResponse } from "../http/client";
import { unlessGone } from "../http/gone";
import { StillReferencedError } from "../errors";
import { createRecovering, createdAfterSend, createdId } from "../creation/recovery";
import { importIdParts, keptByReplacement, listedForImport } from "../creation/importing";
import { listPaged, listWhole, named, stillFound, type Listed } from "../reading/pagedList";
import { behaviourOf, type Created, type Found } from "../protocol/behaviour";
import type { CheckFailure } from "../protocol/check";
import { importIdFormOf, inputNames, type ArgsOf, type StateOf } from "../protocol/definition";
import type { RawInputs } from "../protocol/properties";
import { wholeObject } from "../protocol/wholeObject";
import { withKept } from "../protocol/keptFields";
import { LIST_PAGE_MAX } from "../serviceFacts/alertRules";
import { SAVED_SEARCHES_PATH } from "../serviceFacts/savedSearches";
import {
  DASHBOARDS_PATH,
  DURATION_PRECISION_DEFAULT,
  NOT_ON_MANAGED_CLICKSTACK,
  SOURCE_KINDS,
  SOURCE_KIND_FIELDS,
  sourceFieldsOf,
  type SourceKind,
} from "../serviceFacts/observability";
import { SOURCE } from "./definition";
import { SOURCES } from "./wire";

type Args = ArgsOf<typeof SOURCE>;
type State = StateOf<typeof SOURCE>;

const WHOLE = wholeObject(SOURCE, () => false);

const isKind = (v: unknown): v is SourceKind => (SOURCE_KINDS as readonly unknown[]).includes(v);

/** Each kind's fields as the server enforces them; an unknown kind or value demands nothing yet. */
export function kindFailures(inputs: RawInputs): CheckFailure[] {
  const kind = inputs.kind;
  if (!isKind(kind)) return [];
  const fields = sourceFieldsOf(kind);
  const failures: CheckFailure[] = [];
  for (const name of inputNames(SOURCE)) {
    if (name === "importId") continue;
    const value = inputs[name];
    if (value === undefined) continue;
    if (value === null)
      failures.push({ property: name, reason: `${name} cannot be null (the service refuses null): leave it out` });
    else if (!fields.includes(name))
      failures.push({
        property: name,
        reason: `${name} is not a field of a ${kind} source; its fields are ${fields.join(", ")}`,
      });
  }
  for (const name of SOURCE_KIND_FIELDS[kind].required)
    if (inputs[name] === undefined)
      failures.push({ property: name, reason: `${name} is required of a ${kind} source` });
  const from = inputs.from;
  if (kind !== "metric" && typeof from === "object" && from !== null) {
    const table = (from as Record<string, unknown>).tableName;
    if (table === undefined || table === "")
      failures.push({ property: "from", reason: `from.tableName is required of a ${kind} source` });
  }
  return failures;
}

/** A member managed ClickStack's sources lack: it would drop it, and every refresh differ. */
function managedFailures(inputs: RawInputs): CheckFailure[] {
  if (!isManagedClickStack()) return [];
  return NOT_ON_MANAGED_CLICKSTACK.source
    .filter((name) => inputs[name] !== undefined && inputs[name] !== null)
    .map((name) => ({
      property: name,
      reason:
        `${name} is not a field of managed ClickStack's sources (alertpipe:clickstackOrganizationId and ` +
        "clickstackServiceId): the Cloud API's source schemas have none; leave it out",
    }));
}

async function check(_olds: RawInputs, news: RawInputs) {
  return checkedWithCredential<Args>("alerting", SOURCE, news, (inputs) => [
    ...kindFailures(inputs),
    ...managedFailures(inputs),
  ]);
}

const describe = (args: Args) => `the ${args.kind} source "${args.name}"`;

/**
 * A metric source's table may be left out: the server takes it as "". A trace source's durationPrecision
 * left out is sent as its default to managed ClickStack, whose schema requires it (HyperDX defaults it).
 */
function bodyOf(args: Args, conn: AreaConnection): Record<string, unknown> {
  const body = SOURCES.toWire(args);
  const from = args.from;
  if (from !== undefined) body.from = { databaseName: from.databaseName, tableName: from.tableName ?? "" };
  if (conn.gateway !== undefined && args.kind === "trace" && body.durationPrecision === undefined)
    body.durationPrecision = DURATION_PRECISION_DEFAULT;
  return body;
}

/**
 * The body, with what the service holds that the definition does not name (materializedViews, ...):
 * of the same kind only, since another kind's source has other fields.
 */
function keptBody(args: Args, conn: AreaConnection, held: Listed | undefined): Record<string, unknown> {
  return withKept(SOURCE, bodyOf(args, conn), held?.kind === args.kind ? held : undefined);
}

const outputsAfterWrite = (args: Args, res: ApiResponse, before: State = {}): State =>
  WHOLE.outputs(SOURCES.objectIn(res.body), args, before);

async function create(args: Args): Promise<Created<State>> {
  const conn = connectionFor("alerting");
  if (typeof args.importId === "string") return takeOver(conn, args.importId.trim(), args);
  const description = describe(args);
  return createRecovering<Created<State>, { id: string; source: Listed }>({
    description,
    post: async () => {
      const res = await send(conn, {
        method: "POST",
        path: SOURCES.path(),
        body: bodyOf(args, conn),
        creates: description,
      });
      const id = createdId(res, description, SOURCES.created);
      return { id, outputs: outputsAfterWrite(args, res) };
    },
    // Sources may carry no createdAt: then a same-named one of the kind on the connection, made by no one else.
    look: async (sentAt) =>
      [...(await SOURCES.list(conn))]
        .filter(
          ([, s]) =>
            s.name === args.name &&
            s.kind === args.kind &&
            s.connection === args.connection &&
            (s.createdAt === undefined || createdAfterSend(s.createdAt, sentAt)),
        )
        .map(([id, source]) => ({ id, source })),
    adopt: async (found) => ({ id: found.id, outputs: WHOLE.outputs(found.source, args, {}) }),
  });
}

/** Read through the list; a PUT of the whole source only when it differs. */
async function takeOver(conn: AreaConnection, importId: string, args: Args): Promise<Created<State>> {
  const got = await listedForImport("source", importId, SOURCES.path(), () => SOURCES.read(conn, importId));
  const answer = SOURCES.objectIn(got.body);
  const live = WHOLE.outputs(answer, {}, {});
  if (!WHOLE.diff(live, args).changes) return { id: importId, outputs: WHOLE.outputs(answer, args, {}) };
  const res = await send(conn, { method: "PUT", path: SOURCES.path(importId), body: keptBody(args, conn, answer) });
  return { id: importId, outputs: outputsAfterWrite(args, res, live) };
}

async function read(id: string, stored: State): Promise<Found<typeof SOURCE> | undefined> {
  const res = await SOURCES.read(connectionFor("alerting"), id);
  if (res === undefined) return undefined;
  const outputs = WHOLE.outputs(SOURCES.objectIn(res.body), stored, stored);
  return { id, outputs, inputs: WHOLE.inputs(outputs) };
}

/** One GET, then the PUT: the PUT replaces the whole source. */
async function update(id: string, olds: State, news: Args): Promise<State> {
  const conn = connectionFor("alerting");
  const held = await SOURCES.held(conn, id);
  const res = await send(conn, { method: "PUT", path: SOURCES.path(id), body: keptBody(news, conn, held) });
  return outputsAfterWrite(news, res, olds);
}

const usesSource = (config: unknown, id: string): boolean =>
  typeof config === "object" && config !== null && (config as Record<string, unknown>).sourceId === id;

/** Whether a dashboard's tiles or filters read the source. */
export function dashboardUses(dashboard: Listed, id: string): boolean {
  const tiles = Array.isArray(dashboard.tiles) ? (dashboard.tiles as unknown[]) : [];
  const filters = Array.isArray(dashboard.filters) ? (dashboard.filters as unknown[]) : [];
  return (
    tiles.some((t) => typeof t === "object" && t !== null && usesSource((t as Record<string, unknown>).config, id)) ||
    filters.some((f) => usesSource(f, id))
  );
}

/** The stack's own users are deleted before it; any left are outside it. */
async function usersOf(conn: AreaConnection, id: string): Promise<string[]> {
  return stillFound(async () => [
    ...named(await listPaged(conn, SAVED_SEARCHES_PATH, LIST_PAGE_MAX), (s) => s.sourceId === id).map(
      (s) => `saved search ${s}`,
    ),
    ...named(await listWhole(conn, DASHBOARDS_PATH), (d) => dashboardUses(d, id)).map((d) => `dashboard ${d}`),
  ]);
}

async function del(id: string): Promise<void> {
  if (keptByReplacement("source", id)) return;
  const conn = connectionFor("alerting");
  const path = SOURCES.path(id);
  const users = await usersOf(conn, id);
  if (users.length > 0)
    throw new StillReferencedError({ method: "DELETE", path }, "source", users, undefined, {
      counted: "saved search(es) or dashboard(s)",
      those: "saved searches and dashboards",
    });
  await unlessGone(() => send(conn, { method: "DELETE", path }));
}

export const behaviour = behaviourOf(SOURCE, {
  check,
  diff: async (_id, olds, news) => WHOLE.diff(olds, news),
  create,
  read,
  readImported: async (importId) =>
    read(importIdParts("source", importId, importIdFormOf(SOURCE), "opaque")[0] ?? "", {}),
  update,
  delete: del,
  previewCreate: (args) => WHOLE.previewCreate(args),
  previewUpdate: (_id, olds, news) => WHOLE.previewUpdate(olds, news),
});

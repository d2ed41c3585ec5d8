// A ClickPipe: one POST carrying scaling and settings, then only what the program needs (a stop);
// `stopped` drives the state command and its bounded wait; replacements are decided per field
// (docs/design/clickpipes.md).

import { clickhouseCloudOnly, connectionFor, type AreaConnection } from "../runtime/connection";
import { withIdleServiceWake } from "../http/idleService";
import { send } from "../http/client";
import { unlessGone } from "../http/gone";
import { PartialFailure, PipeStateError } from "../errors";
import { createRecovering, createdAfterSend, createdWithoutId } from "../creation/recovery";
import { importIdParts } from "../creation/importing";
import { claimForThisRun, clickPipeSettingsKey } from "../creation/runClaims";
import { notify } from "../runtime/notices";
import { runtime } from "../runtime/runtime";
import { behaviourOf, type Created, type Found } from "../protocol/behaviour";
import { checkedWithCredential } from "../http/credentials";
import type { CheckFailure } from "../protocol/check";
import { comparedForm, importIdFormOf } from "../protocol/definition";
import { changeOf, deepEqual, hasChanged, type Diff, type PropertyChange } from "../protocol/diff";
import { previewOutputs } from "../protocol/preview";
import type { RawInputs } from "../protocol/properties";
import { UnexpectedResponseError } from "../errors";
import {
  BROKEN_STATES,
  CHANGING_STATES,
  STARTED_STATES,
  STOPPED_BY_STATE,
  STOPPED_STATES,
  stoppedOf,
  type ClickPipeState,
} from "../serviceFacts/clickPipes";
import { CLICK_PIPE as DEF } from "./definition";
import { asObj, isDatabaseKind, list, set, type Obj } from "./checks";
import { SOURCE_KINDS, type SourceKind } from "./shapes";
import {
  changesMappings,
  destinationReplacement,
  kindOf,
  liveOf,
  patchBody,
  pipeIn,
  pipesIn,
  pipesPath,
  postBody,
  projected,
  secretsOf,
  sourceReplacement,
  sourceWithoutSecrets,
  type Args,
  type Live,
  type PipeRef,
  type State,
} from "./wire";

const compared = comparedForm(DEF);
const DEFAULT_TIMEOUT_S = 600;
/** What the program sets; the provider's own outputs never make a diff. */
const COMPARED = [
  "organizationId",
  "serviceId",
  "name",
  "source",
  "destination",
  "fieldMappings",
  "settings",
  "scaling",
  "stopped",
  "stateTimeoutSeconds",
  "credentials",
] as const;

const describe = (args: { readonly name?: unknown }) => `the ClickPipe "${String(args.name)}"`;

/**
 * Every call that needs the service running (create, update, scaling, state) goes through here: an idle
 * service's 424 wakes it and the call goes once more, when alertpipe:wakeIdleServices lets it.
 */
function onService<T>(conn: AreaConnection, ref: PipeRef, op: () => Promise<T>): Promise<T> {
  return withIdleServiceWake(conn, ref, op);
}

/** What each authentication needs of `credentials`. */
const KAFKA_AUTH_NEEDS: Readonly<Record<string, readonly string[]>> = {
  PLAIN: ["username", "password"],
  "SCRAM-SHA-256": ["username", "password"],
  "SCRAM-SHA-512": ["username", "password"],
  IAM_USER: ["accessKeyId", "secretKey"],
  MUTUAL_TLS: ["certificate", "privateKey"],
  IAM_ROLE: [],
};
const OBJECT_STORAGE_AUTH_NEEDS: Readonly<Record<string, readonly string[]>> = {
  IAM_USER: ["accessKeyId", "secretKey"],
  CONNECTION_STRING: ["connectionString"],
  SERVICE_ACCOUNT: ["serviceAccountKey"],
  IAM_ROLE: [],
};

/**
 * The rules across fields, each failure at a top-level property with the nested path in its words.
 * Inputs passed the type checks; values unknown in preview are skipped by the caller's zod step.
 */
export function crossFieldProblems(inputs: RawInputs, needed: string[] = []): CheckFailure[] {
  const out: CheckFailure[] = [];
  const fail = (property: string, reason: string) => out.push({ property, reason });
  const source = asObj(inputs.source);
  const creds = asObj(inputs.credentials) ?? {};
  const needCreds = (names: readonly string[], when: string) => {
    for (const n of names) {
      needed.push(n);
      if (!set(creds, n)) fail("credentials", `credentials need ${n} ${when} (write-only, secret)`);
    }
  };
  const kinds = SOURCE_KINDS.filter((k) => set(source, k));
  if (source !== undefined && kinds.length !== 1)
    fail(
      "source",
      kinds.length === 0
        ? `source must set exactly one kind: ${SOURCE_KINDS.join(", ")}`
        : `source must set exactly one kind, not ${kinds.join(" and ")}`,
    );
  const kind = kinds.length === 1 ? kinds[0] : undefined;
  const s = kind === undefined ? undefined : asObj(source?.[kind]);
  const at = (field: string) => `source.${String(kind)}.${field}`;
  if (kind === "kafka" && s !== undefined) {
    const auth = String(s.authentication);
    if (auth === "IAM_ROLE" && !set(s, "iamRole")) fail("source", `${at("iamRole")} is required with IAM_ROLE`);
    needCreds(
      s.type === "azureeventhub" ? ["connectionString"] : (KAFKA_AUTH_NEEDS[auth] ?? []),
      s.type === "azureeventhub" ? 'for type "azureeventhub"' : `with authentication ${auth}`,
    );
    const offset = asObj(s.offset);
    if (offset?.strategy === "from_timestamp" && !set(offset, "timestamp"))
      fail("source", `${at("offset.timestamp")} is required with strategy "from_timestamp"`);
    const registry = asObj(s.schemaRegistry);
    if (registry !== undefined) {
      if (typeof registry.url === "string" && !registry.url.startsWith("https://"))
        fail("source", `${at("schemaRegistry.url")} must be an https URL`);
      needCreds(["schemaRegistryUsername", "schemaRegistryPassword"], "with a schema registry");
    }
  }
  if (kind === "kinesis" && s !== undefined) {
    if (s.iteratorType === "AT_TIMESTAMP" && !set(s, "timestamp"))
      fail("source", `${at("timestamp")} is required with iteratorType AT_TIMESTAMP`);
    if (s.authentication === "IAM_ROLE" && !set(s, "iamRole"))
      fail("source", `${at("iamRole")} is required with IAM_ROLE`);
    if (s.authentication === "IAM_USER") needCreds(["accessKeyId", "secretKey"], "with IAM_USER");
  }
  if (kind === "objectStorage" && s !== undefined) {
    if (s.type === "azureblobstorage") {
      for (const f of ["path", "azureContainerName"])
        if (!set(s, f)) fail("source", `${at(f)} is required for type "azureblobstorage"`);
    } else if (!set(s, "url")) fail("source", `${at("url")} is required`);
    if (s.skipInitialLoad === true && set(s, "startAfter"))
      fail("source", `${at("startAfter")} cannot go with skipInitialLoad true`);
    if (s.skipInitialLoad === true && !set(s, "queueUrl"))
      fail("source", `${at("skipInitialLoad")} applies only with queueUrl`);
    if (s.authentication === "IAM_ROLE" && !set(s, "iamRole"))
      fail("source", `${at("iamRole")} is required with IAM_ROLE`);
    const auth = typeof s.authentication === "string" ? s.authentication : "";
    needCreds(OBJECT_STORAGE_AUTH_NEEDS[auth] ?? [], `with authentication ${auth}`);
  }
  if (kind === "pubsub" && s !== undefined) {
    if (s.seekType === "timestamp" && !set(s, "seekTimestamp"))
      fail("source", `${at("seekTimestamp")} is required with seekType "timestamp"`);
    if (s.seekType !== "timestamp" && set(s, "seekTimestamp"))
      fail("source", `${at("seekTimestamp")} must be left out unless seekType is "timestamp"`);
    needCreds(["serviceAccountKey"], "for Pub/Sub");
  }
  if ((kind === "postgres" || kind === "mysql") && s !== undefined) {
    if (s.authentication === "IAM_ROLE" && !set(s, "iamRole"))
      fail("source", `${at("iamRole")} is required with IAM_ROLE`);
    if (s.authentication !== "IAM_ROLE") needCreds(["username", "password"], `for ${kind}`);
    const settings = asObj(s.settings);
    if (set(settings, "replicationSlotName") && settings?.replicationMode !== "cdc_only")
      fail("source", `${at("settings.replicationSlotName")} is only for replicationMode "cdc_only"`);
  }
  if (kind === "mongodb") needCreds(["username", "password"], "for mongodb");
  if (kind === "bigquery") needCreds(["serviceAccountKey"], "for bigquery");
  if (s !== undefined && isDatabaseKind(kind)) {
    const mappings = list(s.tableMappings);
    const keyOf = (m: Obj) =>
      `${String(m.sourceSchemaName ?? m.sourceDatabaseName ?? m.sourceDatasetName)}.${String(m.sourceTable ?? m.sourceCollection)}`;
    const seen = new Set<string>();
    const targets = new Set<string>();
    mappings.forEach((m, i) => {
      if (seen.has(keyOf(m))) fail("source", `${at(`tableMappings[${i}]`)} maps ${keyOf(m)} a second time`);
      if (targets.has(String(m.targetTable)))
        fail("source", `${at(`tableMappings[${i}].targetTable`)} "${String(m.targetTable)}" is filled twice`);
      if (m.useCustomSortingKey === true && list(m.sortingKeys).length === 0 && !Array.isArray(m.sortingKeys))
        fail("source", `${at(`tableMappings[${i}].sortingKeys`)} is required with useCustomSortingKey true`);
      seen.add(keyOf(m));
      targets.add(String(m.targetTable));
    });
    if (mappings.length === 0) fail("source", `${at("tableMappings")} must list at least one table`);
  }
  destinationProblems(inputs, kind, fail);
  if (set(inputs, "scaling") && isDatabaseKind(kind))
    fail(
      "scaling",
      `scaling is not for a database pipe (${String(kind)}): its capacity is the service's, set by ClickPipeCdcInfrastructure`,
    );
  return out;
}

/** The credentials the source's kind and authentication need, in the check's order: an export's placeholders. */
export function credentialsNeeded(inputs: RawInputs): string[] {
  const needed: string[] = [];
  crossFieldProblems(inputs, needed);
  return [...new Set(needed)];
}

function destinationProblems(
  inputs: RawInputs,
  kind: SourceKind | undefined,
  fail: (property: string, reason: string) => void,
): void {
  const destination = asObj(inputs.destination);
  if (destination === undefined || kind === undefined) return;
  if (!isDatabaseKind(kind)) {
    for (const f of ["table", "managedTable", "columns"])
      if (!set(destination, f)) fail("destination", `destination.${f} is required for a ${kind} pipe`);
  }
  if (destination.managedTable === true && !set(destination, "tableDefinition"))
    fail("destination", "destination.tableDefinition is required with managedTable true");
  const columns = list(destination.columns).map((c) => String(c.name));
  const mapped = new Set(list(inputs.fieldMappings).map((m) => String(m.destinationField)));
  if (!isDatabaseKind(kind) && columns.length > 0) {
    const missing = columns.filter((c) => !mapped.has(c));
    if (missing.length > 0)
      fail(
        "fieldMappings",
        `all destination columns must be included in the mappings: no fieldMappings entry fills ${missing.map((c) => `"${c}"`).join(", ")}`,
      );
    const unknown = [...mapped].filter((c) => !columns.includes(c));
    if (unknown.length > 0)
      fail("fieldMappings", `fieldMappings fill columns not in destination.columns: ${unknown.join(", ")}`);
  }
}

async function check(_olds: RawInputs, news: RawInputs) {
  return checkedWithCredential<Args>(
    "cloud",
    DEF,
    news,
    (inputs) => crossFieldProblems(inputs),
    clickhouseCloudOnly("ClickPipe"),
  );
}

const refOf = (v: { readonly organizationId?: string | null; readonly serviceId?: string | null }): PipeRef => ({
  organizationId: v.organizationId ?? "",
  serviceId: v.serviceId ?? "",
});

/** Settings the program dropped stay as they are live, as PipeSettings leaves them. */
function comparedValue(name: string, olds: State, news: Args): [unknown, unknown] {
  switch (name) {
    case "settings":
      return [projected(olds.settings ?? {}, news.settings ?? {}), news.settings ?? {}];
    // Scaling cannot be unset: one the program drops is left as it is.
    case "scaling":
      return news.scaling === undefined || news.scaling === null ? [null, null] : [olds.scaling, news.scaling];
    case "stopped":
      return [olds.stopped ?? false, news.stopped ?? false];
    default:
      return [(olds as Record<string, unknown>)[name], (news as Record<string, unknown>)[name]];
  }
}

/**
 * The settings this pipe's program names are its own for this run: a PipeSettings of the same pipe
 * checked after it (it waits on the clickPipeId) is refused for naming any of them.
 */
function claimSettings(ref: PipeRef, id: string, args: Pick<Args, "settings">): void {
  const named = Object.keys(args.settings ?? {}).filter(
    (n) => (args.settings as Record<string, unknown>)[n] !== undefined,
  );
  if (named.length > 0 && id !== "")
    claimForThisRun(clickPipeSettingsKey(ref.organizationId, ref.serviceId, id), named);
}

/** Replacements per field, and which delete first (two pipes on one table or name at once). */
async function diff(id: string, olds: State, news: Args): Promise<Diff> {
  claimSettings(refOf(news), id, news);
  const detailed: Record<string, PropertyChange> = {};
  const reasons: string[] = [];
  for (const n of COMPARED) {
    const [before, after] = comparedValue(n, olds, news);
    if (!hasChanged(n, before, after, compared)) continue;
    let replaces = n === "organizationId" || n === "serviceId";
    if (n === "source") {
      const why = sourceReplacement(olds.source, news.source);
      if (why !== undefined) reasons.push(why);
      replaces = why !== undefined;
    }
    if (n === "destination") {
      const why = destinationReplacement(olds.destination, news.destination);
      if (why !== undefined) reasons.push(why);
      replaces = why !== undefined;
    }
    detailed[n] = changeOf(before, after, replaces);
  }
  const changed = Object.keys(detailed);
  const replaces = changed.filter((n) => detailed[n]?.replaces === true);
  const sameService = !hasChanged("serviceId", olds.serviceId, news.serviceId, compared);
  const table = (d: unknown) => {
    const o = (d ?? {}) as { database?: unknown; table?: unknown };
    return [o.database, o.table];
  };
  const clash =
    sameService && (deepEqual(olds.name, news.name) || deepEqual(table(olds.destination), table(news.destination)));
  return {
    changes: changed.length > 0,
    replaces,
    stables: replaces.length > 0 ? [] : ["clickPipeId", "createdAt"],
    deleteBeforeReplace: replaces.length > 0 && clash,
    detailedDiff: detailed,
  };
}

async function getPipe(conn: AreaConnection, ref: PipeRef, id: string, args: Pick<Args, "credentials">) {
  const res = await unlessGone(() => send(conn, { method: "GET", path: pipesPath(ref, id), secrets: secretsOf(args) }));
  if (res === undefined) return undefined;
  const pipe = pipeIn(res.body);
  if (pipe === undefined) throw new UnexpectedResponseError(res, "the answer holds no ClickPipe", res.requestId);
  return liveOf(pipe);
}

/** What the state records: the program's values (not the answer's scaling: the peer's #513), the service's outputs. */
function outputsOf(args: Args, live: Live | undefined, stopped: boolean): State {
  return {
    organizationId: args.organizationId,
    serviceId: args.serviceId,
    name: args.name,
    source: args.source,
    destination: args.destination,
    ...(args.fieldMappings == null ? {} : { fieldMappings: args.fieldMappings }),
    ...(args.settings == null ? {} : { settings: args.settings }),
    ...(args.scaling == null ? {} : { scaling: args.scaling }),
    stopped,
    ...(args.stateTimeoutSeconds == null ? {} : { stateTimeoutSeconds: args.stateTimeoutSeconds }),
    ...(args.credentials == null ? {} : { credentials: args.credentials }),
    ...(live === undefined
      ? {}
      : {
          clickPipeId: live.id,
          ...(live.state === undefined ? {} : { state: live.state }),
          ...(live.createdAt === undefined ? {} : { createdAt: live.createdAt }),
          ...(live.updatedAt === undefined ? {} : { updatedAt: live.updatedAt }),
        }),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads until `done`, each through `send` (paced in the key's budget), progress as notices; Failed and
 * InternalError end it at once (never looped on), and so does the timeout.
 */
async function waitFor(
  conn: AreaConnection,
  ref: PipeRef,
  id: string,
  args: Args,
  waitingFor: string,
  done: (state: string | undefined) => boolean,
): Promise<Live | undefined> {
  const timeoutMs = (args.stateTimeoutSeconds ?? DEFAULT_TIMEOUT_S) * 1000;
  const policy = runtime().retryPolicy;
  const started = Date.now();
  let delay = Math.max(1, policy.baseDelayMs * 4);
  let said = "";
  for (;;) {
    const live = await getPipe(conn, ref, id, args);
    const state = live?.state;
    if (live === undefined || done(state)) return live;
    if (BROKEN_STATES.includes(state as ClickPipeState))
      throw new PipeStateError(describe(args), state, waitingFor, "broke");
    if (Date.now() - started >= timeoutMs) throw new PipeStateError(describe(args), state, waitingFor, "timeout");
    if (state !== said) notify(`pulumi-alertpipe: ${describe(args)} is ${String(state)}; waiting for ${waitingFor}`);
    said = state ?? "";
    await sleep(Math.min(delay, Math.max(0, timeoutMs - (Date.now() - started))));
    delay = Math.min(delay * 2, Math.max(5_000, policy.baseDelayMs));
  }
}

const among = (states: readonly ClickPipeState[]) => (s: string | undefined) => states.includes(s as ClickPipeState);

/** `stop` or `start`, then the wait for its states. */
async function command(conn: AreaConnection, ref: PipeRef, id: string, args: Args, verb: "start" | "stop") {
  await onService(conn, ref, () =>
    send(conn, {
      method: "PATCH",
      path: pipesPath(ref, id, "/state"),
      body: { command: verb },
      secrets: secretsOf(args),
    }),
  );
  return verb === "stop"
    ? waitFor(conn, ref, id, args, "Stopped or Paused", among(STOPPED_STATES))
    : waitFor(conn, ref, id, args, "Running, Setup, Snapshot or Completed", among(STARTED_STATES));
}

function sameTarget(pipe: Live, args: Args): boolean {
  const d = (v: unknown) => {
    const o = (v ?? {}) as { database?: unknown; table?: unknown };
    return [o.database, o.table ?? null];
  };
  return (
    pipe.name === args.name &&
    kindOf(pipe.source) === kindOf(args.source) &&
    deepEqual(d(pipe.destination), d(args.destination))
  );
}

async function create(args: Args): Promise<Created<State>> {
  const conn = connectionFor("cloud");
  const ref = refOf(args);
  const description = describe(args);
  const made = await createRecovering<Live, { id: string; live: Live }>({
    description,
    post: () =>
      onService(conn, ref, async () => {
        const res = await send(conn, {
          method: "POST",
          path: pipesPath(ref),
          body: postBody(args),
          creates: description,
          secrets: secretsOf(args),
        });
        const pipe = pipeIn(res.body);
        if (pipe === undefined)
          throw createdWithoutId(res, description, new UnexpectedResponseError(res, "id is missing", res.requestId));
        return liveOf(pipe);
      }),
    // Credentials never come back: name, source kind and destination tell the pipe the lost POST made.
    look: async (sentAt) => {
      const res = await send(conn, { method: "GET", path: pipesPath(ref), secrets: secretsOf(args) });
      return pipesIn(res.body)
        .map(liveOf)
        .filter((p) => sameTarget(p, args) && createdAfterSend(p.createdAt, sentAt))
        .map((live) => ({ id: live.id, live }));
    },
    adopt: async (found) => found.live,
  });
  claimSettings(ref, made.id, args);
  const outputs = outputsOf(args, made, false);
  if (args.stopped !== true) return { id: made.id, outputs };
  try {
    const after = await command(conn, ref, made.id, args, "stop");
    return { id: made.id, outputs: outputsOf(args, after ?? made, true) };
  } catch (err) {
    // Kept with the stopped it really has, so the next diff sends the command again.
    throw new PartialFailure(made.id, outputs, err instanceof Error ? err : new Error(String(err)));
  }
}

/** The live values through the recorded ones; scaling compared only while Running; credentials as kept. */
function outputsFromLive(live: Live, stored: State): State {
  const state = live.state;
  if (state === "InternalError" || state === "Failed")
    notify(
      `pulumi-alertpipe: ${describe({ name: live.name })} is ${state} (the service reports it; look at it in the console)`,
    );
  const stopped = stoppedOf(state, stored.stopped ?? false);
  const args = {
    ...stored,
    name: typeof live.name === "string" ? live.name : (stored.name ?? ""),
    source: (stored.source === undefined ? live.source : projected(live.source, stored.source)) as Args["source"],
    destination: (stored.destination === undefined
      ? live.destination
      : projected(live.destination, stored.destination)) as Args["destination"],
    // None set and none live (a database pipe's empty list) is no drift.
    fieldMappings: (stored.fieldMappings == null && Array.isArray(live.fieldMappings) && live.fieldMappings.length === 0
      ? stored.fieldMappings
      : (live.fieldMappings ?? stored.fieldMappings)) as Args["fieldMappings"],
    // Only the settings the program names are this pipe's: the others may be a PipeSettings'.
    settings: (stored.settings === undefined || stored.settings === null
      ? stored.settings
      : projected(live.settings ?? {}, stored.settings)) as Args["settings"],
    scaling: (state === "Running" && stored.scaling != null
      ? projected(live.scaling, stored.scaling)
      : stored.scaling) as Args["scaling"],
  } as Args;
  return outputsOf(args, live, stopped);
}

/** A lookup's pipe: its fields as answered, less where a credential goes; `stopped` as its state says. */
export function pipeAsLookedUp(ref: PipeRef, pipe: Obj & { id: string }): Record<string, unknown> {
  const live = liveOf(pipe);
  const stopped = live.state === undefined ? undefined : STOPPED_BY_STATE[live.state as ClickPipeState];
  const fields: Record<string, unknown> = {
    clickPipeId: live.id,
    ...ref,
    name: live.name,
    source: sourceWithoutSecrets(live.source),
    destination: live.destination,
    fieldMappings: live.fieldMappings,
    settings: live.settings,
    scaling: live.scaling,
    stopped,
    state: live.state,
    createdAt: live.createdAt,
    updatedAt: live.updatedAt,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
}

/** What an import of a listed pipe records (the list answers whole pipes: no GET of its own). */
export function importedFromList(ref: PipeRef, pipe: Obj & { id: string }): Found<typeof DEF> {
  const live = liveOf(pipe);
  return foundOf({ ...live, source: sourceWithoutSecrets(live.source) }, { ...ref });
}

const INPUTS = COMPARED.filter((n) => n !== "stateTimeoutSeconds");

function foundOf(live: Live, stored: State): Found<typeof DEF> {
  const outputs = outputsFromLive(live, stored);
  const inputs: Record<string, unknown> = {};
  for (const n of [...INPUTS, "stateTimeoutSeconds"]) {
    const v = (outputs as Record<string, unknown>)[n];
    if (v !== undefined) inputs[n] = v;
  }
  return { id: live.id, outputs, inputs: inputs };
}

async function read(id: string, stored: State): Promise<Found<typeof DEF> | undefined> {
  const ref = refOf(stored);
  const live = await getPipe(connectionFor("cloud"), ref, id, stored);
  return live === undefined ? undefined : foundOf(live, stored);
}

/** No program yet: every value as the service holds it; credentials are the program's to give. */
async function readImported(importId: string): Promise<Found<typeof DEF> | undefined> {
  const [organizationId = "", serviceId = "", clickPipeId = ""] = importIdParts(
    "ClickPipe",
    importId,
    importIdFormOf(DEF),
    "uuid",
  ).map((p) => p.toLowerCase());
  const live = await getPipe(connectionFor("cloud"), { organizationId, serviceId }, clickPipeId, {});
  if (live === undefined) return undefined;
  // Every setting set live is taken as the program's; one left to a PipeSettings can be dropped from it.
  const set = Object.entries(live.settings ?? {}).filter(([, v]) => v !== null && v !== undefined);
  return foundOf(live, { organizationId, serviceId, ...(set.length > 0 ? { settings: Object.fromEntries(set) } : {}) });
}

async function update(id: string, olds: State, news: Args): Promise<State> {
  const conn = connectionFor("cloud");
  const ref = refOf(news);
  const body = patchBody(olds, news);
  const want = news.stopped ?? false;
  let paused = olds.stopped ?? false;
  if (body !== undefined) {
    // The service refuses a table-mapping edit unless the pipe is paused (the peer's #497, #604).
    const pauseAround = changesMappings(body) && !paused;
    if (pauseAround) {
      notify(`pulumi-alertpipe: stopping ${describe(news)} to change its table mappings`);
      await command(conn, ref, id, news, "stop");
      paused = true;
    }
    await onService(conn, ref, () =>
      send(conn, { method: "PATCH", path: pipesPath(ref, id), body, secrets: secretsOf(news) }),
    );
    if (pauseAround && !want)
      notify(`pulumi-alertpipe: starting ${describe(news)} again after its table mappings changed`);
  }
  if (news.scaling != null && hasChanged("scaling", olds.scaling, news.scaling, compared)) {
    await onService(conn, ref, () =>
      send(conn, {
        method: "PATCH",
        path: pipesPath(ref, id, "/scaling"),
        body: news.scaling,
        secrets: secretsOf(news),
      }),
    );
    await waitFor(
      conn,
      ref,
      id,
      news,
      "the scaling to apply (neither Modifying nor Provisioning)",
      (s) => !CHANGING_STATES.includes(s as ClickPipeState),
    );
  }
  if (want !== paused) {
    const live = await getPipe(conn, ref, id, news);
    const state = live?.state as ClickPipeState | undefined;
    if (want && !STOPPED_STATES.includes(state ?? "Unknown")) await command(conn, ref, id, news, "stop");
    else if (!want && state === "Completed" && kindOf(news.source) === "objectStorage")
      notify(`pulumi-alertpipe: ${describe(news)} has completed its files; a one-time load is not restarted`);
    else if (!want && !STARTED_STATES.includes(state ?? "Unknown")) {
      if (state === "Failed") notify(`pulumi-alertpipe: starting ${describe(news)}, which is Failed`);
      await command(conn, ref, id, news, "start");
    }
  }
  const live = await getPipe(conn, ref, id, news);
  if (live === undefined) return outputsOf(news, undefined, want);
  return { ...outputsOf(news, live, want), clickPipeId: id };
}

/** Waits until the pipe is gone; a 404 is done. */
async function del(id: string, stored: State): Promise<void> {
  const conn = connectionFor("cloud");
  const ref = refOf(stored);
  const args = { ...stored, name: stored.name ?? id } as Args;
  const gone = await unlessGone(() =>
    send(conn, { method: "DELETE", path: pipesPath(ref, id), secrets: secretsOf(args) }),
  );
  if (gone === undefined) return;
  await waitFor(conn, ref, id, args, "the pipe to be deleted", () => false);
}

function previewCreate(args: Args): State {
  return previewOutputs<State>(outputsOf(args, undefined, args.stopped ?? false), [
    "clickPipeId",
    "state",
    "createdAt",
    "updatedAt",
  ]);
}

function previewUpdate(_id: string, olds: State, news: Args): State {
  return previewOutputs<State>(
    {
      ...outputsOf(news, undefined, news.stopped ?? false),
      clickPipeId: olds.clickPipeId,
      createdAt: olds.createdAt,
    },
    ["state", "updatedAt"],
  );
}

const verbs = { check, diff, create, read, readImported, update, delete: del, previewCreate, previewUpdate };
export const behaviour = behaviourOf(DEF, verbs);

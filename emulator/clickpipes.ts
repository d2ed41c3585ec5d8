// ClickHouse Cloud's ClickPipes (Cloud mode only): create, read, list, update, delete, the scaling and
// state commands, and states that move over time. Each step takes ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS
// (default 1000 ms; tests set a few), read when a step starts; a name seeds a broken pipe (brokenBy). A pipe's settings are the settings
// route's own (state.pipes), so PipeSettings and a ClickPipe see one pipe. Pipes live in memory only.
// Writes on a service that is not running answer the Cloud's 424 (the peer's #376); reads and deletes do not.

import { randomUUID } from "node:crypto";
import { z } from "zod";
import { SETTING_NAMES, wireName } from "../provider/serviceFacts/pipeSettings";
import type { ClickPipeState } from "../provider/serviceFacts/clickPipes";
import { cloudError, cloudOk, parseJson, type Incoming, type Reply, type Services } from "./replies";
import { PIPE_SETTINGS_BODIES, parseWith } from "./schemas";
import type { EmulatorState } from "./store";
import type { Route } from "./cloud";
import { serviceRunningOr424 } from "./services";

const KINDS = ["kafka", "objectStorage", "kinesis", "pubsub", "postgres", "mysql", "mongodb", "bigquery"] as const;
type Kind = (typeof KINDS)[number];
const DATABASE: readonly Kind[] = ["postgres", "mysql", "mongodb", "bigquery"];
/** Members that never come back: the description's answer schemas have none of them. */
const SECRET_MEMBERS = ["credentials", "accessKey", "connectionString", "serviceAccountKey"];

interface Step {
  readonly to: ClickPipeState;
  readonly afterMs: number;
}

interface StoredPipe {
  readonly id: string;
  readonly organizationId: string;
  readonly serviceId: string;
  name: string;
  kind: Kind;
  source: Record<string, unknown>;
  destination: Record<string, unknown>;
  fieldMappings: unknown[];
  scaling: Record<string, unknown> | undefined;
  state: ClickPipeState;
  /** What the state becomes, one step after another, from `since`. */
  steps: Step[];
  since: number;
  readonly createdAt: string;
  updatedAt: string;
  /** Gone once its steps are done. */
  deleting: boolean;
}

const pipesOf = new WeakMap<EmulatorState, Map<string, StoredPipe>>();

function pipes(services: Services): Map<string, StoredPipe> {
  let map = pipesOf.get(services.state);
  if (map === undefined) {
    map = new Map();
    pipesOf.set(services.state, map);
  }
  return map;
}

export function stepMs(): number {
  const raw = Number(process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS);
  return Number.isFinite(raw) && raw >= 0 ? raw : 1000;
}

/** The pipe's state now: the steps due are taken. */
function settle(services: Services, pipe: StoredPipe): StoredPipe | undefined {
  const now = Date.now();
  while (pipe.steps.length > 0 && now - pipe.since >= (pipe.steps[0]?.afterMs ?? 0)) {
    const step = pipe.steps.shift();
    if (step === undefined) break;
    pipe.state = step.to;
    pipe.since += step.afterMs;
  }
  if (pipe.deleting && pipe.steps.length === 0) {
    pipes(services).delete(pipe.id);
    return undefined;
  }
  return pipe;
}

/** A pipe as it stands now, for tests' censuses. */
export interface ClickPipeView {
  readonly id: string;
  readonly organizationId: string;
  readonly serviceId: string;
  readonly name: string;
  readonly state: ClickPipeState;
  readonly scaling: Readonly<Record<string, unknown>> | undefined;
  /** A delete was answered; the pipe goes once its steps are done. */
  readonly deleting: boolean;
}

/** Every pipe of every service now (due steps taken, those whose delete finished left out). */
export function clickPipesNow(services: Services): ClickPipeView[] {
  return [...pipes(services).values()]
    .map((p) => settle(services, p))
    .filter((p): p is StoredPipe => p !== undefined)
    .map((p) => ({
      id: p.id,
      organizationId: p.organizationId,
      serviceId: p.serviceId,
      name: p.name,
      state: p.state,
      scaling: p.scaling === undefined ? undefined : { ...p.scaling },
      deleting: p.deleting,
    }));
}

function go(pipe: StoredPipe, now: ClickPipeState, ...then: ClickPipeState[]): void {
  pipe.state = now;
  pipe.since = Date.now();
  pipe.steps = then.map((to) => ({ to, afterMs: stepMs() }));
  pipe.updatedAt = new Date().toISOString();
}

/** Seeded by name, for tests of what a broken pipe does: "failing-…" fails once made, "broken-…" at every command. */
function brokenBy(pipe: StoredPipe, made: boolean): ClickPipeState | undefined {
  if (made && pipe.name.startsWith("failing-")) return "Failed";
  return pipe.name.startsWith("broken-") ? "InternalError" : undefined;
}

function running(pipe: StoredPipe, made = false): ClickPipeState[] {
  const broken = brokenBy(pipe, made);
  if (broken !== undefined) return [broken];
  if (DATABASE.includes(pipe.kind)) return ["Setup", "Running"];
  if (pipe.kind === "objectStorage" && pipe.source.isContinuous !== true) return ["Running", "Completed"];
  return ["Running"];
}

function withoutSecrets(part: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(part)) {
    if (SECRET_MEMBERS.includes(k)) continue;
    if (k === "schemaRegistry" && typeof v === "object" && v !== null) {
      const { credentials: _c, ...registry } = v as Record<string, unknown>;
      out[k] = registry;
    } else out[k] = v;
  }
  return out;
}

function answer(services: Services, pipe: StoredPipe) {
  const settings: Record<string, unknown> = {};
  const stored = services.state.pipes[`${pipe.organizationId}/${pipe.serviceId}/${pipe.id}`] ?? {};
  for (const n of SETTING_NAMES) {
    const v = stored[wireName(n)];
    if (v !== undefined && v !== null) settings[wireName(n, "clickhouse")] = v;
  }
  return {
    id: pipe.id,
    serviceId: pipe.serviceId,
    name: pipe.name,
    state: pipe.state,
    source: { [pipe.kind]: withoutSecrets(pipe.source) },
    destination: pipe.destination,
    fieldMappings: pipe.fieldMappings,
    ...(pipe.scaling === undefined ? {} : { scaling: pipe.scaling }),
    settings,
    createdAt: pipe.createdAt,
    updatedAt: pipe.updatedAt,
  };
}

const scalingBody = z.strictObject({
  replicas: z.number().int().min(1).max(40).nullish(),
  concurrency: z.number().int().min(0).max(34).nullish(),
  replicaCpuMillicores: z.number().int().min(125).max(2000).nullish(),
  replicaMemoryGb: z.number().min(0.5).max(8).nullish(),
});
const mapping = z.looseObject({ targetTable: z.string().min(1) });
const postBody = z.strictObject({
  name: z.string().min(1).max(255),
  source: z.record(z.string(), z.record(z.string(), z.unknown())),
  destination: z.looseObject({ database: z.string().min(1) }),
  fieldMappings: z.array(z.strictObject({ sourceField: z.string(), destinationField: z.string() })).optional(),
  scaling: scalingBody.optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
});
const patchBody = z.strictObject({
  name: z.string().min(1).max(255).nullish(),
  source: z.record(z.string(), z.record(z.string(), z.unknown())).nullish(),
  destination: z.strictObject({ columns: z.array(z.strictObject({ name: z.string(), type: z.string() })) }).nullish(),
  fieldMappings: z.array(z.strictObject({ sourceField: z.string(), destinationField: z.string() })).optional(),
  settings: z.record(z.string(), z.unknown()).nullish(),
});
const stateBody = z.strictObject({ command: z.enum(["start", "stop", "resync"]) });

function body<T>(req: Incoming, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; reply: Reply } {
  const json = parseJson(req.rawBody);
  if (!json.ok) return { ok: false, reply: cloudError(400, json.message) };
  const parsed = parseWith(schema, json.value);
  return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, reply: cloudError(400, parsed.message) };
}

/** Settings under the Cloud's names, kept in the settings route's store (the contract's names). */
function putSettings(services: Services, key: string, settings: Record<string, unknown> | null | undefined) {
  if (settings === undefined || settings === null || Object.keys(settings).length === 0) return undefined;
  const parsed = parseWith(PIPE_SETTINGS_BODIES.clickhouse, settings);
  if (!parsed.ok) return cloudError(400, `settings: ${parsed.message}`);
  const merged = { ...(services.state.pipes[key] ?? {}) };
  for (const n of SETTING_NAMES) {
    const v = parsed.value[wireName(n, "clickhouse")];
    if (v !== undefined) merged[wireName(n)] = v;
  }
  services.state.pipes[key] = merged;
  services.persist();
  return undefined;
}

function create(services: Services, req: Incoming, [org = "", svc = ""]: string[]): Reply {
  const parsed = body(req, postBody);
  if (!parsed.ok) return parsed.reply;
  const b = parsed.value;
  const kinds = KINDS.filter((k) => b.source[k] !== undefined && b.source[k] !== null);
  const kind = kinds[0];
  if (kinds.length !== 1 || kind === undefined) return cloudError(400, "source must have exactly one kind");
  if (b.scaling !== undefined && DATABASE.includes(kind))
    return cloudError(400, "scaling is not supported for database ClickPipes; use clickpipesCdcScaling");
  if (!DATABASE.includes(kind)) {
    const columns = Array.isArray(b.destination.columns) ? (b.destination.columns as Array<{ name?: unknown }>) : [];
    const mapped = new Set((b.fieldMappings ?? []).map((m) => m.destinationField));
    const missing = columns.filter((c) => !mapped.has(String(c.name)));
    if (b.destination.table === undefined || missing.length > 0)
      return cloudError(
        400,
        "destination.table is required and all destination columns must be included in the mappings",
      );
  }
  const id = randomUUID();
  const problem = putSettings(services, `${org}/${svc}/${id}`, b.settings);
  if (problem !== undefined) return problem;
  const now = new Date().toISOString();
  const pipe: StoredPipe = {
    id,
    organizationId: org,
    serviceId: svc,
    name: b.name,
    kind,
    source: b.source[kind] ?? {},
    destination: b.destination,
    fieldMappings: b.fieldMappings ?? [],
    scaling: b.scaling === undefined ? undefined : { ...b.scaling },
    state: "Provisioning",
    steps: [],
    since: Date.now(),
    createdAt: now,
    updatedAt: now,
    deleting: false,
  };
  go(pipe, "Provisioning", ...running(pipe, true));
  pipes(services).set(id, pipe);
  return cloudOk(answer(services, pipe));
}

function found(services: Services, [org = "", svc = "", id = ""]: string[]): StoredPipe | undefined {
  const pipe = pipes(services).get(id);
  if (pipe === undefined || pipe.organizationId !== org || pipe.serviceId !== svc) return undefined;
  return settle(services, pipe);
}

const notFound = (id: string | undefined) => cloudError(404, `ClickPipe ${id ?? ""} not found`);

function update(services: Services, req: Incoming, ids: string[], pipe: StoredPipe): Reply {
  const parsed = body(req, patchBody);
  if (!parsed.ok) return parsed.reply;
  const b = parsed.value;
  if (b.source !== undefined && b.source !== null) {
    const part = b.source[pipe.kind];
    if (part === undefined || Object.keys(b.source).length !== 1)
      return cloudError(400, `source must be this pipe's kind, ${pipe.kind}`);
    if (pipe.kind === "bigquery") return cloudError(400, "a BigQuery ClickPipe's source cannot be changed");
    const toAdd = z.array(mapping).optional().safeParse(part.tableMappingsToAdd);
    const toRemove = z.array(mapping).optional().safeParse(part.tableMappingsToRemove);
    if (!toAdd.success || !toRemove.success)
      return cloudError(400, "tableMappingsToAdd/Remove must be lists of mappings");
    const edits = (toAdd.data?.length ?? 0) + (toRemove.data?.length ?? 0) > 0;
    // The peer's #604: the service refuses a mapping edit unless the pipe is paused.
    if (edits && !["Paused", "Stopped"].includes(pipe.state))
      return cloudError(400, "ClickPipe must be paused to edit");
    const { tableMappingsToAdd: _a, tableMappingsToRemove: _r, settings, ...rest } = part;
    let mappings = Array.isArray(pipe.source.tableMappings) ? [...(pipe.source.tableMappings as unknown[])] : [];
    const same = (a: unknown, r: Record<string, unknown>) =>
      Object.entries(r).every(([k, v]) => (a as Record<string, unknown>)[k] === v);
    for (const r of toRemove.data ?? []) mappings = mappings.filter((m) => !same(m, r));
    mappings.push(...(toAdd.data ?? []));
    pipe.source = {
      ...pipe.source,
      ...rest,
      ...(settings === undefined ? {} : { settings: { ...(pipe.source.settings as object), ...(settings as object) } }),
      ...(edits ? { tableMappings: mappings } : {}),
    };
  }
  if (b.name !== undefined && b.name !== null) pipe.name = b.name;
  if (b.fieldMappings !== undefined) pipe.fieldMappings = b.fieldMappings;
  if (b.destination !== undefined && b.destination !== null)
    pipe.destination = { ...pipe.destination, columns: b.destination.columns };
  const problem = putSettings(services, ids.join("/"), b.settings);
  if (problem !== undefined) return problem;
  pipe.updatedAt = new Date().toISOString();
  return cloudOk(answer(services, pipe));
}

function scale(services: Services, req: Incoming, pipe: StoredPipe): Reply {
  const parsed = body(req, scalingBody);
  if (!parsed.ok) return parsed.reply;
  if (DATABASE.includes(pipe.kind))
    return cloudError(400, "scaling is not supported for database ClickPipes; use clickpipesCdcScaling");
  const given = Object.fromEntries(Object.entries(parsed.value).filter(([, v]) => v !== undefined && v !== null));
  pipe.scaling = { ...pipe.scaling, ...given };
  go(pipe, "Modifying", pipe.state === "Stopped" ? "Stopped" : "Running");
  return cloudOk(answer(services, pipe));
}

function command(services: Services, req: Incoming, pipe: StoredPipe): Reply {
  const parsed = body(req, stateBody);
  if (!parsed.ok) return parsed.reply;
  const database = DATABASE.includes(pipe.kind);
  const broken = brokenBy(pipe, false);
  if (broken !== undefined) go(pipe, broken);
  else if (parsed.value.command === "stop")
    go(pipe, database ? "Pausing" : "Stopping", database ? "Paused" : "Stopped");
  else if (parsed.value.command === "start") go(pipe, "Provisioning", ...running(pipe));
  else go(pipe, "Resync", ...running(pipe));
  return cloudOk(answer(services, pipe));
}

/** The Cloud's 424 when the pipe's service is not running, as its words say for `what`. */
const onRunning = (services: Services, [org = "", svc = ""]: string[], what: string) =>
  serviceRunningOr424(services, org, svc, what);

const PIPES = "^\\/v1\\/organizations\\/([^/]+)\\/services\\/([^/]+)\\/clickpipes";

export const CLICK_PIPE_ROUTES: Route[] = [
  {
    pattern: new RegExp(`${PIPES}$`),
    dialect: "clickhouse",
    allow: ["GET", "POST"],
    params: ["organizationId", "serviceId"],
    run: (services, req, ids) => {
      if (req.method === "POST") return onRunning(services, ids, "ClickPipe creation") ?? create(services, req, ids);
      const [org, svc] = ids;
      const list = [...pipes(services).values()]
        .filter((p) => p.organizationId === org && p.serviceId === svc)
        .map((p) => settle(services, p))
        .filter((p): p is StoredPipe => p !== undefined);
      return cloudOk(list.map((p) => answer(services, p)));
    },
  },
  {
    pattern: new RegExp(`${PIPES}\\/([^/]+)$`),
    dialect: "clickhouse",
    allow: ["GET", "PATCH", "DELETE"],
    params: ["organizationId", "serviceId", "clickPipeId"],
    run: (services, req, ids) => {
      const pipe = found(services, ids);
      if (pipe === undefined) return notFound(ids[2]);
      if (req.method === "GET") return cloudOk(answer(services, pipe));
      if (req.method === "PATCH")
        return onRunning(services, ids, "ClickPipe update") ?? update(services, req, ids, pipe);
      if (!pipe.deleting) {
        pipe.deleting = true;
        go(pipe, "Stopping", "Stopped");
      }
      // The description's delete answer has no result.
      return cloudOk(undefined);
    },
  },
  {
    pattern: new RegExp(`${PIPES}\\/([^/]+)\\/(?:scaling|state)$`),
    dialect: "clickhouse",
    allow: ["PATCH"],
    params: ["organizationId", "serviceId", "clickPipeId"],
    run: (services, req, ids) => {
      const pipe = found(services, ids);
      if (pipe === undefined) return notFound(ids[2]);
      const scaling = req.path.endsWith("/scaling");
      return (
        onRunning(services, ids, scaling ? "ClickPipe scaling" : "ClickPipe state change") ??
        (scaling ? scale(services, req, pipe) : command(services, req, pipe))
      );
    },
  },
];

// The service's CDC capacity always exists: "create" takes it over with a PATCH, "delete" leaves it
// as it is (the API has none) and says so. ClickHouse Cloud only.

import { clickhouseCloudOnly, connectionFor } from "../runtime/connection";
import { notify } from "../runtime/notices";
import { DEFAULT_TIMINGS, runtime } from "../runtime/runtime";
import { send } from "../http/client";
import { unlessGone } from "../http/gone";
import { withIdleServiceWake } from "../http/idleService";
import { behaviourOf, type Found } from "../protocol/behaviour";
import { checkedWithCredential } from "../http/credentials";
import { comparedForm, inputNames, namesWith } from "../protocol/definition";
import { diffProperties, type Diff } from "../protocol/diff";
import { quotedId } from "../protocol/ids";
import type { RawInputs } from "../protocol/properties";
import { importIdParts } from "../creation/importing";
import { cdcPairProblem } from "../serviceFacts/cdcScaling";
import { formatSeconds } from "../words";
import { CLICK_PIPE_CDC_INFRASTRUCTURE as DEF } from "./definition";
import { cdcScalingPath, scalingBody, scalingIn, type Args, type Scaling, type State } from "./wire";

const REPLACE_ON = namesWith(DEF, "replaces");
const INPUTS = inputNames(DEF);
const compared = comparedForm(DEF);

interface ServiceRef {
  organizationId: string;
  serviceId: string;
}

/** The recorded ids, else the id's parts (a read by id). */
function serviceRef(id: string, props: { organizationId?: string | null; serviceId?: string | null }): ServiceRef {
  const [organizationId = "", serviceId = ""] = id.split("/");
  return { organizationId: props.organizationId ?? organizationId, serviceId: props.serviceId ?? serviceId };
}

const idOf = (ref: ServiceRef) => `${ref.organizationId}/${ref.serviceId}`;

const scalingOf = (values: Scaling): Scaling => ({
  replicaCpuMillicores: values.replicaCpuMillicores,
  replicaMemoryGb: values.replicaMemoryGb,
});

function crossField(inputs: RawInputs) {
  const cpu = inputs.replicaCpuMillicores;
  const memory = inputs.replicaMemoryGb;
  if (typeof cpu !== "number" || typeof memory !== "number") return [];
  const problem = cdcPairProblem(cpu, memory);
  return problem === undefined ? [] : [{ property: "replicaMemoryGb", reason: problem }];
}

async function check(_olds: RawInputs, news: RawInputs) {
  return checkedWithCredential<Args>("cloud", DEF, news, crossField, clickhouseCloudOnly(DEF.name));
}

async function diff(_id: string, olds: State, news: Args): Promise<Diff> {
  return diffProperties(olds, news, INPUTS, REPLACE_ON, compared);
}

/**
 * "May take a few minutes to fully propagate": when the answer does not hold what was sent yet, the
 * scaling is read until it does (paced, bounded); past the bound the program's values are recorded.
 */
async function settled(ref: ServiceRef, sent: Scaling, answered: Scaling | undefined): Promise<void> {
  const same = (s: Scaling | undefined) =>
    s !== undefined &&
    s.replicaCpuMillicores === sent.replicaCpuMillicores &&
    s.replicaMemoryGb === sent.replicaMemoryGb;
  if (answered === undefined || same(answered)) return;
  const timings = runtime().timings;
  const pollMs = timings.servicePollMs ?? DEFAULT_TIMINGS.servicePollMs ?? 5_000;
  const limitMs = timings.serviceWaitMs ?? DEFAULT_TIMINGS.serviceWaitMs ?? 600_000;
  const conn = connectionFor("cloud");
  const path = cdcScalingPath(ref.organizationId, ref.serviceId);
  const started = Date.now();
  notify(`pulumi-alertpipe: waiting for the CDC scaling of service ${quotedId(ref.serviceId)} to take the new values`);
  while (Date.now() - started + pollMs <= limitMs) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    if (same(scalingIn((await send(conn, { method: "GET", path })).body))) return;
  }
  notify(
    `pulumi-alertpipe: the CDC scaling of service ${quotedId(ref.serviceId)} still reports its old values after ` +
      `${formatSeconds(Date.now() - started)}; the program's are recorded, and refresh shows what the service holds`,
  );
}

/** Both values, always: the service checks them as a pair. Wrapped in the idle-service wake. */
async function patch(ref: ServiceRef, values: Scaling): Promise<void> {
  const conn = connectionFor("cloud");
  const path = cdcScalingPath(ref.organizationId, ref.serviceId);
  const res = await withIdleServiceWake(conn, ref, () =>
    send(conn, { method: "PATCH", path, body: scalingBody(scalingOf(values)) }),
  );
  await settled(ref, scalingOf(values), scalingIn(res.body));
}

/** Recorded from the program, not the answer: the service may still report the old values. */
async function create(args: Args) {
  const ref = serviceRef("", args);
  await patch(ref, args);
  return { id: idOf(ref), outputs: { ...ref, ...scalingOf(args) } };
}

async function read(id: string, stored: State): Promise<Found<typeof DEF> | undefined> {
  const ref = serviceRef(id, stored);
  const conn = connectionFor("cloud");
  const res = await unlessGone(() =>
    send(conn, { method: "GET", path: cdcScalingPath(ref.organizationId, ref.serviceId) }),
  );
  if (res === undefined) return undefined;
  // An answer without both values tells nothing.
  const live = scalingIn(res.body);
  const outputs: State = live === undefined ? { ...stored, ...ref } : { ...ref, ...live };
  return { id: idOf(ref), outputs, inputs: outputs };
}

async function readImported(importId: string): Promise<Found<typeof DEF> | undefined> {
  const [organizationId = "", serviceId = ""] = importIdParts(
    "ClickPipes CDC infrastructure",
    importId,
    DEF.importIdForm,
    "uuid",
  ).map((p) => p.toLowerCase());
  const ref = { organizationId, serviceId };
  const res = await unlessGone(() =>
    send(connectionFor("cloud"), { method: "GET", path: cdcScalingPath(organizationId, serviceId) }),
  );
  const live = res === undefined ? undefined : scalingIn(res.body);
  if (live === undefined) return undefined;
  const outputs = { ...ref, ...live };
  return { id: idOf(ref), outputs, inputs: outputs };
}

async function update(id: string, _olds: State, news: Args): Promise<State> {
  const ref = serviceRef(id, news);
  await patch(ref, news);
  return { ...ref, ...scalingOf(news) };
}

/** Nothing to send: the service keeps its capacity, which is said. */
async function del(id: string, stored: State): Promise<void> {
  const ref = serviceRef(id, stored);
  notify(
    `pulumi-alertpipe: ClickPipeCdcInfrastructure of service ${quotedId(ref.serviceId)} is only forgotten: ` +
      "ClickHouse Cloud's API has no delete, so its database ClickPipes keep " +
      `${String(stored.replicaCpuMillicores)} millicores and ${String(stored.replicaMemoryGb)} GiB per replica`,
  );
}

function previewCreate(args: Args): State {
  return { ...serviceRef("", args), ...scalingOf(args) };
}

function previewUpdate(id: string, _olds: State, news: Args): State {
  return { ...serviceRef(id, news), ...scalingOf(news) };
}

const verbs = { check, diff, create, read, readImported, update, delete: del, previewCreate, previewUpdate };
export const behaviour = behaviourOf(DEF, verbs);

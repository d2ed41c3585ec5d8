// The emulator's whole state as one plain JSON value, and how it reaches the disk.
// One value (not a database) so that snapshot(), the data file and a restart all see the same thing.

import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, basename, join } from "node:path";
import { z } from "zod";
import {
  ALERT_SOURCES,
  EXECUTION_ERROR_TYPES,
  SERVICE_ALERT_SOURCES,
  THRESHOLD_TYPES,
  type AlertSource,
  type ServiceAlertSource,
  type ThresholdType,
} from "../provider/serviceFacts/alertRules";
import { KEY_ROLES, KEY_STATES, type KeyRole, type KeyState } from "../provider/serviceFacts/apiKeys";
import type { HashData } from "../provider/serviceFacts/hashData";

export type { HashData, KeyRole, KeyState };

/** Who silenced an alert in the UI, when, and until when: the real service's object. */
export interface Silenced {
  by: string;
  at: string;
  until: string | null;
}

/** An error an alert's last evaluation recorded, as the 2026 service answers `executionErrors`. */
export interface ExecutionError {
  timestamp: string;
  type: (typeof EXECUTION_ERROR_TYPES)[number];
  message: string;
}

/**
 * An alert exactly as area A returns it in the contract's mode; optional members are absent, never
 * null. No request of that mode sets the real service's `savedSearch` or `groupBy`; the 2026 mode
 * stores `saved_search` alerts with their `savedSearch` and answers them as the real service does
 * (alerting.ts renders them).
 */
/** A webhook channel; an email channel only on managed ClickStack (the Cloud document's `ClickStackAlertChannel`). */
export type StoredChannel =
  { type: "webhook"; webhookId: string } | { type: "email"; emailRecipients: string[]; webhookId?: undefined };

export interface StoredAlert {
  id: string;
  name?: string;
  message?: string;
  threshold: number;
  interval: string;
  thresholdType: ThresholdType;
  source: AlertSource | ServiceAlertSource;
  /** "OK" for a new alert, as the real service; nothing here moves it. */
  state: string;
  channel: StoredChannel;
  /** Every channel, `channel` its first; answered beside it, as the 2026 service does. */
  channels?: { type: "webhook"; webhookId: string }[];
  /** Managed ClickStack's channel as written, when it says more than `channel` (webhookService, slackChannelId, severity). */
  cloudChannel?: Record<string, unknown>;
  thresholdMax?: number;
  scheduleOffsetMinutes?: number;
  scheduleStartAt?: string | null;
  numConsecutiveWindows?: number;
  note?: string;
  groupBy?: string;
  savedSearchId?: string;
  team: string;
  tileId?: string;
  dashboard?: string;
  /** The saved search the alert watches: a `saved_search` alert's (2026 mode), or set by the test hook `watchSearch`. */
  savedSearch?: string;
  /** Absent until someone silences the alert (the test hook `silence`), then an object. */
  silenced?: Silenced;
  /** Absent until an evaluation fails (the test hook `recordExecutionErrors`); answered in 2026 mode only. */
  executionErrors?: ExecutionError[];
  createdAt: string;
  updatedAt: string;
}

export interface IpAccessEntry {
  source: string;
  description: string;
}

/** A key created through area B. The secret is kept only as a SHA-256 hash, so neither the data file nor a snapshot leaks it. */
export interface StoredKey {
  id: string;
  organizationId: string;
  name: string;
  state: KeyState;
  roles: KeyRole[];
  /** Role uuids (system or the organization's custom ones, roles.ts); absent for a key made with roles alone. */
  assignedRoleIds?: string[];
  expireAt: string | null;
  usedAt: string | null;
  createdAt: string;
  keySuffix: string;
  ipAccessList: IpAccessEntry[];
  /** "" for a key made with hashData: the service never knew its key ID. */
  keyId: string;
  /** "" for a key made with hashData, which authenticates by hashData instead. */
  keySecretSha256: string;
  hashData: HashData | null;
}

/** A webhook as stored: headers and queryParams too, which no answer carries (webhooks.ts renders). */
export interface StoredWebhook {
  id: string;
  name: string;
  service: string;
  url: string;
  description?: string;
  body?: string;
  headers?: Record<string, string>;
  queryParams?: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** A saved search exactly as answered: every field written out. */
export interface StoredSearch {
  id: string;
  name: string;
  select: string;
  where: string;
  whereLanguage: string;
  orderBy: string;
  sourceId: string;
  tags: string[];
  filters: Record<string, unknown>[];
  teamId: string;
  createdAt: string;
  updatedAt: string;
}

/** A custom role the emulator was seeded with (roles.ts); the system roles are not stored. */
export interface StoredRole {
  id: string;
  organizationId: string;
  name: string;
  createdAt: string;
}

/** Wire names of the pipe settings to their value; null means unset. */
export type PipeSettingsWire = Record<string, number | boolean | null>;

export interface EmulatorState {
  version: 1;
  /** The one team every alert belongs to; fixed for the life of the state (and of the data file). */
  team: string;
  /** By alert id. */
  alerts: Record<string, StoredAlert>;
  /** By `${organizationId}/${serviceId}/${pipeId}` (lowercase uuids); only pipes that were ever updated, only the settings ever set. */
  pipes: Record<string, PipeSettingsWire>;
  /** By key id (the uuid `id`, not the authentication keyId). */
  keys: Record<string, StoredKey>;
  /** By webhook id; absent in files written before webhooks existed. */
  webhooks?: Record<string, StoredWebhook>;
  /** By saved search id; absent in files written before saved searches existed. */
  savedSearches?: Record<string, StoredSearch>;
  /** Custom roles by uuid (lowercase); absent in files written before roles existed and when none was seeded. */
  customRoles?: Record<string, StoredRole>;
  /** HyperDX's objects by id (observability.ts); absent until first used, sources and connections then seeded. */
  dashboards?: Record<string, Record<string, unknown>>;
  sources?: Record<string, Record<string, unknown>>;
  connections?: Record<string, Record<string, unknown>>;
  /** ClickHouse Cloud mode: each service's CDC scaling by `${organizationId}/${serviceId}`; absent until first set. */
  cdcScaling?: Record<string, CdcScaling>;
  /** ClickHouse Cloud mode: services not running, by `${organizationId}/${serviceId}` (services.ts); any other runs. */
  serviceStates?: Record<string, StoredServiceState>;
}

export interface CdcScaling {
  replicaCpuMillicores: number;
  replicaMemoryGb: number;
}

/** A service's state; an awaking or starting one runs from `runningAt` (ISO time) on. */
export interface StoredServiceState {
  state: string;
  /** How long an `awake` or `start` takes here (the test hook sets it). */
  wakeDelayMs: number;
  runningAt?: string;
}

export function emptyState(): EmulatorState {
  return { version: 1, team: randomBytes(12).toString("hex"), alerts: {}, pipes: {}, keys: {} };
}

// Loading checks the file's shape so a hand-edited or foreign file fails loudly at start
// instead of producing odd answers later. Members are checked loosely (plain JSON types):
// the file is our own output, the point is to catch the wrong file, not to re-validate every rule.
const alertShape = z.looseObject({
  id: z.string(),
  threshold: z.number(),
  interval: z.string(),
  thresholdType: z.enum(THRESHOLD_TYPES),
  source: z.enum([...ALERT_SOURCES, ...SERVICE_ALERT_SOURCES]),
  state: z.string(),
  channel: z.union([
    z.object({ type: z.literal("webhook"), webhookId: z.string() }),
    z.object({ type: z.literal("email"), emailRecipients: z.array(z.string()) }),
  ]),
  team: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const keyShape = z.looseObject({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  state: z.enum(KEY_STATES),
  roles: z.array(z.enum(KEY_ROLES)),
  expireAt: z.string().nullable(),
  usedAt: z.string().nullable(),
  createdAt: z.string(),
  keySuffix: z.string(),
  ipAccessList: z.array(z.object({ source: z.string(), description: z.string() })),
  keyId: z.string(),
  keySecretSha256: z.string(),
  hashData: z.object({ keyIdHash: z.string(), keyIdSuffix: z.string(), keySecretHash: z.string() }).nullable(),
});

const stateShape = z.object({
  version: z.literal(1),
  team: z.string().regex(/^[0-9a-f]{24}$/),
  alerts: z.record(z.string(), alertShape),
  pipes: z.record(z.string(), z.record(z.string(), z.union([z.number(), z.boolean(), z.null()]))),
  keys: z.record(z.string(), keyShape),
  webhooks: z
    .record(z.string(), z.looseObject({ id: z.string(), name: z.string(), service: z.string(), url: z.string() }))
    .optional(),
  savedSearches: z
    .record(z.string(), z.looseObject({ id: z.string(), name: z.string(), sourceId: z.string() }))
    .optional(),
  dashboards: z.record(z.string(), z.looseObject({ id: z.string() })).optional(),
  sources: z.record(z.string(), z.looseObject({ id: z.string() })).optional(),
  connections: z.record(z.string(), z.looseObject({ id: z.string() })).optional(),
  cdcScaling: z
    .record(z.string(), z.object({ replicaCpuMillicores: z.number(), replicaMemoryGb: z.number() }))
    .optional(),
  serviceStates: z
    .record(z.string(), z.object({ state: z.string(), wakeDelayMs: z.number(), runningAt: z.string().optional() }))
    .optional(),
  customRoles: z
    .record(
      z.string(),
      z.object({ id: z.string(), organizationId: z.string(), name: z.string(), createdAt: z.string() }),
    )
    .optional(),
});

/** Reads the data file, or starts empty when it does not exist yet. Throws (never overwrites) when it is unreadable. */
export function loadState(file: string): EmulatorState {
  if (!existsSync(file)) return emptyState();
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`emulator data file ${file} is not valid JSON; fix or remove it`, { cause: err });
  }
  const result = stateShape.safeParse(parsed);
  if (!result.success) {
    const first = result.error.issues[0];
    const where = first && first.path.length > 0 ? ` at ${first.path.join(".")}` : "";
    throw new Error(`emulator data file ${file} is not an emulator state file${where}; fix or remove it`);
  }
  return result.data as EmulatorState;
}

/**
 * Writes the state so that a crash leaves either the old file or the new one, never half of one:
 * write a temp file in the same directory (same filesystem), then rename over the target.
 * Synchronous on purpose: the change is on disk before the answer leaves, and writes never interleave.
 */
export function saveState(file: string, state: EmulatorState): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    writeFileSync(temp, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
    renameSync(temp, file);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // The temp file may never have been created; nothing to clean up then.
    }
    throw err;
  }
}

export function copyState(state: EmulatorState): EmulatorState {
  return structuredClone(state);
}

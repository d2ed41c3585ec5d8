// The ClickPipe, each property once; its nested types are in shapes.ts, its settings the very properties
// PipeSettings is made of (pipeSetting, one object of the thirteen), its checks in checks.ts.

import type { PropertyDef, ResourceDefinition } from "../protocol/definition";
import type { OutputRule } from "../protocol/outputRules";
import { pipeSetting, uuidPathPart } from "../protocol/commonProperties";
import { SETTING_NAMES } from "../serviceFacts/pipeSettings";
import { settingsSchema, typeSchema } from "./checks";
import { CREDENTIALS, DESTINATION, FIELD_MAPPING, SCALING, SOURCE } from "./shapes";

const AS_ANSWERED: OutputRule = { nullMeans: "absent", whenAbsent: [] };
const FROM_PROGRAM: OutputRule = { nullMeans: "absent", whenAbsent: ["program", "stored"] };

const pathPart = uuidPathPart;

/** The thirteen settings as PipeSettings defines them: its types, words and checks. */
const SETTINGS_TYPE = {
  kind: "object",
  name: "ClickPipeSettings",
  description: "A pipe's settings, as PipeSettings manages them.",
  fields: Object.fromEntries(
    SETTING_NAMES.map((n) => [
      n,
      { type: pipeSetting(n).type, description: pipeSetting(n).description, optional: true },
    ]),
  ),
} as const satisfies PropertyDef["type"];

export const CLICK_PIPE = {
  name: "ClickPipe",
  description:
    "A ClickPipe of a ClickHouse Cloud service: its source, destination, field mappings, settings, scaling and whether it runs. " +
    "ClickHouse Cloud dialect only. credentials are write-only: kept secret in the state, never read back.",
  notAnObject: "the ClickPipe's arguments must be an object",
  importIdForm: ["organizationId", "serviceId", "clickPipeId"],
  properties: {
    organizationId: pathPart(
      "organizationId",
      "Organization that owns the service (uuid). Changing it replaces the pipe.",
    ),
    serviceId: pathPart("serviceId", "Service the pipe writes into (uuid). Changing it replaces the pipe."),
    name: {
      type: { kind: "string" },
      description: "The pipe's name, 1 to 255 characters. Changes in place.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: ({ z }) =>
        z
          .string({ error: "name is required: a string of 1 to 255 characters" })
          .min(1, { error: "name must be 1 to 255 characters" })
          .max(255, { error: "name must be 1 to 255 characters" }),
    },
    source: {
      type: SOURCE,
      check: (rules) => typeSchema(rules, SOURCE),
      description:
        "Where the pipe reads: exactly one kind. What ClickPipePatchSource cannot change replaces the pipe (every BigQuery change does).",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
    },
    destination: {
      type: DESTINATION,
      check: (rules) => typeSchema(rules, DESTINATION),
      description: "Where the pipe writes. Only columns change in place; the rest replaces the pipe.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
    },
    fieldMappings: {
      type: { kind: "array", items: FIELD_MAPPING },
      check: (rules) => typeSchema(rules, { kind: "array", items: FIELD_MAPPING }),
      description: "Source fields to destination columns; every destination column must be filled. Changes in place.",
      role: "both",
      whenAbsent: FROM_PROGRAM,
    },
    settings: {
      type: SETTINGS_TYPE,
      check: (rules) =>
        settingsSchema(
          rules,
          SETTING_NAMES.map((n) => [n, pipeSetting(n).check(rules)]),
        ),
      description:
        "The pipe's settings (the thirteen of PipeSettings, same ranges); only those set are managed. Changes in place.",
      role: "both",
      whenAbsent: FROM_PROGRAM,
    },
    scaling: {
      type: SCALING,
      check: (rules) => typeSchema(rules, SCALING),
      description:
        "Replicas (1-40), CPU (125-2000 millicores) and memory (0.5-8 GB) per replica, or concurrency (object storage); " +
        "sent only when set. Not for database pipes: see ClickPipeCdcInfrastructure.",
      role: "both",
      whenAbsent: FROM_PROGRAM,
    },
    stopped: {
      type: { kind: "boolean" },
      description:
        "Whether the pipe is stopped (default false). A change sends stop or start and waits; refresh shows a pipe stopped or started by hand.",
      role: "both",
      whenAbsent: { nullMeans: "absent", whenAbsent: ["program", "stored", { value: false }] },
    },
    stateTimeoutSeconds: {
      type: { kind: "integer" },
      description:
        "How long a state command or a scaling change is waited for, 10 to 3600 seconds (default 600); never recorded on the service.",
      role: "both",
      wire: false,
      check: ({ z }) =>
        z
          .number({ error: "stateTimeoutSeconds must be an integer from 10 to 3600" })
          .int({ error: "stateTimeoutSeconds must be an integer from 10 to 3600" })
          .min(10, { error: "stateTimeoutSeconds must be an integer from 10 to 3600" })
          .max(3600, { error: "stateTimeoutSeconds must be an integer from 10 to 3600" }),
    },
    credentials: {
      type: CREDENTIALS,
      check: (rules) => typeSchema(rules, CREDENTIALS),
      description:
        "The source's secrets (passwords, keys, connection strings, service-account keys, mutual TLS keys). Secret and write-only: " +
        "sent on create and when changed, never read back.",
      role: "both",
      secret: true,
      wire: false,
    },
    clickPipeId: {
      type: { kind: "string" },
      description: "The pipe's id (uuid).",
      role: "output",
      required: "output",
      stable: true,
    },
    state: {
      type: { kind: "string" },
      description:
        "What the service reports (Running, Stopped, Failed, Snapshot, ...). Read-only: it never makes a diff; stopped is the switch.",
      role: "output",
      whenAbsent: AS_ANSWERED,
    },
    createdAt: {
      type: { kind: "string" },
      description: "When the pipe was created (ISO 8601).",
      role: "output",
      stable: true,
      whenAbsent: { nullMeans: "absent", whenAbsent: ["stored"] },
    },
    updatedAt: {
      type: { kind: "string" },
      description: "When the pipe last changed (ISO 8601).",
      role: "output",
      whenAbsent: AS_ANSWERED,
    },
  },
} as const satisfies ResourceDefinition;

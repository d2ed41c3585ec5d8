// Properties several definitions share. Loads no zod, like the definitions.

import type { CheckRules, PropertyDef } from "./definition";
import {
  PIPE_SETTINGS,
  allowedValues,
  takesNull,
  type SettingFact,
  type SettingName,
} from "../serviceFacts/pipeSettings";

/** A uuid of the object's path (organizationId, serviceId, …): another one names another object, a new resource. */
export const uuidPathPart = <const D extends string>(name: string, description: D) =>
  ({
    type: { kind: "string" },
    description,
    role: "both",
    required: true,
    replaces: true,
    caseless: true,
    check: ({ uuid }: CheckRules) => uuid(name),
  }) as const satisfies PropertyDef;

/** A string the service limits to `max` characters. */
export const limited =
  (property: string, max: number) =>
  ({ z }: CheckRules) =>
    z
      .string({ error: `${property} must be a string` })
      .max(max, { error: `${property} must be at most ${max} characters` });

/** The service stores it trimmed, so it is compared trimmed. */
export function trimmedName<Description extends string>(
  description: Description,
  problem: (name: string) => string | undefined,
) {
  return {
    type: { kind: "string" },
    description,
    role: "both",
    required: true,
    whenAbsent: { nullMeans: "absent", whenAbsent: ["program"] },
    compared: (v: unknown) => (typeof v === "string" ? v.trim() : v),
    check: ({ z }: CheckRules) =>
      z.string({ error: "name is required: a string of 1 to 1024 characters" }).superRefine((value, ctx) => {
        const message = problem(value);
        if (message !== undefined) ctx.addIssue({ code: "custom", message });
      }),
  } as const;
}

/**
 * A dashboard's name and each of its tiles of a non-empty unique name with its display type: a
 * Dashboard's `tileIndex`, known in preview from the program's tiles, and what an Alert's `tileIndex`
 * takes so that its `tileName` is checked before anything is made.
 */
export const TILE_INDEX_TYPE = {
  kind: "object",
  name: "DashboardTileIndex",
  description:
    "A dashboard's name and the display type of each of its tiles of a non-empty unique name, known in preview.",
  fields: {
    dashboard: { type: { kind: "string" }, description: "The dashboard's name." },
    tiles: {
      type: { kind: "map", values: { kind: "string" } },
      description: "Each tile of a non-empty unique name: its displayType (line, stacked_bar and number take alerts).",
    },
  },
} as const;

const meaning = (fact: SettingFact) => `${fact.meaning[0]?.toUpperCase() ?? ""}${fact.meaning.slice(1)}`;

/** A pipe setting from its fact (PipeSettings, ClickPipe.settings): null is "unset", and so is one left out. */
export function pipeSetting(name: SettingName) {
  const fact: SettingFact = PIPE_SETTINGS[name];
  const message = `${name} must be ${allowedValues(name)}`;
  return {
    type: { kind: fact.kind },
    description: `${meaning(fact)}: ${allowedValues(name)}.`,
    role: "both",
    nullable: true,
    wire: fact.wire,
    whenAbsent: { nullMeans: "cleared", whenAbsent: [{ value: null }] },
    outputMay: ["null"],
    check: ({ z }) => {
      const value =
        fact.kind === "boolean"
          ? z.boolean({ error: message })
          : z
              .number({ error: message })
              .int({ error: message })
              .min(fact.min, { error: message })
              .max(fact.max, { error: message });
      return takesNull(name) ? value.nullable() : value;
    },
  } as const satisfies PropertyDef;
}

/** A list of objects of one named shape, as a property's type. */
export const objectList = <const N extends string, const D extends string, const F>(
  name: N,
  description: D,
  fields: F,
) => ({ kind: "array", items: { kind: "object", name, description, fields } }) as const;

/**
 * The importId of a resource whose create takes over an existing object: it reads it (failing, with
 * nothing created, when there is none) and writes `writes`; `noun` is what the service calls it.
 */
export const takeOverId = (noun: string, writes: string) =>
  ({
    type: { kind: "string" },
    description:
      `The id of an existing ${noun} to take over instead of creating one. The create reads it (failing, with nothing created, ` +
      `when there is none) and writes ${writes}; it never creates ` +
      "one. Once taken over, changing or removing importId changes nothing, and a destroy deletes it unless the resource has " +
      "`retainOnDelete`.",
    role: "input",
    wire: false,
    check: ({ opaquePathId }: CheckRules) => opaquePathId("importId"),
  }) as const satisfies PropertyDef;

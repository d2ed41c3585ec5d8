// The SavedSearch, each property once. A whole PUT returns a field left out to its default, so
// each is compared in its default form and drift from the default shows.

import type { ResourceDefinition } from "../protocol/definition";
import type { OutputRule } from "../protocol/outputRules";
import { limited, trimmedName } from "../protocol/commonProperties";
import {
  FILTER_TYPES,
  SAVED_SEARCH_DEFAULTS,
  SAVED_SEARCH_LIMITS,
  SQL_AST_OPERATORS,
  WHERE_LANGUAGES,
  isObjectId,
  isRenderableFilter,
} from "../serviceFacts/savedSearches";

const STRING = { kind: "string" } as const;
/** As the answer has it; absent when it has none. */
const AS_ANSWERED: OutputRule = { nullMeans: "absent", whenAbsent: [] };
const FROM_STATE: OutputRule = { nullMeans: "absent", whenAbsent: ["stored"] };
const orDefault = (fallback: unknown) => (v: unknown) => (v === undefined || v === null ? fallback : v);

/** The service stores a filter with its type written out. */
function filterForm(v: unknown): unknown {
  if (!Array.isArray(v)) return orDefault([])(v);
  return v.map((f: unknown) =>
    typeof f === "object" && f !== null
      ? { ...(f as Record<string, unknown>), type: (f as { type?: unknown }).type ?? "sql" }
      : f,
  );
}

export const SAVED_SEARCH = {
  name: "SavedSearch",
  description:
    "A saved search of the alerting API: what a search alert watches. Every argument changes in place. Deleting it on the service " +
    "deletes the alerts that watch it, so the provider refuses a delete while alerts outside the stack still watch it.",
  notAnObject: "the saved search's arguments must be an object",
  properties: {
    name: trimmedName("The search's name (1 to 1024 characters once trimmed); not unique.", (value) => {
      const n = value.trim().length;
      return n < 1 || n > SAVED_SEARCH_LIMITS.name ? "name must be 1 to 1024 characters once trimmed" : undefined;
    }),
    sourceId: {
      type: STRING,
      description: "The source searched: the id of a source of the team (GET /api/v2/sources lists them).",
      role: "both",
      required: true,
      whenAbsent: { nullMeans: "absent", whenAbsent: ["program"] },
      check: ({ z }) =>
        z
          .string({ error: "sourceId is required: a source's id (24 hex digits)" })
          .refine(isObjectId, { error: "sourceId must be a source's id: 24 hex digits" }),
    },
    select: {
      type: STRING,
      description: 'The columns shown (at most 4096 characters); default "".',
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault(SAVED_SEARCH_DEFAULTS.select),
      check: limited("select", SAVED_SEARCH_LIMITS.select),
    },
    where: {
      type: STRING,
      description: 'The query (at most 8192 characters), in whereLanguage; default "".',
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault(SAVED_SEARCH_DEFAULTS.where),
      check: limited("where", SAVED_SEARCH_LIMITS.where),
    },
    whereLanguage: {
      type: {
        kind: "enum",
        name: "SavedSearchWhereLanguage",
        description: "The language of a saved search's where.",
        values: WHERE_LANGUAGES,
      },
      description: 'The language of where: "lucene" (default) or "sql".',
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault(SAVED_SEARCH_DEFAULTS.whereLanguage),
    },
    orderBy: {
      type: STRING,
      description: 'The order of results (at most 1024 characters); default "".',
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault(SAVED_SEARCH_DEFAULTS.orderBy),
      check: limited("orderBy", SAVED_SEARCH_LIMITS.orderBy),
    },
    tags: {
      type: { kind: "array", items: STRING },
      description: "Tags (at most 50, each at most 32 characters); default none.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: orDefault(SAVED_SEARCH_DEFAULTS.tags),
      check: ({ z }) =>
        z
          .array(
            z.string({ error: "tags must be strings" }).max(SAVED_SEARCH_LIMITS.tag, {
              error: `each tag must be at most ${SAVED_SEARCH_LIMITS.tag} characters`,
            }),
            { error: "tags must be an array of strings" },
          )
          .max(SAVED_SEARCH_LIMITS.tags, { error: `tags must hold at most ${SAVED_SEARCH_LIMITS.tags} tags` }),
    },
    filters: {
      type: {
        kind: "array",
        items: {
          kind: "object",
          name: "SavedSearchFilter",
          description:
            "A pinned filter. The service takes new ones only as a sidebar-renderable SQL condition: `<column> IN (...)`, " +
            "`<column> NOT IN (...)` or `<column> BETWEEN <n> AND <n>`; it answers the other kinds a search made elsewhere may hold.",
          fields: {
            type: {
              type: {
                kind: "enum",
                name: "SavedSearchFilterType",
                description: "A pinned filter's kind.",
                values: FILTER_TYPES,
              },
              description: 'The kind: "sql" (the default, and the only kind a program can write).',
              optional: true,
            },
            condition: { type: STRING, description: "The condition (at most 8192 characters).", optional: true },
            operator: {
              type: STRING,
              description: `An sql_ast filter's operator (${SQL_AST_OPERATORS.join(" ")}), as answered.`,
              optional: true,
            },
            left: { type: STRING, description: "An sql_ast filter's left side, as answered.", optional: true },
            right: { type: STRING, description: "An sql_ast filter's right side, as answered.", optional: true },
          },
        },
      },
      description:
        'Pinned filters (at most 100), each `{condition}` (type "sql") of the forms `<column> IN (...)`, `<column> NOT IN (...)` ' +
        "or `<column> BETWEEN <n> AND <n>`, the only ones the service accepts new; default none.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      compared: filterForm,
      check: ({ z }) =>
        z
          .array(
            z.strictObject(
              {
                type: z
                  .literal("sql", { error: 'a filter\'s type must be "sql" (the only kind the service takes new)' })
                  .optional(),
                condition: z
                  .string({ error: "a filter's condition must be a string" })
                  .max(SAVED_SEARCH_LIMITS.condition, {
                    error: "a filter's condition must be at most 8192 characters",
                  }),
              },
              { error: 'each filter must be an object {type?: "sql", condition}' },
            ),
            { error: "filters must be an array of {condition} objects" },
          )
          .max(SAVED_SEARCH_LIMITS.filters, {
            error: `filters must hold at most ${SAVED_SEARCH_LIMITS.filters} filters`,
          })
          .superRefine((filters, ctx) => {
            filters.forEach((f, i) => {
              if (!isRenderableFilter(f))
                ctx.addIssue({
                  code: "custom",
                  message:
                    `filters[${i}] must be one sidebar-renderable SQL condition: "<column> IN ('<value>', ...)", ` +
                    `"<column> NOT IN (...)" or "<column> BETWEEN <n> AND <n>", nothing joined to it by AND`,
                });
            });
          }),
    },
    importId: {
      type: STRING,
      description:
        "The id of an existing saved search to take over instead of creating one. The create reads it (failing, with nothing created, " +
        "when there is none) and writes the program's whole body with one PUT only when it differs; it never creates a search. Once " +
        "taken over, changing or removing importId changes nothing, and a destroy deletes the search unless the resource has " +
        "`retainOnDelete`.",
      role: "input",
      wire: false,
      check: ({ opaquePathId }) => opaquePathId("importId"),
    },
    teamId: {
      type: STRING,
      description: "Identifier of the owning team.",
      role: "output",
      stable: true,
      whenAbsent: FROM_STATE,
    },
    createdAt: {
      type: STRING,
      description: "When the search was made (ISO 8601, set by the service).",
      role: "output",
      stable: true,
      whenAbsent: FROM_STATE,
    },
    updatedAt: {
      type: STRING,
      description: "When the search last changed (ISO 8601, set by the service).",
      role: "output",
      whenAbsent: FROM_STATE,
    },
  },
} as const satisfies ResourceDefinition;

/** The inputs that hold another resource's id ("[]": each element): an export writes them as references. */
export const SAVED_SEARCH_REFERENCES = [{ path: ["sourceId"], to: "Source" }] as const;

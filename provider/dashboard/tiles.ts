// Tiles: what each display type takes, the form the service stores them in, and which id each
// tile keeps across an update. No zod: the definition reads this.

import {
  AGGREGATING_DISPLAY_TYPES,
  ALERTABLE_DISPLAY_TYPES,
  DISPLAY_TYPES,
  QUANTILE_LEVELS,
  SQL_DISPLAY_TYPES,
  type DisplayType,
} from "../serviceFacts/observability";
import { UNKNOWN, containsUnknown } from "../protocol/properties";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isDisplayType = (v: unknown): v is DisplayType => (DISPLAY_TYPES as readonly unknown[]).includes(v);

const SQL_FIELDS = ["displayType", "configType", "connectionId", "sqlTemplate", "sourceId", "numberFormat"];
const SERIES = ["displayType", "sourceId", "select", "numberFormat"];
const SQL_SERIES = ["alignDateRangeToGranularity", "fillNulls", "seriesLimit"];

/** A Raw SQL variant's fields beside SQL_FIELDS (as the server answers them: convertToExternalTileChartConfig). */
const SQL_EXTRA: Partial<Record<DisplayType, readonly string[]>> = {
  line: [...SQL_SERIES, "fitYAxisToData", "compareToPreviousPeriod"],
  stacked_bar: SQL_SERIES,
  number: ["color"],
};

/** The builder variant's fields of each display type (OpenAPI's <Type>BuilderChartConfig). */
const BUILDER_FIELDS: Readonly<Record<DisplayType, readonly string[]>> = {
  line: [
    ...SERIES,
    "groupBy",
    "asRatio",
    "alignDateRangeToGranularity",
    "fillNulls",
    "fitYAxisToData",
    "compareToPreviousPeriod",
    "seriesLimit",
    "formulas",
    "showOperandSeries",
  ],
  stacked_bar: [
    ...SERIES,
    "groupBy",
    "asRatio",
    "alignDateRangeToGranularity",
    "fillNulls",
    "seriesLimit",
    "formulas",
    "showOperandSeries",
  ],
  table: [
    ...SERIES,
    "groupBy",
    "having",
    "orderBy",
    "asRatio",
    "groupByColumnsOnLeft",
    "formulas",
    "showOperandSeries",
  ],
  number: [...SERIES, "formulas", "color"],
  pie: [...SERIES, "groupBy", "orderBy", "limit"],
  bar: [...SERIES, "groupBy", "orderBy", "limit"],
  heatmap: [...SERIES, "where", "whereLanguage"],
  search: ["displayType", "sourceId", "searchSelect", "where", "whereLanguage"],
  event_patterns: ["displayType", "sourceId", "searchSelect", "where", "whereLanguage"],
  markdown: ["displayType", "markdown"],
};

/** The fields of a config's variant, or undefined while its displayType is not known. */
export function variantFields(config: Obj): readonly string[] | undefined {
  if (!isDisplayType(config.displayType)) return undefined;
  if (config.configType === "sql") return [...SQL_FIELDS, ...(SQL_EXTRA[config.displayType] ?? [])];
  return BUILDER_FIELDS[config.displayType];
}

export interface ConfigProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** What the service refuses of a tile's config, and fields its variant does not take. */
export function tileConfigProblems(config: Obj): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const at = (path: (string | number)[], message: string) => problems.push({ path, message });
  const type = config.displayType;
  if (!isDisplayType(type)) {
    if (type !== undefined && typeof type !== "string") return problems;
    at(["displayType"], `displayType is required: one of ${DISPLAY_TYPES.join(", ")}`);
    return problems;
  }
  const sql = config.configType === "sql";
  if (config.configType !== undefined && !sql) at(["configType"], 'configType must be "sql" or left out');
  if (sql && !SQL_DISPLAY_TYPES.includes(type))
    at(["configType"], `a ${type} tile has no Raw SQL variant (those are ${SQL_DISPLAY_TYPES.join(", ")})`);
  const fields = variantFields(config) ?? [];
  for (const key of Object.keys(config))
    if (config[key] !== undefined && !fields.includes(key))
      at([key], `${key} is not a field of a ${sql ? "Raw SQL " : ""}${type} tile; its fields are ${fields.join(", ")}`);
  const need = (key: string, what: string) => {
    if (config[key] === undefined || config[key] === "") at([key], `${key} is required of a ${what}`);
  };
  if (sql) {
    need("connectionId", `Raw SQL ${type} tile`);
    need("sqlTemplate", `Raw SQL ${type} tile`);
    return problems;
  }
  if (type === "markdown") return problems;
  need("sourceId", `${type} tile`);
  if (type === "search" || type === "event_patterns") return problems;
  const select = config.select;
  if (!Array.isArray(select) || select.length === 0) {
    if (select === undefined || Array.isArray(select))
      at(["select"], `select is required of a ${type} tile: at least one item`);
    return problems;
  }
  const formulas = Array.isArray(config.formulas) && config.formulas.length > 0;
  if (type === "number" && select.length > 1 && !formulas)
    at(["select"], "Number tiles support a single select item unless formulas are used");
  select.forEach((item: unknown, i) => {
    if (!isObj(item)) return;
    if (AGGREGATING_DISPLAY_TYPES.includes(type) && item.aggFn === undefined)
      at(["select", i, "aggFn"], "aggFn is required of each select item");
    if (item.aggFn === "count" && typeof item.valueExpression === "string" && item.valueExpression !== "")
      at(["select", i, "valueExpression"], "Value expression cannot be used with count aggregation function");
    if (item.level !== undefined && item.aggFn !== "quantile")
      at(["select", i, "level"], "level is for the quantile aggregation only");
    if (item.aggFn === "quantile" && !(QUANTILE_LEVELS as readonly unknown[]).includes(item.level))
      at(["select", i, "level"], `a quantile needs level: one of ${QUANTILE_LEVELS.join(", ")}`);
    if (type === "heatmap" && (typeof item.valueExpression !== "string" || item.valueExpression === ""))
      at(["select", i, "valueExpression"], "valueExpression is required of a heatmap's select item");
  });
  return problems;
}

const compactObj = (o: Obj): Obj =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));

/** A config as the service stores it: its defaults written out. */
export function storedConfig(config: unknown): unknown {
  if (!isObj(config)) return config;
  const c = compactObj(config);
  const builder = c.configType === undefined;
  const type = c.displayType;
  const out: Obj = { ...c };
  if (builder && (AGGREGATING_DISPLAY_TYPES as readonly unknown[]).includes(type) && Array.isArray(c.select))
    out.select = c.select.map((item: unknown) =>
      isObj(item) ? { valueExpression: "", where: "", whereLanguage: "lucene", ...compactObj(item) } : item,
    );
  if (builder && (type === "line" || type === "stacked_bar"))
    Object.assign(out, { asRatio: false, fillNulls: true, ...out });
  if (builder && type === "table") Object.assign(out, { asRatio: false, ...out });
  // A Raw SQL line or stacked_bar tile is answered with fillNulls too.
  if (!builder && (type === "line" || type === "stacked_bar")) Object.assign(out, { fillNulls: true, ...out });
  return out;
}

/** Tiles compared without their ids (the service's), configs in their stored form. */
export function tilesForm(value: unknown): unknown {
  if (!Array.isArray(value)) return value ?? [];
  return value.map((tile: unknown) => {
    if (!isObj(tile)) return tile;
    const { id: _id, config, ...rest } = compactObj(tile);
    return { ...rest, config: storedConfig(config) };
  });
}

/** The service's spelling: a search tile's columns are its `select`. */
export function configToWire(config: Obj): Obj {
  const { searchSelect, ...rest } = config;
  return searchSelect === undefined ? rest : { ...rest, select: searchSelect };
}

/** The program's spelling of an answered config. */
export function configFromWire(config: unknown): unknown {
  if (!isObj(config) || typeof config.select !== "string") return config;
  const { select, ...rest } = config;
  return { ...rest, searchSelect: select };
}

interface NamedTile {
  readonly name?: unknown;
  readonly id?: unknown;
}

/**
 * The id each new tile keeps from the old ones: the k-th tile of a name takes the k-th old tile of
 * that name (so a unique name keeps its id wherever it moves, and blank or repeated names keep
 * theirs by position among the same-named); then a tile whose name is new, at the place of an old
 * tile whose name left the list, takes its id (a rename in place). Any other is new: undefined.
 */
export function keptTileIds(olds: readonly NamedTile[], news: readonly NamedTile[]): (string | undefined)[] {
  const byName = new Map<unknown, string[]>();
  for (const t of olds) if (typeof t.id === "string") byName.set(t.name, [...(byName.get(t.name) ?? []), t.id]);
  const kept: (string | undefined)[] = news.map((t) => byName.get(t.name)?.shift());
  const newNames = new Set(news.map((t) => t.name));
  const oldNames = new Set(olds.map((t) => t.name));
  const taken = new Set(kept.filter((id): id is string => id !== undefined));
  news.forEach((t, i) => {
    const old = olds[i];
    if (kept[i] !== undefined || old === undefined || typeof old.id !== "string") return;
    if (oldNames.has(t.name) || newNames.has(old.name) || taken.has(old.id)) return;
    kept[i] = old.id;
    taken.add(old.id);
  });
  return kept;
}

/** Name to id of each alertable tile of a non-empty unique name; `unknownId` for one not made yet. */
export function tileIdsOf(
  tiles: readonly { readonly name?: unknown; readonly id?: unknown; readonly config?: unknown }[],
  unknownId?: string,
): Record<string, string> {
  const counts = new Map<unknown, number>();
  for (const t of tiles) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
  const out: Record<string, string> = {};
  for (const t of tiles) {
    if (typeof t.name !== "string" || t.name === "" || counts.get(t.name) !== 1) continue;
    const type = isObj(t.config) ? t.config.displayType : undefined;
    if (!(ALERTABLE_DISPLAY_TYPES as readonly unknown[]).includes(type)) continue;
    const id = typeof t.id === "string" ? t.id : unknownId;
    if (id !== undefined) out[t.name] = id;
  }
  return out;
}

export const isAlertable = (config: unknown): boolean =>
  isObj(config) && (ALERTABLE_DISPLAY_TYPES as readonly unknown[]).includes(config.displayType);

export interface TileIndex {
  readonly dashboard: string;
  readonly tiles: Record<string, string>;
}

/**
 * The dashboard's name and each tile of a non-empty unique name with its display type; undefined
 * while the name, the list or a tile's name or display type is not known (a preview).
 */
export function tileIndexOf(name: unknown, tiles: unknown): TileIndex | undefined {
  if (typeof name !== "string" || name === UNKNOWN || !Array.isArray(tiles)) return undefined;
  const facts: { name: unknown; type: unknown }[] = [];
  for (const t of tiles as unknown[]) {
    if (!isObj(t) || containsUnknown(t.name)) return undefined;
    const type = isObj(t.config) ? t.config.displayType : t.config;
    if (containsUnknown(type)) return undefined;
    facts.push({ name: t.name, type });
  }
  const out: Record<string, string> = {};
  for (const f of facts)
    if (typeof f.name === "string" && f.name !== "" && facts.filter((g) => g.name === f.name).length === 1)
      out[f.name] = typeof f.type === "string" ? f.type : "";
  return { dashboard: name, tiles: out };
}

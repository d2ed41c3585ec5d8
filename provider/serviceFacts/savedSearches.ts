// Saved-search rules (docs/design/webhooks-and-saved-searches.md).

export const WHERE_LANGUAGES = ["lucene", "sql"] as const;
export type WhereLanguage = (typeof WHERE_LANGUAGES)[number];

/** Types a stored search may hold; only renderable `sql` ones can be written new. */
export const FILTER_TYPES = ["sql", "lucene", "sql_ast"] as const;
export const SQL_AST_OPERATORS = ["=", "<", ">", "!=", "<=", ">="] as const;

export const SAVED_SEARCH_LIMITS = {
  name: 1024,
  select: 4096,
  where: 8192,
  orderBy: 1024,
  tags: 50,
  tag: 32,
  filters: 100,
  condition: 8192,
} as const;

/** What a create or a PUT (a whole replace) leaves an omitted field at. */
export const SAVED_SEARCH_DEFAULTS = {
  select: "",
  where: "",
  whereLanguage: "lucene",
  orderBy: "",
  tags: [] as readonly string[],
  filters: [] as readonly unknown[],
} as const;

/** The service's words for a sourceId that names no source of the team. */
export const UNKNOWN_SOURCE = "sourceId must be an existing source id";

/** The service's words for a filter the search sidebar cannot render. */
export function unrenderableFilterWords(index: number): string {
  return (
    `filters[${index}] must be a sidebar-renderable SQL predicate (e.g. "<column> IN ('<value>', ...)", ` +
    `"NOT IN (...)", or "BETWEEN <n> AND <n>"). Other shapes are only accepted on update when preserved unchanged from the stored saved search.`
  );
}

/** The service's ids (MongoDB ObjectIds): 24 hex digits. */
export function isObjectId(value: string): boolean {
  return /^[0-9a-f]{24}$/i.test(value);
}

/** Whether parentheses balance, never closing more than opened, and quotes close. */
function balanced(text: string): boolean {
  let depth = 0;
  let quote: string | undefined;
  for (const ch of text) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === "`") quote = ch;
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth < 0) return false;
  }
  return depth === 0 && quote === undefined;
}

const COLUMN = String.raw`(?:[A-Za-z_][\w.]*(?:\[[^\]]*\])*|` + "`[^`]+`" + String.raw`|"[^"]+")`;
const IN = new RegExp(String.raw`^\s*${COLUMN}\s+(?:NOT\s+)?IN\s*\((.*)\)\s*$`, "is");
const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
const BETWEEN = new RegExp(String.raw`^\s*${COLUMN}\s+BETWEEN\s+${NUMBER}\s+AND\s+${NUMBER}\s*$`, "i");

/** Whether the search sidebar renders a filter, by our reading of its rule. */
export function isRenderableFilter(filter: { readonly type?: unknown; readonly condition?: unknown }): boolean {
  if ((filter.type ?? "sql") !== "sql" || typeof filter.condition !== "string") return false;
  const condition = filter.condition;
  if (BETWEEN.test(condition)) return true;
  const inList = IN.exec(condition);
  return inList !== null && balanced(inList[1] ?? "");
}

export const SAVED_SEARCHES_PATH = "/api/v2/saved-searches";
export const SOURCES_PATH = "/api/v2/sources";

// What an export keeps: the types asked for, and objects whose name matches a shell-like pattern.

/** The types an export knows, by the schema's names (the token is `alertpipe:index:<type>`). */
export const EXPORT_TYPES = ["Alert", "ApiKey", "PipeSettings", "Webhook", "SavedSearch"] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export function isExportType(text: string): text is ExportType {
  return (EXPORT_TYPES as readonly string[]).includes(text);
}

/** A pattern as a test of a whole name: `*` any run of characters, `?` one, case aside. */
export function namePattern(glob: string): (name: string) => boolean {
  const source = [...glob]
    .map((c) => (c === "*" ? "[\\s\\S]*" : c === "?" ? "[\\s\\S]" : c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")))
    .join("");
  const re = new RegExp(`^${source}$`, "iu");
  return (name) => re.test(name);
}

/** Whether any pattern (or none given) keeps this name; no name matches only what matches "". */
export function keptByName(patterns: readonly ((name: string) => boolean)[], name: string | undefined): boolean {
  return patterns.length === 0 || patterns.some((matches) => matches(name ?? ""));
}

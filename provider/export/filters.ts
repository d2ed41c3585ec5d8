// What an export keeps: the types asked for, and names matching a shell-like pattern.

/** The types an export knows, by the schema's names. */
export const EXPORT_TYPES = ["Alert", "ApiKey", "PipeSettings", "Webhook", "SavedSearch"] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export function isExportType(text: string): text is ExportType {
  return (EXPORT_TYPES as readonly string[]).includes(text);
}

/** `*` any run of characters, `?` one, case aside, matching a whole name. */
export function namePattern(glob: string): (name: string) => boolean {
  const source = [...glob]
    .map((c) => (c === "*" ? "[\\s\\S]*" : c === "?" ? "[\\s\\S]" : c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")))
    .join("");
  const re = new RegExp(`^${source}$`, "iu");
  return (name) => re.test(name);
}

/** Whether any pattern, or none given, keeps this name; no name is "". */
export function keptByName(patterns: readonly ((name: string) => boolean)[], name: string | undefined): boolean {
  return patterns.length === 0 || patterns.some((matches) => matches(name ?? ""));
}

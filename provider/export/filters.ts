// What an export keeps: the types asked for, and names matching a shell-like pattern.

/** The types an export knows, by the schema's names. */
export const EXPORT_TYPES = [
  "Alert",
  "ApiKey",
  "PipeSettings",
  "Webhook",
  "SavedSearch",
  "Dashboard",
  "Source",
  "Connection",
  "ClickPipe",
  "ClickPipeCdcInfrastructure",
] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export function isExportType(text: string): text is ExportType {
  return (EXPORT_TYPES as readonly string[]).includes(text);
}

/** One character (code point), case aside: the same when either case of both agrees. */
function sameLetter(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase() || a.toUpperCase() === b.toUpperCase();
}

/**
 * `*` any run of characters, `?` one, every other character itself, case aside, matching a whole
 * name. Matched by hand, not as a regular expression: no character of a name needs escaping.
 */
export function namePattern(glob: string): (name: string) => boolean {
  const pattern = [...glob];
  return (name) => {
    const text = [...name];
    // The classic two-pointer match: on a mismatch, the last `*` takes one more character.
    let p = 0;
    let t = 0;
    let star = -1;
    let starT = 0;
    while (t < text.length) {
      const c = pattern[p];
      if (c === "*") {
        star = p;
        starT = t;
        p += 1;
      } else if (c !== undefined && (c === "?" || sameLetter(c, text[t] ?? ""))) {
        p += 1;
        t += 1;
      } else if (star >= 0) {
        p = star + 1;
        starT += 1;
        t = starT;
      } else return false;
    }
    while (pattern[p] === "*") p += 1;
    return p === pattern.length;
  };
}

/** Whether any pattern, or none given, keeps this name; no name is "". */
export function keptByName(patterns: readonly ((name: string) => boolean)[], name: string | undefined): boolean {
  return patterns.length === 0 || patterns.some((matches) => matches(name ?? ""));
}

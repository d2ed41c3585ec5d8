// Secrets out of text, in every form a service could echo; run on raw text before anything cuts or
// parses it, so no step leaves part of one.

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** The secret JSON-escaped as many encoders write it, non-ASCII as \uXXXX. */
function asciiJson(s: string): string {
  return JSON.stringify(s)
    .slice(1, -1)
    .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Every form of the secrets, longest first, so a header goes before its token. */
function secretForms(secrets: readonly unknown[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    if (typeof s !== "string" || s === "") continue;
    const json = JSON.stringify(s).slice(1, -1);
    const uri = encodeURIComponent(s);
    forms
      .add(s)
      .add(uri)
      .add(uri.replace(/%20/g, "+"))
      .add(json)
      .add(json.replace(/\//g, "\\/"))
      .add(asciiJson(s))
      .add(s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c))
      .add(s.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c))
      // For letters whose case changes length (ß, İ).
      .add(s.toUpperCase())
      .add(s.toLowerCase());
  }
  // As error words fold white space too.
  for (const f of [...forms]) forms.add(f.replace(/\s+/g, " ").trim());
  forms.delete("");
  return [...forms].sort((a, b) => b.length - a.length);
}

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/** What a match widens over: the rest of its word or token. */
const TOKEN_CHAR = /[\p{L}\p{N}\p{M}_\-.~+/=%]/u;

/** Whole words go: `no[redacted] ma[redacted]ch` would give a short secret away. */
export function redact(text: string, secrets: readonly unknown[]): string {
  const forms = secretForms(secrets);
  if (forms.length === 0 || text === "") return text;
  const pattern = new RegExp(forms.map((f) => f.replace(SYNTAX, "\\$&")).join("|"), "giu");
  const spans: Array<[number, number]> = [];
  for (const m of text.matchAll(pattern)) {
    let start = m.index;
    let end = start + m[0].length;
    while (start > 0 && TOKEN_CHAR.test(text.charAt(start - 1))) start--;
    while (end < text.length && TOKEN_CHAR.test(text.charAt(end))) end++;
    const last = spans[spans.length - 1];
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(at, start)}[redacted]`;
    at = end;
  }
  return out + text.slice(at);
}

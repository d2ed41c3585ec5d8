// Removing secrets from text that may reach a user: every form in which a service could echo one.

/** Every form of these secrets that could show up in text (as is, URL-encoded, JSON-escaped), longest first. */
function secretForms(secrets: readonly unknown[]): string[] {
  const forms = new Set<string>();
  for (const s of secrets) {
    // Every length: a short secret is still a secret. It may blank a few ordinary letters of a
    // message too, which is the lesser harm.
    if (typeof s !== "string" || s === "") continue;
    forms.add(s).add(encodeURIComponent(s)).add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first, so a whole header value is replaced before the token inside it.
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every form of each secret replaced by "[redacted]". */
export function redact(text: string, secrets: readonly unknown[]): string {
  return secretForms(secrets).reduce((out, form) => out.split(form).join("[redacted]"), text);
}

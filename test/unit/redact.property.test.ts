// No credential survives in what the provider says (issue 24): for random secrets of 16 or more
// characters (letters, marks, spaces, tabs, unicode), echoed whole by a random service, in a random
// form (as sent, cased, URL-, JSON- or HTML-escaped, as the Basic header's Base64 or the whole
// header), in a random place (its words of any shape, a requestId of any length in the body or a
// header, other headers), no 8 consecutive characters of the secret are in any error, notice or log
// line. Seeded: REDACT_SEED=<n> runs another seed; the seed is printed either way.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { send, type Method } from "../../provider/http/client";
import { connectionFor } from "../../provider/runtime/connection";
import { useRuntime } from "../../provider/runtime/runtime";
import { errorText, mockApi } from "../support/mockApi";

const SEED = Number(process.env.REDACT_SEED ?? 24_024);
const RUNS = 300;
const WINDOW = 8;

const PLAIN = [..."abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWYZ0123456789-_.~+/=:"];
const MARKS = [..."\"'<>&%;,{}[]()!?#@*\\|^$"];
const UNICODE = ["é", "ß", "ü", "Ω", "ж", "日", "本", "😀", "𝒜", "İ", "ﬁ", "\u00a0"];
const char = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...PLAIN) },
  { weight: 2, arbitrary: fc.constantFrom(" ", "\t") },
  { weight: 2, arbitrary: fc.constantFrom(...MARKS) },
  { weight: 2, arbitrary: fc.constantFrom(...UNICODE) },
);
/**
 * A secret: 16 to 40 characters, no character thrice in a row and at least 6 distinct, so that 8 of
 * its characters in a row cannot be the message's own words (8 spaces, 8 "a") by chance.
 */
const secret = fc
  .array(char, { minLength: 16, maxLength: 40 })
  .map((cs) => cs.join(""))
  .filter((s) => !/(.)\1\1/su.test(s) && new Set(s).size >= 6);

type Area = "alerting" | "cloud";

/** Each form a service might echo the credential in, from the secret and the header we sent. */
const FORMS: Record<string, (s: string, header: string) => string> = {
  "as sent": (s) => s,
  "upper-cased": (s) => s.toUpperCase(),
  "lower-cased": (s) => s.toLowerCase(),
  "URL-encoded": (s) => encodeURIComponent(s),
  "form-encoded": (s) => encodeURIComponent(s).replace(/%20/g, "+"),
  "JSON-escaped": (s) => JSON.stringify(s).slice(1, -1),
  "JSON-escaped, ASCII": (s) =>
    JSON.stringify(s)
      .slice(1, -1)
      .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  "HTML-escaped": (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"),
  "the whole header": (_s, header) => header,
  "the header's credentials": (_s, header) => header.replace(/^\w+ /, ""),
};

/** Where the echo goes: the service's words (of some shape), the requestId, or a header. */
const PLACES = ["json error", "json message", "validation list", "plain text", "html page", "requestId", "header"];

const echo = fc.record({
  area: fc.constantFrom<Area>("alerting", "cloud"),
  secret,
  form: fc.constantFrom(...Object.keys(FORMS)),
  place: fc.constantFrom(...PLACES),
  // A requestId of any length: the secret may sit past the 100 characters an error quotes.
  padding: fc.integer({ min: 0, max: 3_000 }),
  status: fc.constantFrom(200, 400, 401, 403, 404, 409, 422, 500, 502, 503),
  method: fc.constantFrom<Method>("GET", "POST", "PUT", "PATCH", "DELETE"),
});

const PATHS: Record<Area, string> = {
  alerting: "/api/v2/alerts/65f0c1a2b3c4d5e6f7a8b9c0",
  cloud: "/v1/organizations/0f8fad5b-d9cb-469f-a165-70867728950e/keys",
};

/** The answer's body and headers, the echoed text placed as `place` says. */
function answer(place: string, text: string, padding: number, status: number) {
  const rid = `rid-${"0".repeat(padding)}`;
  const headers: Record<string, string> = { "x-request-id": rid };
  const json = (body: unknown) => ({ body: JSON.stringify(body), type: "application/json" });
  const words = `refused: ${text} (see docs)`;
  const shaped =
    place === "json error"
      ? json({ status, error: words, requestId: rid })
      : place === "json message"
        ? json({ message: words })
        : place === "validation list"
          ? json({
              errors: [
                { path: "name", message: words },
                { field: "roles", msg: "bad" },
              ],
            })
          : place === "plain text"
            ? { body: words, type: "text/plain" }
            : place === "html page"
              ? {
                  body: `<html><head><title>Denied</title></head><body><p>${words}</p></body></html>`,
                  type: "text/html",
                }
              : place === "requestId"
                ? json({ status, error: "refused", requestId: `${rid}${text}-end` })
                : json({ status, error: "refused" });
  // In a header too: as the requestId, and in one no error quotes.
  if (place === "header") {
    headers["x-request-id"] = `${rid}${text}`;
    headers["www-authenticate"] = `Bearer error="${text}"`;
  }
  return { ...shaped, headers };
}

/** The windows of `secret` found in `text`, letter case aside. */
function survivors(secret: string, text: string): string[] {
  const chars = [...secret.toLowerCase()];
  const hay = text.toLowerCase();
  const found: string[] = [];
  for (let i = 0; i + WINDOW <= chars.length; i++) {
    const window = chars.slice(i, i + WINDOW).join("");
    if (hay.includes(window)) found.push(window);
  }
  return found;
}

describe(`credentials echoed by a random service (seed ${SEED})`, () => {
  it("leave no 8 characters in a row of a secret in any error, notice or requestId", async () => {
    console.log(`redaction property: seed ${SEED}, ${RUNS} runs`);
    await fc.assert(
      fc.asyncProperty(echo, async (e) => {
        const api = mockApi();
        const notices: string[] = [];
        // Every wait is said, so notices are checked too.
        useRuntime({ notices: (line) => notices.push(line), timings: { waitNoticeAfterMs: -1 } });
        // Undone by api.close(), with the rest of the mock's environment.
        process.env[e.area === "alerting" ? "ALERTPIPE_ALERTING_TOKEN" : "ALERTPIPE_CLOUD_KEY_SECRET"] = e.secret;
        let said: string;
        try {
          const conn = connectionFor(e.area);
          const text = (FORMS[e.form] as (s: string, h: string) => string)(e.secret, conn.authorization);
          const { body, type, headers } = answer(e.place, text, e.padding, e.status);
          api[e.area]
            .intercept({ method: e.method, path: PATHS[e.area] })
            .reply(e.status, body, { headers: { "content-type": type, ...headers } })
            .persist();
          const res = await send(conn, { method: e.method, path: PATHS[e.area], body: {} });
          said = res.requestId ?? "";
        } catch (err) {
          // A token no header can carry is refused before sending, in words that never repeat it.
          said = errorText(err);
        } finally {
          await api.close();
        }
        const all = [said, ...notices].join("\n");
        expect(survivors(e.secret, all), `${e.form} in ${e.place}: ${all.slice(0, 600)}`).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

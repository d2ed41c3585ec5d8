// What a recording of HyperDX's API holds (test/recorded/hyperdx-b52a6fa/<scenario>.json), and the
// normalization that makes two recordings of the same scenario differ only where the server did:
// ids become ordinal ObjectIds, times, keys and the counters of a shared key fixed values.

/** Why an exchange is in a scenario: made for the rows, or a request under test. */
export type Role = "setup" | "row";

export interface RecordedRequest {
  readonly method: string;
  /** With its query string. */
  readonly path: string;
  readonly body?: unknown;
}

export interface RecordedAnswer {
  readonly status: number;
  /** The headers that matter (HEADERS_KEPT), lower-case. */
  readonly headers: Record<string, string>;
  /** JSON, or the text of a plain-text answer; absent when empty. */
  readonly body?: unknown;
}

export interface Exchange {
  readonly n: number;
  readonly role: Role;
  readonly what: string;
  /** Sent wrong on purpose: replayed with `x-alertpipe-deliberate: invalid`. */
  readonly deliberate?: true;
  /** The error's words must agree too. */
  readonly words?: true;
  /** A difference the emulator keeps on purpose, and why (docs/design/recorded-hyperdx.md). */
  readonly kept?: string;
  /** Sent with another key than the recorder's: that key, normalized. */
  readonly key?: string;
  /**
   * A row about the key's count: its RateLimit-Remaining kept, another key's as answered, the shared
   * key's as `<n-k>`, k below the scenario's first counted row (`<n>`); -Reset never (a clock's).
   */
  readonly counted?: true;
  /** Sent once the key's window was spent to its last request (by unrecorded requests). */
  readonly spent?: true;
  readonly request: RecordedRequest;
  readonly answer: RecordedAnswer;
}

export interface Recording {
  readonly scenario: string;
  readonly about: string;
  readonly server: string;
  /** Ids the scenario names, normalized: what a replay's program refers to. */
  readonly ids: Record<string, string>;
  readonly exchanges: readonly Exchange[];
}

export const SERVER = "HyperDX b52a6fa";
export const RECORDED_FOLDER = "hyperdx-b52a6fa";

/** The answer headers a recording keeps. */
export const HEADERS_KEPT = [
  "content-type",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "ratelimit-policy",
  "retry-after",
  "x-total-count",
] as const;

/** Headers whose value depends on who else spent the key this minute. */
const COUNTERS = new Set(["ratelimit-remaining", "ratelimit-reset"]);

export const FIXED_TIME = "2026-01-01T00:00:00.000Z";
export const FIXED = { accessKey: "<access key>", email: "<email>", counter: "<n>" } as const;

const OBJECT_ID = /\b[0-9a-f]{24}\b/g;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The n-th ObjectId of a recording (1-based): 000000000000000000000001. */
export const ordinalId = (n: number): string => n.toString(16).padStart(24, "0");

/** An exchange as sent and answered, before normalization. */
export interface RawExchange extends Omit<Exchange, "n" | "request" | "answer"> {
  readonly request: RecordedRequest;
  readonly answer: RecordedAnswer;
  /** Sent by a client through the recording proxy, beside others of its phase: when (ms). */
  readonly timing?: { readonly sentAt: number; readonly answeredAt: number };
}

/** Which queue a replay matches a request in: a create by its collection and body, anything else by its path. */
export function resourceOf(method: string, path: string, body: unknown): string {
  const bare = path.split("?")[0] ?? path;
  return method === "POST" ? `POST ${bare} ${JSON.stringify(body)}` : bare;
}

/** The collection a path is under (`alerts`), and whether it is the collection itself (a list). */
function collectionOf(x: RawExchange): { name: string; list: boolean } {
  const parts = (x.request.path.split("?")[0] ?? "").split("/").filter((p) => p !== "");
  return { name: parts[2] ?? "", list: x.request.method === "GET" && parts.length === 3 };
}

/**
 * A concurrent client's requests in an order that does not depend on how they interleaved. A
 * request stays after: the earlier ones of its resource; the create whose id it names; and, for a
 * list and a write of one collection, the one answered before the other was sent (a list sees the
 * writes before it). Otherwise the first resource (ids masked, then as numbered) goes first; so
 * ids number alike on every recording.
 */
export function canonicalOrder(
  raw: readonly RawExchange[],
  rename: (id: string) => string = (id) => id,
): RawExchange[] {
  const resource = (x: RawExchange) => resourceOf(x.request.method, x.request.path, x.request.body);
  const key = (x: RawExchange) => `${resource(x).replace(OBJECT_ID, "*")}\n${resource(x).replace(OBJECT_ID, rename)}`;
  const madeId = (x: RawExchange) => (x.answer.body as { data?: { id?: unknown } } | undefined)?.data?.id;
  const waitsOn = (y: RawExchange, x: RawExchange, group: readonly RawExchange[]): boolean => {
    if (resource(x) === resource(y)) return group.indexOf(x) < group.indexOf(y);
    const made = madeId(x);
    if (typeof made === "string" && `${y.request.path} ${JSON.stringify(y.request.body ?? null)}`.includes(made))
      return true;
    const [cx, cy] = [collectionOf(x), collectionOf(y)];
    return cx.name === cy.name && (cx.list || cy.list) && x.timing!.answeredAt <= y.timing!.sentAt;
  };
  const out: RawExchange[] = [];
  for (let i = 0; i < raw.length;) {
    const first = raw[i]!;
    let end = i + 1;
    while (
      first.timing !== undefined &&
      end < raw.length &&
      raw[end]!.timing !== undefined &&
      raw[end]!.what === first.what
    )
      end++;
    const group = raw.slice(i, end);
    const left = [...group];
    while (left.length > 0) {
      const free = left.filter((y) => !left.some((x) => x !== y && waitsOn(y, x, group)));
      const pool = free.length > 0 ? free : left;
      const next = pool.reduce((a, b) => (key(b) < key(a) ? b : a));
      out.push(next);
      left.splice(left.indexOf(next), 1);
    }
    i = end;
  }
  return out;
}

/** The times a request sent (its body's, in ms), so an echoed time is kept as the server spelt it. */
function sentTimes(value: unknown, into = new Set<number>()): Set<number> {
  if (typeof value === "string" && ISO_TIME.test(value)) into.add(Date.parse(value));
  else if (Array.isArray(value)) for (const v of value) sentTimes(v, into);
  else if (typeof value === "object" && value !== null) for (const v of Object.values(value)) sentTimes(v, into);
  return into;
}

/** A list's objects by id: objects made at once come back in the order the server made them. */
function byId(body: unknown): unknown {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data) || !data.every((o) => typeof (o as { id?: unknown } | null)?.id === "string")) return body;
  const sorted = [...(data as Array<{ id: string }>)].sort((a, b) => a.id.localeCompare(b.id));
  return { ...(body as object), data: sorted };
}

/**
 * Rewrites a scenario's exchanges: every 24-hex id to its ordinal in order of first appearance
 * (request before answer; a proxy's requests in canonical order), times the request did not send to
 * FIXED_TIME, `secrets` (the key, the user's email) to placeholders, the key's counters to "<n>",
 * a list's objects in id order.
 */
export function normalize(
  raw: readonly RawExchange[],
  secrets: ReadonlyMap<string, string>,
  named: Record<string, string>,
): { exchanges: Exchange[]; ids: Record<string, string> } {
  // Twice: the first numbers the ids, the second orders requests that differ only by id by their numbers.
  const first = normalizeIn(canonicalOrder(raw), secrets, named);
  return normalizeIn(
    canonicalOrder(raw, (id) => first.numbered.get(id) ?? id),
    secrets,
    named,
  );
}

function normalizeIn(
  raw: readonly RawExchange[],
  secrets: ReadonlyMap<string, string>,
  named: Record<string, string>,
): { exchanges: Exchange[]; ids: Record<string, string>; numbered: ReadonlyMap<string, string> } {
  const ids = new Map<string, string>();
  const idOf = (id: string) => {
    let ordinal = ids.get(id);
    if (ordinal === undefined) ids.set(id, (ordinal = ordinalId(ids.size + 1)));
    return ordinal;
  };
  const text = (s: string, sent: ReadonlySet<number>, answer: boolean): string => {
    for (const [secret, placeholder] of secrets)
      if (secret !== "" && s.includes(secret)) s = s.split(secret).join(placeholder);
    if (answer && ISO_TIME.test(s) && !sent.has(Date.parse(s))) return FIXED_TIME;
    return s.replace(OBJECT_ID, idOf);
  };
  const walk = (value: unknown, sent: ReadonlySet<number>, answer: boolean): unknown => {
    if (typeof value === "string") return text(value, sent, answer);
    if (Array.isArray(value)) return value.map((v) => walk(v, sent, answer));
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, sent, answer)]));
    return value;
  };
  const none = new Set<number>();
  // The shared key's count on a counted row: how far below the scenario's first counted row it is.
  let firstCount: number | undefined;
  const counted = (x: RawExchange, value: string): string => {
    if (x.key !== undefined || x.spent === true) return value;
    firstCount ??= Number(value);
    const below = firstCount - Number(value);
    return below === 0 ? FIXED.counter : `<n-${below}>`;
  };
  const exchanges = raw.map((x, i): Exchange => {
    const sent = sentTimes(x.request.body);
    const request: RecordedRequest = {
      method: x.request.method,
      path: text(x.request.path, none, false),
      ...(x.request.body === undefined ? {} : { body: walk(x.request.body, none, false) }),
    };
    const headers = Object.fromEntries(
      Object.entries(x.answer.headers).map(([k, v]) => [
        k,
        k === "ratelimit-reset" || (COUNTERS.has(k) && x.counted !== true)
          ? FIXED.counter
          : k === "ratelimit-remaining"
            ? counted(x, v)
            : v,
      ]),
    );
    return {
      n: i + 1,
      role: x.role,
      what: x.what,
      ...(x.deliberate ? { deliberate: true } : {}),
      ...(x.words ? { words: true } : {}),
      ...(x.kept === undefined ? {} : { kept: x.kept }),
      ...(x.key === undefined ? {} : { key: text(x.key, none, false) }),
      ...(x.counted ? { counted: true } : {}),
      ...(x.spent ? { spent: true } : {}),
      request,
      answer: {
        status: x.answer.status,
        headers,
        ...(x.answer.body === undefined ? {} : { body: byId(walk(x.answer.body, sent, true)) }),
      },
    };
  });
  const namedIds = Object.fromEntries(Object.entries(named).map(([name, id]) => [name, text(id, none, false)]));
  return { exchanges, ids: namedIds, numbered: ids };
}

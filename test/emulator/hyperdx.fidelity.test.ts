// Emulator fidelity (issue 36): every request recorded from HyperDX's own API server
// (test/recorded/hyperdx-b52a6fa/) is sent to the emulator in its 2026 mode, in recorded order, one
// emulator per recording; the status, the error's shape (and words where the row says), the
// answer's members and their kinds, the values sent back and the RateLimit-* headers must agree with
// the recording. A row marked `kept` differs on purpose: docs/design/hyperdx-recordings.md lists it
// with its reason, and it is asserted to still differ.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { request } from "undici";
import { beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { repoRoot } from "../../scripts/packedPackage";
import {
  IdMap,
  comparable,
  recordings,
  type Exchange,
  type RecordedAnswer,
  type Recording,
} from "../support/hyperdxRecordings";

const ALL = recordings();

async function send(emulator: RunningEmulator, x: Exchange, ids: IdMap): Promise<RecordedAnswer> {
  const key = x.key === undefined ? emulator.token : "not-a-key";
  const body = x.request.body === undefined ? undefined : ids.toOther(x.request.body);
  const res = await request(`${emulator.url}${ids.toOther(x.request.path)}`, {
    method: x.request.method as "GET",
    headers: {
      authorization: `Bearer ${key}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      // Sent wrong on purpose: left out of the API-description tier's request validation.
      ...(x.deliberate === true ? { "x-alertpipe-deliberate": "invalid" } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  let parsed: unknown = text === "" ? undefined : text;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    // plain text, as recorded
  }
  return { status: res.statusCode, headers, ...(parsed === undefined ? {} : { body: ids.toRecorded(parsed) }) };
}

/** Spends the emulator key's window to its last request, as the recorder did before a `spent` row. */
async function spend(emulator: RunningEmulator): Promise<void> {
  for (;;) {
    const res = await request(`${emulator.url}/api/v2/alerts?limit=1`, {
      headers: { authorization: `Bearer ${emulator.token}` },
    });
    await res.body.dump();
    if (res.headers["ratelimit-remaining"] === "0" || res.statusCode === 429) return;
  }
}

/**
 * A list keeps only what the recording made, as the recorder kept only what its scenario saw: the
 * emulator's seeded sources and connection are another team member's objects.
 */
function madeOnly(answer: RecordedAnswer, ids: IdMap): RecordedAnswer {
  const body = answer.body as { data?: unknown } | undefined;
  if (!Array.isArray(body?.data)) return answer;
  // Already in the recording's ids (send): the recording's own are those with an emulator twin.
  const data = (body.data as { id?: unknown }[]).filter((o) => typeof o.id === "string" && ids.knows(o.id));
  return { ...answer, body: { ...body, data } };
}

/** Replays one recording on a fresh emulator: the emulator's answer to each exchange, by its number. */
async function replay(rec: Recording): Promise<Map<number, RecordedAnswer>> {
  const emulator = await startEmulator({ mode: "2026", rateLimits: { cloud: false } });
  const answers = new Map<number, RecordedAnswer>();
  const ids = new IdMap();
  try {
    for (const x of rec.exchanges) {
      if (x.spent === true) await spend(emulator);
      const raw = await send(emulator, x, ids);
      if (x.request.method !== "GET") ids.learn(x.answer.body, raw.body);
      answers.set(x.n, ids.toRecorded(x.request.method === "GET" ? madeOnly(raw, ids) : raw));
    }
  } finally {
    await emulator.close();
  }
  return answers;
}

/**
 * The counters of rows about them (`counted`): another key's as answered, the recorder's key as
 * how much each such row took from the one before it (the key was shared while recording).
 */
function counters(rec: Recording, answers: (x: Exchange) => RecordedAnswer | undefined): Map<number, unknown> {
  const out = new Map<number, unknown>();
  const last = new Map<string, number>();
  for (const x of rec.exchanges) {
    const answer = answers(x);
    if (x.counted !== true || answer === undefined) continue;
    // The recorder writes the shared key's count as `<n>`, `<n-1>`, …: relative to its first counted row.
    const written = answer.headers["ratelimit-remaining"] ?? "";
    const relative = /^<n(?:-(\d+))?>$/.exec(written);
    const remaining = relative === null ? Number(written) : -Number(relative[1] ?? 0);
    const key = x.key ?? "";
    const before = last.get(key);
    out.set(
      x.n,
      x.key !== undefined || x.spent === true ? remaining : before === undefined ? "first" : before - remaining,
    );
    last.set(key, remaining);
  }
  return out;
}

describe.each(ALL.map((rec) => [rec.scenario, rec] as const))(
  "the recording %s, replayed on the emulator",
  (_name, rec) => {
    let answers = new Map<number, RecordedAnswer>();
    let recordedCounts = new Map<number, unknown>();
    let emulatedCounts = new Map<number, unknown>();
    beforeAll(async () => {
      answers = await replay(rec);
      recordedCounts = counters(rec, (x) => x.answer);
      emulatedCounts = counters(rec, (x) => answers.get(x.n));
    });

    const rows = rec.exchanges.filter((x) => x.role === "row");
    const agreeing = rows.filter((x) => x.kept === undefined);
    const kept = rows.filter((x) => x.kept !== undefined);

    it.each(agreeing.map((x) => [`#${x.n} ${x.what}`, x] as const))("%s: answered alike", (_what, x) => {
      const emulated = answers.get(x.n);
      expect(emulated, "the emulator was sent it").toBeDefined();
      expect({ ...comparable(emulated!, x), counted: emulatedCounts.get(x.n) }).toEqual({
        ...comparable(x.answer, x),
        counted: recordedCounts.get(x.n),
      });
    });

    if (kept.length > 0) {
      it.each(kept.map((x) => [`#${x.n} ${x.what}`, x] as const))("%s: still differs, as kept", (_what, x) => {
        expect(answers.get(x.n)?.status).not.toBe(x.answer.status);
      });
    }
  },
);

describe("the kept differences' table (docs/design/hyperdx-recordings.md)", () => {
  it("lists exactly the rows the recordings mark kept, with their reason", () => {
    const doc = readFileSync(join(repoRoot(), "docs", "design", "hyperdx-recordings.md"), "utf8");
    const listed = (doc.split("## Differences kept on purpose")[1] ?? "")
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => line.split("|").map((cell) => cell.trim().replace(/^`|`$/g, "")))
      .map(([, scenario, what, reason]) => ({ scenario, what, reason }));
    const marked = ALL.flatMap((rec) =>
      rec.exchanges
        .filter((x) => x.kept !== undefined)
        .map((x) => ({ scenario: rec.scenario, what: x.what, reason: x.kept })),
    );
    expect(listed).toEqual(marked);
  });
});

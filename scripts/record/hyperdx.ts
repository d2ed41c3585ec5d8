// `npm run record:hyperdx -- --url http://127.0.0.1:PORT --key KEY [--only a,b]`: sends each
// scenario's requests to a running HyperDX API server and rewrites its recording under
// test/recorded/hyperdx-b52a6fa/, normalized (recording.ts). The server is given, never started here.

import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { repoRoot } from "../packedPackage";
import { FIXED, RECORDED_FOLDER, SERVER, normalize, type Recording } from "./recording";
import type { Scenario } from "./scenario";
import { SCENARIOS } from "./scenarios";
import { Session } from "./session";

/**
 * The scenarios that run a program through the real engine: test/engine/recordHyperdx.ts records
 * them, in vitest (the engine's stacks are set up by the test support).
 */
export const ENGINE_SCENARIOS = [
  "lifecycle-dynamic",
  "lifecycle-yaml",
  "lifecycle-observability-dynamic",
  "lifecycle-kept-dynamic",
  "lifecycle-kept-yaml",
];

export const RECORDED_DIR = join(repoRoot(), "test", "recorded", RECORDED_FOLDER);

/** The access key's owner, as GET /api/v2 answers it: their email is normalized too. */
async function whoAmI(session: Session): Promise<string> {
  const answer = await session.send("GET", "/api/v2");
  const email = (answer.body as { user?: { email?: unknown } } | undefined)?.user?.email;
  if (answer.status !== 200)
    throw new Error(`GET /api/v2 answered ${answer.status}: is ${session.url} HyperDX's API, and the key its user's?`);
  return typeof email === "string" ? email : "";
}

/** Runs one scenario on a session of its own and writes its file; answers the number of exchanges. */
export async function record(url: string, key: string, scenario: Scenario, dir = RECORDED_DIR): Promise<number> {
  const session = new Session(url, key);
  const email = await whoAmI(session);
  try {
    await scenario.run(session);
  } finally {
    await session.cleanup();
  }
  const secrets = new Map<string, string>([
    [key, FIXED.accessKey],
    [email, FIXED.email],
    ...[...session.otherKeys].map((k) => [k, "<another key>"] as const),
  ]);
  const { exchanges, ids } = normalize(session.raw, secrets, session.named);
  const recording: Recording = { scenario: scenario.name, about: scenario.about, server: SERVER, ids, exchanges };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${scenario.name}.json`), `${JSON.stringify(recording, null, 2)}\n`);
  return exchanges.length;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { url: { type: "string" }, key: { type: "string" }, only: { type: "string" } },
  });
  const url = values.url ?? process.env.ALERTPIPE_RECORD_URL;
  const key = values.key ?? process.env.ALERTPIPE_RECORD_KEY;
  if (url === undefined || key === undefined) {
    throw new Error("usage: npm run record:hyperdx -- --url http://127.0.0.1:PORT --key KEY [--only name,name]");
  }
  const only = values.only?.split(",").filter((n) => n !== "");
  const names = [...SCENARIOS.map((s) => s.name), ...ENGINE_SCENARIOS];
  const unknown = only?.filter((n) => !names.includes(n)) ?? [];
  if (unknown.length > 0) throw new Error(`no scenario ${unknown.join(", ")}; there are ${names.join(", ")}`);
  const wanted = (name: string) => only === undefined || only.includes(name);
  const origin = url.replace(/\/$/, "");
  // rate-limit last: it spends the key's window.
  const last = SCENARIOS.filter((s) => s.name === "rate-limit");
  for (const scenario of SCENARIOS.filter((s) => wanted(s.name) && !last.includes(s)))
    await timed(origin, key, scenario);
  const engine = ENGINE_SCENARIOS.filter(wanted);
  if (engine.length > 0) {
    const vitest = spawnSync("npx", ["vitest", "run", "--project", "record-hyperdx"], {
      cwd: repoRoot(),
      stdio: "inherit",
      env: {
        ...process.env,
        ALERTPIPE_RECORD_HYPERDX: "1",
        ALERTPIPE_RECORD_URL: origin,
        ALERTPIPE_RECORD_KEY: key,
        ALERTPIPE_RECORD_ONLY: engine.join(","),
      },
    });
    if (vitest.status !== 0) throw new Error(`recording ${engine.join(", ")} failed (vitest exited ${vitest.status})`);
  }
  for (const scenario of last.filter((s) => wanted(s.name))) await timed(origin, key, scenario);
}

async function timed(url: string, key: string, scenario: Scenario): Promise<void> {
  const started = Date.now();
  const count = await record(url, key, scenario);
  console.log(`${scenario.name}: ${count} exchanges in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}

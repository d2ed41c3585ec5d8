// `npm test`'s checks before its tests, run at once: the type checker, the linter and the formatter
// each keep one core busy, and one after the other they cost CI a minute on 2 cores. Each one's
// output is printed whole when it ends, under its name; any failure fails the run, after all end.
//
//   node dist/scripts/checks.js typecheck lint format:check

import { spawn } from "node:child_process";

interface Outcome {
  readonly script: string;
  readonly code: number | null;
  readonly output: string;
  readonly ms: number;
}

function runScript(script: string): Promise<Outcome> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", script], { stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.on("data", (c: Buffer) => chunks.push(c));
    child.on("error", (err) => resolve({ script, code: 1, output: String(err), ms: Date.now() - t0 }));
    child.on("close", (code) =>
      resolve({ script, code, output: Buffer.concat(chunks).toString("utf8"), ms: Date.now() - t0 }),
    );
  });
}

async function main(scripts: readonly string[]): Promise<number> {
  const outcomes = await Promise.all(
    scripts.map(async (script) => {
      const outcome = await runScript(script);
      const verdict = outcome.code === 0 ? "passed" : `FAILED (exit ${String(outcome.code)})`;
      process.stdout.write(
        `\n> npm run ${script}: ${verdict} in ${(outcome.ms / 1000).toFixed(1)} s\n${outcome.output}`,
      );
      return outcome;
    }),
  );
  const failed = outcomes.filter((o) => o.code !== 0).map((o) => o.script);
  if (failed.length > 0) process.stderr.write(`\nFailed: ${failed.join(", ")}\n`);
  return failed.length > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);

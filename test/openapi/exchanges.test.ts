// The API-description tier (`npm run test:openapi`, after `npm test`): every exchange the run's
// emulators logged (test/support/exchangeLogSetup.ts) against the services' own API descriptions.
// Requests of every dialect: an operation of the right document, its security scheme, its body's
// schema with no member it does not declare; answers of the 2026 mode and the ClickHouse Cloud mode:
// the response's schema. What differs is a row of docs/design/openapi-differences.md, or a failure;
// a row that no longer occurs is one too. No suite runs again: a log of another commit is refused.

import { existsSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import type { LoggedExchange } from "../../emulator/exchangeLog";
import { currentStamp, exchangeLogFile, type RunStamp } from "../support/exchangeLog";
import { DIFFERENCES_DOC, keyOf, listedDifferences } from "../support/openapi/differences";
import { loadDocuments } from "../support/openapi/documents";
import { ExchangeValidator, type Finding } from "../support/openapi/validation";

interface Seen {
  finding: Finding;
  count: number;
  tags: Set<string>;
}

function readLog(): { stamp: RunStamp; exchanges: LoggedExchange[] } {
  const file = exchangeLogFile();
  if (!existsSync(file))
    throw new Error(
      `no exchange log at ${file}: run \`npm test\` first (it writes one per run), then \`npm run test:openapi\``,
    );
  const [first = "", ...rest] = readFileSync(file, "utf8").split("\n");
  const stamp = JSON.parse(first) as RunStamp;
  return { stamp, exchanges: rest.filter((l) => l !== "").map((l) => JSON.parse(l) as LoggedExchange) };
}

describe("the exchanges npm test logged, against the services' API descriptions", () => {
  const started = performance.now();
  const documents = loadDocuments();
  const { stamp, exchanges } = readLog();
  const validator = new ExchangeValidator(documents);
  const seen = new Map<string, Seen>();
  let requests = 0;
  let answers = 0;
  for (const exchange of exchanges) {
    const verdict = validator.check(exchange);
    if (verdict.requestValidated) requests += 1;
    if (verdict.answerValidated) answers += 1;
    for (const finding of verdict.findings) {
      const key = keyOf(finding);
      const entry = seen.get(key) ?? { finding, count: 0, tags: new Set<string>() };
      entry.count += 1;
      if (exchange.tag !== undefined && entry.tags.size < 3) entry.tags.add(exchange.tag);
      seen.set(key, entry);
    }
  }
  const listed = listedDifferences();
  const listedKeys = new Set(listed.map(keyOf));
  // A run of some tiers or files only cannot say that a row no longer occurs.
  const wholeRun = stamp.argv.length === 1 && stamp.argv[0] === "run";
  console.log(
    `openapi tier: ${exchanges.length} exchanges of ${stamp.commit.slice(0, 7)} (vitest ${stamp.argv.join(" ")}), ` +
      `${requests} requests and ${answers} answers validated, ${seen.size} distinct differences, ` +
      `${Math.round(performance.now() - started)} ms`,
  );

  it("reads the log of this commit's run", () => {
    const now = currentStamp([]);
    expect(stamp.commit, "the exchange log is another commit's: run `npm test` again").toBe(now.commit);
    if (stamp.tree !== now.tree)
      console.warn("the tree changed since the logged run: its exchanges may be out of date");
    expect(requests).toBeGreaterThan(0);
  });

  it(`finds no difference that ${DIFFERENCES_DOC} does not list`, () => {
    const unlisted = [...seen.entries()]
      .filter(([key]) => !listedKeys.has(key))
      .map(([key, s]) => `| \`${key.split(" | ").join("` | `")}\` | ${s.count}× | e.g. ${[...s.tags].join("; ")}`);
    expect(unlisted, `differences not in ${DIFFERENCES_DOC} (operation | part | finding | count | tests)`).toEqual([]);
  });

  it.runIf(wholeRun)(`finds every difference ${DIFFERENCES_DOC} lists`, () => {
    const gone = listed.filter((d) => !seen.has(keyOf(d))).map(keyOf);
    expect(gone, `rows of ${DIFFERENCES_DOC} that no exchange shows any more`).toEqual([]);
  });
});

// The README is the front door: at most 200 lines, and every relative link in it, in CONTRIBUTING.md
// and in docs/ must lead to a file that exists. The tables it links to are copies for readers that
// must say exactly what the one home of each fact says (the settings' wire names in
// provider/serviceFacts/pipeSettings.ts, the connection settings in provider/runtime/connection.ts).

import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CONNECTION_SETTINGS } from "../../provider/runtime/connection";
import { RESOURCES } from "../../provider/resources";
import { runtime } from "../../provider/runtime/runtime";
import { setEnv } from "../support/emulatorPerTest";
import { PIPE_SETTINGS } from "../../provider/serviceFacts/pipeSettings";

const root = resolve(__dirname, "..", "..");

const HEADER = "| Setting | Wire name | ClickHouse Cloud | Range |";

const WIRE_NAMES_PAGE = "docs/reference/PipeSettings.md";

function settingsRows(): string[] {
  const lines = readFileSync(join(root, WIRE_NAMES_PAGE), "utf8").split("\n");
  const start = lines.indexOf(HEADER);
  if (start < 0) throw new Error(`${WIRE_NAMES_PAGE} has no line "${HEADER}"`);
  const rows: string[] = [];
  // The header's separator row, then rows until the table ends.
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.trim());
  }
  return rows;
}

describe("the wire names of the pipe settings", () => {
  it("lists every pipe setting with the wire names (contract, Cloud) and range of the settings table, in its order", () => {
    const expected = Object.entries(PIPE_SETTINGS).map(([name, fact]) => {
      const range = fact.kind === "integer" ? `${fact.min} – ${fact.max}` : "`true`, `false`";
      return `| \`${name}\` | \`${fact.wire}\` | \`${fact.cloudWire}\` | ${range} |`;
    });
    expect(settingsRows()).toEqual(expected);
  });
});

function readme(): string {
  return readFileSync(join(root, "README.md"), "utf8");
}

/** Markdown files whose relative links must lead somewhere: the README, CONTRIBUTING.md and everything under docs/. */
function linkedDocuments(): string[] {
  const docs = readdirSync(join(root, "docs"), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".md"))
    .map((e) => relative(root, join(e.parentPath, e.name)));
  return ["README.md", "CONTRIBUTING.md", ...docs.sort()];
}

describe("README as a front door", () => {
  it("stays at most 200 lines, the rest living in docs/ and CONTRIBUTING.md", () => {
    const lines = readme().replace(/\n$/, "").split("\n").length;
    expect(lines).toBeLessThanOrEqual(200);
  });

  it("opens, before its first section, with what a user manages in the services' words, a program, and the routes", () => {
    const first = readme().split(/^## /m)[0] ?? "";
    for (const words of [/area [AB]\b/, /\bcontract\b/i, /\bdialects?\b/i]) expect(first).not.toMatch(words);
    for (const thing of ["ClickHouse Cloud", "ClickPipe", "API keys", "HyperDX", "managed ClickStack", "alerts"])
      expect(first).toContain(thing);
    for (const thing of ["webhooks", "saved searches", "dashboards", "sources", "connections"])
      expect(first).toContain(thing);
    // The program test/engine/native.yaml.test.ts runs as it stands.
    expect(first).toMatch(/```yaml\nname: alertpipe-yaml\n/);
    for (const route of ["your-first-stack.md", "other-languages.md", "real-accounts.md", "reference/README.md"])
      expect(first).toContain(`(docs/${route.includes("/") ? route : `guides/${route}`}`);
  });

  it("keeps the two commands that set up a fresh machine, which CI runs", () => {
    expect(readme()).toContain("npm ci && npm run demo");
    expect(readme()).toContain("npm ci && npm test");
  });

  it.each(["docs/installation-configuration.md"])(
    "%s lists every connection setting with its config key, environment variable and secrecy, in the order of CONNECTION_SETTINGS",
    (doc) => {
      const lines = readFileSync(join(root, doc), "utf8").split("\n");
      const start = lines.indexOf("| Stack config | Environment variable | Required | Secret | Meaning |");
      expect(start).toBeGreaterThanOrEqual(0);
      const rows = lines.slice(start + 2).filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith("|")));
      const cells = rows.map((r) => r.split("|").map((c) => c.trim()));
      const expected = Object.values(CONNECTION_SETTINGS).map((s) => [
        `\`${s.configKey}\``,
        `\`${s.envVar}\``,
        s.secret ? "yes" : "no",
      ]);
      expect(cells.map((c) => [c[1], c[2], c[4]])).toEqual(expected);
      expect(cells.map((c) => c[3] === "no")).toEqual(Object.values(CONNECTION_SETTINGS).map((s) => !s.required));
    },
  );

  it.each(["docs/installation-configuration.md"])(
    "%s says for which resources each required setting is, as their checks name it with nothing set",
    async (doc) => {
      const lines = readFileSync(join(root, doc), "utf8").split("\n");
      const start = lines.indexOf("| Stack config | Environment variable | Required | Secret | Meaning |");
      const cells = lines
        .slice(start + 2)
        .filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith("|")))
        .map((r) => r.split("|").map((c) => c.trim()));
      const needing = await resourcesNeeding();
      const expected = Object.values(CONNECTION_SETTINGS).map((s) =>
        s.required ? `for ${(needing.get(s.configKey) ?? []).map((n) => `\`${n}\``).join(", ")}` : "no",
      );
      expect(cells.map((c) => c[3])).toEqual(expected);
    },
  );
});

/** Each config key a resource's check names as missing with no setting given, and the resources naming it. */
async function resourcesNeeding(): Promise<Map<string, string[]>> {
  const unset = Object.fromEntries(Object.values(CONNECTION_SETTINGS).map((s) => [s.envVar, ""]));
  const restore = setEnv(unset);
  const config = runtime().config;
  runtime().config = undefined;
  try {
    for (const name of Object.keys(unset)) delete process.env[name];
    const needing = new Map<string, string[]>();
    for (const resource of RESOURCES) {
      const checked = await (await resource.behaviour()).check({}, {});
      const reasons = checked.ok ? [] : checked.failures.map((f) => f.reason);
      for (const s of Object.values(CONNECTION_SETTINGS))
        if (reasons.some((r) => r.startsWith(`[CONFIG] ${s.configKey} `)))
          needing.set(s.configKey, [...(needing.get(s.configKey) ?? []), resource.definition.name]);
    }
    return needing;
  } finally {
    runtime().config = config;
    restore();
  }
}

describe("links between the documents", () => {
  it.each(linkedDocuments())("every relative link in %s leads to a file or folder that exists", (doc) => {
    const text = readFileSync(join(root, doc), "utf8").replace(/```[\s\S]*?```/g, "");
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => (m[1] ?? "").replace(/#.*$/, ""))
      .filter((t) => t !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(t));
    const missing = targets.filter((t) => !existsSync(resolve(root, dirname(doc), t)));
    expect(missing).toEqual([]);
  });
});

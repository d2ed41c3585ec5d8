// The README's settings table is a copy for readers; it must say exactly what the one table of
// facts in provider/serviceFacts/pipeSettings.ts says.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PIPE_SETTINGS } from "../../provider/serviceFacts/pipeSettings";

const HEADER = "| Setting | Wire name | Range |";

function readmeSettingsRows(): string[] {
  const lines = readFileSync(join(__dirname, "..", "..", "README.md"), "utf8").split("\n");
  const start = lines.indexOf(HEADER);
  if (start < 0) throw new Error(`README has no line "${HEADER}"`);
  const rows: string[] = [];
  // The header's separator row, then rows until the table ends.
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.trim());
  }
  return rows;
}

describe("README", () => {
  it("lists every pipe setting with the wire name and range of the settings table, in its order", () => {
    const expected = Object.entries(PIPE_SETTINGS).map(([name, fact]) => {
      const range = fact.kind === "integer" ? `${fact.min} – ${fact.max}` : "`true`, `false`";
      return `| \`${name}\` | \`${fact.wire}\` | ${range} |`;
    });
    expect(readmeSettingsRows()).toEqual(expected);
  });
});

// The one table of where the provider and the emulator differ from the services' API descriptions,
// on purpose or by the documents' own gaps: docs/design/openapi-differences.md. Its rows are read
// here, each matched to the findings it explains.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../../../scripts/packedPackage";
import type { Finding } from "./validation";

export interface Difference extends Finding {
  why: string;
}

export const DIFFERENCES_DOC = "docs/design/openapi-differences.md";

/** The table's rows: Operation | Part | Finding | Why, each cell's surrounding backticks dropped. */
export function listedDifferences(text = readFileSync(join(repoRoot(), DIFFERENCES_DOC), "utf8")): Difference[] {
  const lines = text.split("\n").filter((l) => l.startsWith("| "));
  const header = cells(lines[0] ?? "");
  if (header.join("|") !== "Operation|Part|Finding|Why")
    throw new Error(`${DIFFERENCES_DOC}: the table's header must be Operation | Part | Finding | Why`);
  return lines.slice(1).map((line) => {
    const [operation = "", part = "", finding = "", why = ""] = cells(line);
    return { operation, part, finding, why };
  });
}

export function keyOf(finding: Finding): string {
  return `${finding.operation} | ${finding.part} | ${finding.finding}`;
}

function cells(line: string): string[] {
  // A cell may hold `\|` for a bar of its own.
  return line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) =>
      c
        .replace(/\\\|/g, "|")
        .trim()
        .replace(/^`(.*)`$/, "$1"),
    );
}

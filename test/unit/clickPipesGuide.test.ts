// The programs of docs/guides/clickpipes-as-code.md as a reader copies them: each resource a
// TypeScript block makes passes its resource's own check (names, types, ranges, the rules across
// fields), a value the block computes (a secret from config) standing in as unknown, as in preview.

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as clickPipe from "../../provider/clickPipe/provider";
import * as cdc from "../../provider/clickPipeCdcInfrastructure/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { UNKNOWN } from "../../provider/protocol/properties";
import { resetRuntime } from "../../provider/runtime/runtime";
import { setEnv } from "../support/emulatorPerTest";

const GUIDE = join(resolve(__dirname, "..", ".."), "docs", "guides", "clickpipes-as-code.md");
const CHECKS: Record<string, typeof clickPipe.check> = {
  ClickPipe: clickPipe.check,
  PipeSettings: pipeSettings.check,
  ClickPipeCdcInfrastructure: cdc.check,
};

/** A literal's value; anything computed (a variable, a call) is unknown, as preview has it. */
function valueOf(node: ts.Expression, names: ReadonlyMap<string, unknown>): unknown {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isArrayLiteralExpression(node)) return node.elements.map((e) => valueOf(e, names));
  if (ts.isIdentifier(node)) return names.has(node.text) ? names.get(node.text) : UNKNOWN;
  if (ts.isObjectLiteralExpression(node)) {
    const out: Record<string, unknown> = {};
    for (const p of node.properties) {
      if (ts.isPropertyAssignment(p)) out[p.name.getText()] = valueOf(p.initializer, names);
      else if (ts.isShorthandPropertyAssignment(p)) out[p.name.text] = valueOf(p.name, names);
      else throw new Error(`a property the test cannot read: ${p.getText()}`);
    }
    return out;
  }
  return UNKNOWN;
}

/** Each `new <Resource>("name", {...})` of the guide's TypeScript blocks, with its arguments. */
function resourcesOfGuide(): Array<{ type: string; name: string; args: unknown }> {
  const text = readFileSync(GUIDE, "utf8");
  const found: Array<{ type: string; name: string; args: unknown }> = [];
  for (const [, block = ""] of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
    const file = ts.createSourceFile("block.ts", block, ts.ScriptTarget.ES2022, true);
    const names = new Map<string, unknown>();
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined)
        names.set(node.name.text, valueOf(node.initializer, names));
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text in CHECKS) {
        const [name, args] = node.arguments ?? [];
        if (name !== undefined && args !== undefined)
          found.push({ type: node.expression.text, name: String(valueOf(name, names)), args: valueOf(args, names) });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

let restore: () => void = () => undefined;
beforeEach(() => {
  resetRuntime();
  restore = setEnv({
    ALERTPIPE_CLOUD_URL: "https://api.clickhouse.cloud",
    ALERTPIPE_CLOUD_KEY_ID: "key-id",
    ALERTPIPE_CLOUD_KEY_SECRET: "key-secret",
  });
});
afterEach(() => {
  restore();
  resetRuntime();
});

describe("docs/guides/clickpipes-as-code.md", () => {
  const resources = resourcesOfGuide();

  it("makes a ClickPipe and a PipeSettings in its TypeScript", () => {
    expect(resources.map((r) => r.type).sort()).toEqual(["ClickPipe", "PipeSettings"]);
  });

  it.each(resources.map((r) => [`${r.type} "${r.name}"`, r] as const))("%s passes its check", async (_n, r) => {
    const check = CHECKS[r.type];
    expect((await check?.({}, r.args as Record<string, unknown>))?.failures ?? []).toEqual([]);
  });
});

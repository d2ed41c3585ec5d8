// Each resource is written once: its definition states every property, and everything else reads
// it. So a property is named in code (an identifier, or a string that is the name alone) in at most
// two hand-written files of provider/ besides its resource's behaviour file: every file counts,
// another resource's included; only generated files and the 0.1.0 state adapters are left out. What
// the definitions render as text (the classes' types, the docs' tables) must be a fresh rendering.

import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../provider/resources";
import { GENERATED_LOOKUP_TYPES, GENERATED_TYPES, renderDynamicTypes, renderLookupTypes } from "../../scripts/generate";

const root = resolve(__dirname, "..", "..");

/** Names left out, each group for its reason: a name another thing in provider/ also has is no sign of a copy. */
const COMMON = new Set([
  // Plain words: members of every object, zod's options, a failure's fields.
  ...["name", "state", "source", "message", "description"],
  // HTTP's own words, which a webhook's properties reuse: every request has a url, headers and a body.
  ...["url", "headers", "body"],
  // Webhook's `service` and SavedSearch's `where` are words the code uses for other things: the
  // remote API a connection addresses, a cloud pipe's service; where a message says something is.
  ...["service", "where"],
  // Held by several definitions and read by the shared layers for each: the id a create takes over
  // (creation/importing.ts), the organization of every cloud path (ApiKey, PipeSettings, the
  // lookups), the times the service stamps on every object (creation/recovery.ts reads createdAt;
  // updatedAt is a member every alerting object answers: Alert, Webhook and SavedSearch hold it).
  ...["importId", "organizationId", "createdAt", "updatedAt"],
  // The service of every ClickHouse Cloud service path (PipeSettings, ClickPipeCdcInfrastructure, their lookups,
  // the idle-service wake of http/idleService.ts and the 424's words of errors.ts).
  "serviceId",
  // A ClickPipe's `credentials`, the word ApiKey's and the plugin's code use for a key pair and the engine's login.
  "credentials",
  // Words a ClickPipe's nested types share with others: a destination's ClickHouse `roles` (not an API key's),
  // a credential's `username` and `password` (as Connection's), a database source's `settings` (and the runtime's).
  ...["roles", "username", "password", "settings"],
  // The description's words for capacity, which a streaming ClickPipe's `scaling` and the service's CDC
  // capacity (ClickPipeCdcInfrastructure) share, and `stopped`, a service's state as well as a pipe's switch.
  ...["replicaCpuMillicores", "replicaMemoryGb", "scaling", "stopped"],
  // A resource's kind, which the registry and the export name: Alert's output `savedSearch` is SavedSearch's.
  "savedSearch",
  // Plain words of the code: a TypeSpec's kind, Array.from, a URL's host, pacing disabled, a service connection.
  ...["kind", "from", "host", "disabled", "connection"],
  // HyperDX's vocabulary, which its objects share: a saved search, a tile's config and a dashboard's filters
  // hold these alike; a source's delete reads dashboards' tiles and filters for the sources they use.
  ...["sourceId", "select", "orderBy", "groupBy", "filters", "tags", "whereLanguage", "tiles"],
  // One name on both sides, so a program writes `tileIndex: dashboard.tileIndex`: the Dashboard's output,
  // the Alert's input that checks tileName in preview (issue 45).
  "tileIndex",
]);

/** The files the definitions render, and how. */
const RENDERED = [
  [GENERATED_TYPES, renderDynamicTypes],
  [GENERATED_LOOKUP_TYPES, renderLookupTypes],
] as const;

/** The most files besides the behaviour that may name a property: its definition, and one that treats it specially. */
const MOST = 2;

/** Left out: what `npm run generate` writes, and the adapters 0.1.0's states require (`<kind>/shim.ts`, `provider.ts`). */
const NOT_HAND_WRITTEN = new Set([
  ...RENDERED.map(([path]) => path.split("\\").join("/")),
  ...RESOURCES.flatMap((r) => [`provider/${r.kind}/shim.ts`, `provider/${r.kind}/provider.ts`]),
]);

function providerFiles(): string[] {
  return readdirSync(join(root, "provider"), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)).split("\\").join("/"))
    .filter((f) => !NOT_HAND_WRITTEN.has(f));
}

/**
 * The code of a file as words, read from its syntax tree: identifiers and property names, and a
 * string that is one identifier alone (`"hashData"` names the property as surely as `.hashData`);
 * comments and the other strings' text left out.
 */
function codeWords(file: string, text: string): Set<string> {
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) out.add(node.text);
    else if (ts.isStringLiteralLike(node) && /^[A-Za-z_$][\w$]*$/.test(node.text)) out.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return out;
}

describe("one definition per resource", () => {
  const files = new Map(providerFiles().map((f) => [f, codeWords(f, readFileSync(join(root, f), "utf8"))]));

  for (const resource of RESOURCES) {
    const behaviour = `provider/${resource.kind}/behaviour.ts`;
    it(`names each of ${resource.definition.name}'s properties in at most ${MOST} files besides its behaviour`, () => {
      const over: Record<string, string[]> = {};
      for (const property of Object.keys(resource.definition.properties)) {
        if (COMMON.has(property)) continue;
        const naming = [...files].filter(([f, words]) => f !== behaviour && words.has(property)).map(([f]) => f);
        if (naming.length > MOST) over[property] = naming;
      }
      expect(over).toEqual({});
    });
  }

  it("leaves out only names some definition holds, so COMMON never outgrows the properties", () => {
    const held = new Set(RESOURCES.flatMap((r) => Object.keys(r.definition.properties)));
    expect([...COMMON].filter((n) => !held.has(n))).toEqual([]);
  });
});

describe("what the definitions render", () => {
  it.each(RENDERED)("%s is a fresh rendering (npm run generate)", (path, render) => {
    expect(readFileSync(join(root, path), "utf8")).toBe(render());
  });
});

// `alertpipe export`'s work: list, filter, leave out what an import could not adopt, name the rest.
// Only GETs; an object's read is served by its listing, at no request of its own.

import { AlertpipeError } from "../errors";
import { inputNames } from "../protocol/definition";
import { pick } from "../protocol/properties";
import { keptByName, namePattern, type ExportType } from "./filters";
import { EXPORT_KINDS, type ExportKind, type Listed, type Scope } from "./kinds";
import { assignNames } from "./naming";

export interface ExportOptions extends Scope {
  /** In any order; the table's order is the document's. */
  readonly types: readonly ExportType[];
  /** Name patterns (`*`, `?`); types without names ignore them. */
  readonly names: readonly string[];
}

/** The inputs an object's import records, checked: what a program adopting it holds. */
export type Inputs = Readonly<Record<string, unknown>>;

/** An object kept, as listed and as its import records it. */
export interface Kept {
  readonly kind: ExportKind;
  readonly listed: Listed;
  readonly inputs: Inputs;
  /** What its import's read gives as outputs (a dashboard's tileIds); none when it gave none. */
  readonly outputs?: Inputs;
  /** The write-only secrets it needs (the kind's placeholders), by name. */
  readonly secrets?: readonly string[];
}

/** A kept object under the name the document and the programs give it. */
export interface Adopted extends Kept {
  readonly name: string;
  /** Each of its secrets' config key, by the secret's name. */
  readonly configKeys?: Readonly<Record<string, string>>;
}

/** A secret config value the program reads in place of a secret the service never returns. */
export interface ConfigPlaceholder {
  readonly key: string;
  readonly resource: string;
  readonly type: ExportType;
  /** Where it goes, e.g. `credentials.password`. */
  readonly at: string;
}

/** One resource of the `pulumi import --file` document. */
export interface ImportEntry {
  readonly type: string;
  readonly name: string;
  readonly id: string;
}

/** What became of one collection listed (or not to be had). */
export interface CollectionReport {
  readonly type: ExportType;
  readonly where: string;
  readonly listed: number;
  readonly exported: number;
  readonly leftOutByName: number;
  /** Kept though --name left them out, since a kept object refers to them. */
  readonly keptAsReferent: number;
  readonly skipped: number;
  /** Why the service had nothing to list there; the export goes on. */
  readonly missing?: string;
}

/** An object listed that an import could not adopt, and why. */
export interface SkippedObject {
  readonly type: ExportType;
  readonly id: string;
  readonly name: string | undefined;
  readonly why: string;
}

export interface ExportResult {
  /** The document `pulumi import --file` reads. */
  readonly document: { readonly resources: ImportEntry[] };
  /** The same objects, named, in the document's order: what the programs are written from. */
  readonly adopted: readonly Adopted[];
  readonly collections: CollectionReport[];
  readonly skipped: SkippedObject[];
  /** Default types the scope gave nothing to list, and which flag would. */
  readonly notListed: Array<{ readonly type: ExportType; readonly needs: string }>;
  /** The exported types' notes (e.g. keys come without their secret). */
  readonly notes: string[];
  /** The secret config values the programs read, each to be set before the first up. */
  readonly placeholders: ConfigPlaceholder[];
}

/** What an import of this object records, or why it would give a program that fails preview. */
async function adoption(
  kind: ExportKind,
  listed: Listed,
): Promise<{ inputs: Inputs; outputs: Inputs | undefined; secrets: string[] } | { why: string }> {
  let recorded;
  try {
    recorded = listed.recorded ?? (await kind.behaviour.readImported(listed.importId));
  } catch (err) {
    return { why: `its import fails: ${AlertpipeError.detailOf(err)}` };
  }
  if (recorded === undefined) return { why: "it was gone when its import read it" };
  // Checked as the written program's preview will check them.
  const inputs = pick(recorded.inputs, inputNames(kind.behaviour.definition));
  // Secrets the service never returns are checked as the program will give them: set.
  const secrets = kind.placeholders?.names(inputs) ?? [];
  const given =
    kind.placeholders === undefined ? inputs : { ...inputs, [kind.placeholders.at]: placeholderValues(secrets) };
  const checked = await kind.behaviour.check({}, given);
  if (checked.ok) return { inputs, outputs: recorded.outputs, secrets };
  return { why: `the resource cannot hold it as it is: ${checked.failures.map((f) => f.reason).join("; ")}` };
}

const placeholderValues = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, "set-by-config"]));

/** The config key of each secret: the resource's name and the secret's, clear of every resource name. */
function configKeysOf(name: string, secrets: readonly string[], taken: ReadonlySet<string>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const secret of secrets) {
    let key = `${name}${secret.charAt(0).toUpperCase()}${secret.slice(1)}`;
    while (taken.has(key.toLowerCase())) key = `${key}Secret`;
    keys[secret] = key;
  }
  return keys;
}

/** The ids an object's inputs name at a reference's path. */
export function referredIds(inputs: unknown, path: readonly string[]): string[] {
  const [step, ...rest] = path;
  if (step === undefined) return typeof inputs === "string" ? [inputs] : [];
  if (step === "[]") return Array.isArray(inputs) ? inputs.flatMap((v) => referredIds(v, rest)) : [];
  if (typeof inputs !== "object" || inputs === null || Array.isArray(inputs)) return [];
  return referredIds((inputs as Record<string, unknown>)[step], rest);
}

interface Candidate {
  readonly kind: ExportKind;
  readonly listed: Listed;
  readonly collection: number;
}

/** Rejects only on configuration or a refused or failed request. */
export async function exportEstate(options: ExportOptions): Promise<ExportResult> {
  const patterns = options.names.map(namePattern);
  const kinds = EXPORT_KINDS.filter((k) => options.types.includes(k.type));
  const notListed = kinds
    .filter((k) => k.collections(options).length === 0 && k.needs !== undefined)
    .map((k) => ({ type: k.type, needs: k.needs ?? "" }));
  // All listings at once: each credential's pacing orders their requests.
  const perCollection = await Promise.all(
    kinds.flatMap((kind) =>
      kind.collections(options).map(async (c) => ({ kind, where: c.where, got: await c.list() })),
    ),
  );

  const counts = perCollection.map(() => ({ exported: 0, leftOutByName: 0, keptAsReferent: 0, skipped: 0 }));
  const skipped: SkippedObject[] = [];
  const kept: Kept[] = [];
  const keptKeys = new Set<string>();
  const settled = new Set<string>();
  const objectKey = (kind: ExportKind, id: string) => `${kind.type} ${id}`;
  /** Keeps the object if its import gives a program that previews; else says why not. */
  const consider = async (c: Candidate): Promise<void> => {
    const key = objectKey(c.kind, c.listed.id);
    if (settled.has(key)) return;
    settled.add(key);
    const got = await adoption(c.kind, c.listed);
    const count = counts[c.collection];
    if (count === undefined) return;
    if ("why" in got) {
      skipped.push({ type: c.kind.type, id: c.listed.id, name: c.listed.name, why: got.why });
      count.skipped += 1;
      return;
    }
    kept.push({
      kind: c.kind,
      listed: c.listed,
      inputs: got.inputs,
      ...(got.outputs === undefined ? {} : { outputs: got.outputs }),
      ...(got.secrets.length === 0 ? {} : { secrets: got.secrets }),
    });
    keptKeys.add(key);
    count.exported += 1;
  };

  const leftOut = new Map<string, Candidate>();
  for (const [collection, { kind, got }] of perCollection.entries()) {
    if (!Array.isArray(got)) continue;
    for (const listed of got) {
      const candidate = { kind, listed, collection };
      if (kind.named && !keptByName(patterns, listed.name)) leftOut.set(objectKey(kind, listed.id), candidate);
      else await consider(candidate);
    }
  }
  // What a kept object refers to is kept with it, whatever its name: a program needs its referents.
  for (let i = 0; i < kept.length; i += 1) {
    const { kind, inputs } = kept[i] ?? { kind: undefined, inputs: {} };
    // A keyed reference's referent is named at its ownerAt, itself a reference.
    for (const ref of (kind?.references ?? []).filter((r) => r.keyed === undefined))
      for (const id of referredIds(inputs, ref.path)) {
        const key = `${ref.to} ${id}`;
        const candidate = leftOut.get(key);
        if (candidate === undefined) continue;
        leftOut.delete(key);
        const count = counts[candidate.collection];
        if (count !== undefined) count.keptAsReferent += 1;
        await consider(candidate);
      }
  }
  for (const c of leftOut.values()) {
    const count = counts[c.collection];
    if (count !== undefined) count.leftOutByName += 1;
  }
  const collections: CollectionReport[] = perCollection.map(({ kind, where, got }, i) => {
    const count = counts[i] ?? { exported: 0, leftOutByName: 0, keptAsReferent: 0, skipped: 0 };
    if (!Array.isArray(got))
      return {
        type: kind.type,
        where,
        listed: 0,
        exported: 0,
        leftOutByName: 0,
        keptAsReferent: 0,
        skipped: 0,
        missing: got.missing,
      };
    return { type: kind.type, where, listed: got.length, ...count };
  });

  const keyOf = (k: Kept) => `${k.kind.type} ${k.listed.importId}`;
  const names = assignNames(
    kept.map((k) => ({ ...k, typeWord: k.kind.typeWord, name: k.listed.name, id: k.listed.id })),
    keyOf,
  );
  const order = (k: Kept) => EXPORT_KINDS.indexOf(k.kind);
  const taken = new Set([...names.values()].map((n) => n.toLowerCase()));
  const adopted: Adopted[] = kept
    .map((k) => {
      const name = names.get(keyOf(k)) ?? "";
      return k.secrets === undefined
        ? { ...k, name }
        : { ...k, name, configKeys: configKeysOf(name, k.secrets, taken) };
    })
    .sort((a, b) => order(a) - order(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const placeholders = adopted.flatMap((a) =>
    Object.entries(a.configKeys ?? {}).map(([secret, key]) => ({
      key,
      resource: a.name,
      type: a.kind.type,
      at: `${a.kind.placeholders?.at ?? ""}.${secret}`,
    })),
  );
  const resources = adopted.map((k) => ({ type: k.kind.token, name: k.name, id: k.listed.importId }));
  const notes = kinds
    .filter((k) => k.caveat !== undefined && kept.some((x) => x.kind === k))
    .map((k) => k.caveat ?? "");
  return { document: { resources }, adopted, collections, skipped, notListed, notes, placeholders };
}

/** The report as lines for a person (stderr); an import file holds no values: its secrets are the code's to add. */
export function reportLines(result: ExportResult, format: "import" | "program" = "program"): string[] {
  const lines: string[] = [];
  for (const c of result.collections) {
    if (c.missing !== undefined) {
      lines.push(`${c.where}: not listed, ${c.missing}; the export goes on without them`);
      continue;
    }
    const parts = [`${c.listed} listed`, `${c.exported} exported`];
    if (c.leftOutByName > 0) parts.push(`${c.leftOutByName} left out by --name`);
    if (c.keptAsReferent > 0) parts.push(`${c.keptAsReferent} kept as what a kept object refers to`);
    if (c.skipped > 0) parts.push(`${c.skipped} skipped`);
    lines.push(`${c.where}: ${parts.join(", ")}`);
  }
  for (const s of result.skipped) {
    const named = s.name === undefined ? "" : ` "${s.name}"`;
    lines.push(`skipped ${s.type} ${s.id}${named}: ${s.why}`);
  }
  for (const n of result.notListed) lines.push(`${n.type}: not listed, since none was named (give ${n.needs})`);
  for (const caveat of result.notes) lines.push(`note: ${caveat}`);
  for (const p of result.placeholders)
    lines.push(
      format === "import"
        ? `secret to set: ${p.type} ${p.resource}'s ${p.at}, which the import file cannot carry: add it to the ` +
            `generated program from the secret config value ${p.key} (pulumi config set --secret ${p.key} <value>)`
        : `secret to set: pulumi config set --secret ${p.key} <value> (${p.type} ${p.resource}'s ${p.at})`,
    );
  return lines;
}

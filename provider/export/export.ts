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
  readonly collections: CollectionReport[];
  readonly skipped: SkippedObject[];
  /** Default types the scope gave nothing to list, and which flag would. */
  readonly notListed: Array<{ readonly type: ExportType; readonly needs: string }>;
  /** The exported types' notes (e.g. keys come without their secret). */
  readonly notes: string[];
}

/** Why an import of this object would give a program that fails preview. */
async function whyNotAdoptable(kind: ExportKind, listed: Listed): Promise<string | undefined> {
  let recorded;
  try {
    recorded = listed.recorded ?? (await kind.behaviour.readImported(listed.importId));
  } catch (err) {
    return `its import fails: ${AlertpipeError.detailOf(err)}`;
  }
  if (recorded === undefined) return "it was gone when its import read it";
  // Checked as the generated program's preview will check them.
  const inputs = pick(recorded.inputs, inputNames(kind.behaviour.definition));
  const checked = await kind.behaviour.check({}, inputs);
  if (checked.ok) return undefined;
  return `the resource cannot hold it as it is: ${checked.failures.map((f) => f.reason).join("; ")}`;
}

interface Kept {
  readonly kind: ExportKind;
  readonly listed: Listed;
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

  const collections: CollectionReport[] = [];
  const skipped: SkippedObject[] = [];
  const kept: Kept[] = [];
  for (const { kind, where, got } of perCollection) {
    if (!Array.isArray(got)) {
      collections.push({
        type: kind.type,
        where,
        listed: 0,
        exported: 0,
        leftOutByName: 0,
        skipped: 0,
        missing: got.missing,
      });
      continue;
    }
    let leftOutByName = 0;
    let skippedHere = 0;
    let exported = 0;
    for (const listed of got) {
      if (kind.named && !keptByName(patterns, listed.name)) {
        leftOutByName += 1;
        continue;
      }
      const why = await whyNotAdoptable(kind, listed);
      if (why !== undefined) {
        skipped.push({ type: kind.type, id: listed.id, name: listed.name, why });
        skippedHere += 1;
        continue;
      }
      kept.push({ kind, listed });
      exported += 1;
    }
    collections.push({ type: kind.type, where, listed: got.length, exported, leftOutByName, skipped: skippedHere });
  }

  const keyOf = (k: Kept) => `${k.kind.type} ${k.listed.importId}`;
  const names = assignNames(
    kept.map((k) => ({ ...k, typeWord: k.kind.typeWord, name: k.listed.name, id: k.listed.id })),
    keyOf,
  );
  const order = (k: Kept) => EXPORT_KINDS.indexOf(k.kind);
  const resources = kept
    .map((k) => ({
      order: order(k),
      entry: { type: k.kind.token, name: names.get(keyOf(k)) ?? "", id: k.listed.importId },
    }))
    .sort((a, b) => a.order - b.order || (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0))
    .map((r) => r.entry);
  const notes = kinds
    .filter((k) => k.caveat !== undefined && kept.some((x) => x.kind === k))
    .map((k) => k.caveat ?? "");
  return { document: { resources }, collections, skipped, notListed, notes };
}

/** The report as lines for a person (stderr). */
export function reportLines(result: ExportResult): string[] {
  const lines: string[] = [];
  for (const c of result.collections) {
    if (c.missing !== undefined) {
      lines.push(`${c.where}: not listed, ${c.missing}; the export goes on without them`);
      continue;
    }
    const parts = [`${c.listed} listed`, `${c.exported} exported`];
    if (c.leftOutByName > 0) parts.push(`${c.leftOutByName} left out by --name`);
    if (c.skipped > 0) parts.push(`${c.skipped} skipped`);
    lines.push(`${c.where}: ${parts.join(", ")}`);
  }
  for (const s of result.skipped) {
    const named = s.name === undefined ? "" : ` "${s.name}"`;
    lines.push(`skipped ${s.type} ${s.id}${named}: ${s.why}`);
  }
  for (const n of result.notListed) lines.push(`${n.type}: not listed, since none was named (give ${n.needs})`);
  for (const caveat of result.notes) lines.push(`note: ${caveat}`);
  return lines;
}

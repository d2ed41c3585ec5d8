// The program an export writes, whatever its language: each adopted object as a resource holding
// what its import records, and each input naming another adopted object as a reference to it.

import type { Adopted } from "./export";
import { referredIds } from "./export";
import type { ExportKind } from "./kinds";

/** A reference to the resource of that name: its `id`, or its map output `at[0]` at key `at[1]` (tileIds). */
export class Reference {
  constructor(
    readonly name: string,
    readonly at?: readonly [output: string, key: string],
  ) {}
}

/** A secret config value of the program, by its key: a secret the service never returns. */
export class ConfigSecret {
  constructor(readonly key: string) {}
}

export type ProgramValue =
  | string
  | number
  | boolean
  | null
  | Reference
  | ConfigSecret
  | readonly ProgramValue[]
  | { readonly [key: string]: ProgramValue };

export interface ProgramResource {
  readonly kind: ExportKind;
  /** The resource's name and, where the language has them, its variable's. */
  readonly name: string;
  /** What the `import` option takes (the import document's id). */
  readonly importId: string;
  /** What the dynamic class's `importId` takes; undefined when it has none. */
  readonly dynamicImportId: string | undefined;
  readonly inputs: { readonly [key: string]: ProgramValue };
  /** Said above it: why a value that names another object stays a literal. */
  readonly notes: readonly string[];
  /** Config keys it reads, in order: each a secret. */
  readonly configKeys: readonly string[];
}

export interface Program {
  /** Each after the resources it refers to. */
  readonly resources: readonly ProgramResource[];
  /** How many inputs became references. */
  readonly references: number;
}

/** A plain value of an import's record, made a program's value. */
function plain(value: unknown): ProgramValue {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return value;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, plain(v)]),
    );
  return null;
}

/** `value` with the string at `path` replaced by `replace`'s answer, where it gives one. */
function replaced(
  value: ProgramValue,
  path: readonly string[],
  replace: (id: string) => Reference | undefined,
): ProgramValue {
  const [step, ...rest] = path;
  if (step === undefined) return typeof value === "string" ? (replace(value) ?? value) : value;
  if (step === "[]") return Array.isArray(value) ? value.map((v: ProgramValue) => replaced(v, rest, replace)) : value;
  if (
    typeof value !== "object" ||
    value === null ||
    Array.isArray(value) ||
    value instanceof Reference ||
    value instanceof ConfigSecret
  )
    return value;
  const record = value as { readonly [key: string]: ProgramValue };
  const inner = record[step];
  if (inner === undefined) return value;
  return { ...record, [step]: replaced(inner, rest, replace) };
}

/** The key of `map` holding `value`, when exactly one does. */
function keyHolding(map: unknown, value: string): string | undefined {
  if (typeof map !== "object" || map === null) return undefined;
  const keys = Object.entries(map as Record<string, unknown>).filter(([, v]) => v === value);
  return keys.length === 1 ? keys[0]?.[0] : undefined;
}

export function programOf(adopted: readonly Adopted[]): Program {
  // Ids are unique within a type, so each id names one resource.
  const byTypeAndId = new Map(adopted.map((a) => [`${a.kind.type} ${a.listed.id}`, a]));
  let references = 0;
  const made = adopted.map((a): ProgramResource => {
    let inputs = plain(a.inputs) as { readonly [key: string]: ProgramValue };
    const notes: string[] = [];
    for (const ref of a.kind.references) {
      const { keyed } = ref;
      const referent = (id: string) => byTypeAndId.get(`${ref.to} ${id}`);
      let resolve: (id: string) => Reference | undefined;
      if (keyed === undefined)
        resolve = (id) => {
          const to = referent(id);
          return to === undefined ? undefined : new Reference(to.name);
        };
      else {
        const [ownerId] = referredIds(a.inputs, keyed.ownerAt);
        const owner = ownerId === undefined ? undefined : referent(ownerId);
        resolve = (id) => {
          const output = owner?.kind.keyedOutput;
          if (owner === undefined || output === undefined) return undefined;
          const key = keyHolding(owner.outputs?.[output], id);
          // Pulumi YAML cannot read a key ending in a backslash (it takes `\"` as a quote).
          if (key !== undefined && !key.endsWith("\\")) return new Reference(owner.name, [output, key]);
          notes.push(
            `${ref.path.join(".")} stays the id ${id}: it is not among ${owner.name}'s ${output} (only a tile of a ` +
              "non-empty unique name whose chart takes an alert (line, stacked_bar, number) is; the service deletes an " +
              "alert on any other tile at the dashboard's next update).",
          );
          return undefined;
        };
      }
      inputs = replaced(inputs, ref.path, (id) => {
        const reference = resolve(id);
        if (reference !== undefined) references += 1;
        return reference;
      }) as typeof inputs;
    }
    const configKeys = Object.entries(a.configKeys ?? {});
    const at = a.kind.placeholders?.at;
    if (at !== undefined && configKeys.length > 0)
      inputs = {
        ...inputs,
        [at]: Object.fromEntries(configKeys.map(([secret, key]) => [secret, new ConfigSecret(key)])),
      };
    return {
      kind: a.kind,
      name: a.name,
      importId: a.listed.importId,
      dynamicImportId: a.kind.dynamicImportId?.(a.listed),
      inputs,
      notes,
      configKeys: configKeys.map(([, key]) => key),
    };
  });
  return { resources: referentsFirst(made), references };
}

function namesReferred(value: ProgramValue, into: Set<string>): Set<string> {
  if (value instanceof Reference) into.add(value.name);
  else if (Array.isArray(value)) for (const v of value as readonly ProgramValue[]) namesReferred(v, into);
  else if (typeof value === "object" && value !== null && !(value instanceof ConfigSecret))
    for (const v of Object.values(value as { readonly [key: string]: ProgramValue })) namesReferred(v, into);
  return into;
}

/** In the given order, but each resource after those it refers to (a language's variables need it). */
function referentsFirst(resources: readonly ProgramResource[]): ProgramResource[] {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const placed = new Set<string>();
  const order: ProgramResource[] = [];
  const place = (r: ProgramResource, visiting: Set<string>): void => {
    if (placed.has(r.name) || visiting.has(r.name)) return;
    visiting.add(r.name);
    for (const name of [...namesReferred(r.inputs, new Set())].sort()) {
      const referent = byName.get(name);
      if (referent !== undefined) place(referent, visiting);
    }
    placed.add(r.name);
    order.push(r);
  };
  for (const r of resources) place(r, new Set());
  return order;
}

/** A note as comment lines of at most `width` characters, each after `prefix`. */
export function commentLines(text: string, prefix: string, width = 100): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line !== "" && prefix.length + line.length + 1 + word.length > width) {
      lines.push(`${prefix}${line}`);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(`${prefix}${line}`);
  return lines;
}

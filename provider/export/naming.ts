// Export names become generated programs' variables: camelCase every generator takes, the object's
// own name where it can, and stable whatever the listing order.

/** What every name given matches. */
export const NAME_PATTERN = /^[a-z][A-Za-z0-9]*$/;

/** Cut so a suffix still leaves a short name. */
const MAX_BASE = 48;

/** It grows only where two names would meet. */
const SUFFIX_LENGTH = 6;

/** No generated program can use these as a variable. */
const KEYWORDS = new Set(
  (
    "abstract and as assert async await break case catch chan class const continue def default defer del delete do " +
    "elif else enum except export extends false fallthrough final finally for from func function global go goto if " +
    "implements import in instanceof interface is lambda let map new nil none nonlocal not null or package pass " +
    "private protected public raise range return select static struct super switch this throw true try type typeof " +
    "var void while with yield properties options resources outputs variables config undefined eval arguments " +
    // The TypeScript program's own: its import of @pulumi/pulumi and its helper for tileIds.
    "globalthis pulumi valueat"
  ).split(" "),
);

/** An object to name: its type's word, its own name if any, and its id. */
export interface Nameable {
  /** A valid name itself ("alert"): the base when the object's name gives none. */
  readonly typeWord: string;
  readonly name: string | undefined;
  readonly id: string;
}

/** `text` as camelCase ASCII words, accents dropped, cut to MAX_BASE. */
export function camelWords(text: string): string {
  const words = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
  const joined = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("");
  return joined.slice(0, MAX_BASE);
}

const capitalized = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** The name made valid; a leading digit or a keyword takes the type's word before it. */
export function baseName(typeWord: string, name: string | undefined): string | undefined {
  const words = camelWords(name ?? "");
  if (words === "") return undefined;
  if (/^[0-9]/.test(words) || KEYWORDS.has(words.toLowerCase())) return `${typeWord}${capitalized(words)}`;
  return words;
}

/** The id's end, lower case: ids end in their most varied part. */
export function idSuffix(id: string, length: number): string {
  const chars = id.toLowerCase().replace(/[^a-z0-9]/g, "");
  return chars.slice(Math.max(0, chars.length - length));
}

interface Draft {
  readonly key: string;
  readonly base: string;
  readonly id: string;
  /** 0: the base alone; else how many characters of the id's suffix follow it. */
  suffix: number;
  /** An ordinal, when even the whole id leaves two alike. */
  ordinal: number;
}

function spelled(d: Draft): string {
  const tail = d.suffix === 0 ? "" : idSuffix(d.id, d.suffix);
  return `${d.base}${tail}${d.ordinal === 0 ? "" : `x${d.ordinal}`}`;
}

/** Unique case aside: some languages and file systems tell names apart by case alone. */
export function assignNames<T extends Nameable>(objects: readonly T[], keyOf: (o: T) => string): Map<string, string> {
  const drafts: Draft[] = objects
    .map((o) => {
      const own = baseName(o.typeWord, o.name);
      return { key: keyOf(o), base: own ?? o.typeWord, id: o.id, suffix: own === undefined ? SUFFIX_LENGTH : 0 };
    })
    // Never by listing order: the same objects always get the same names.
    .sort((a, b) => compare(a.base.toLowerCase(), b.base.toLowerCase()) || compare(a.id, b.id) || compare(a.key, b.key))
    .map((d) => ({ ...d, ordinal: 0 }));
  const sharedBase = countBy(drafts, (d) => d.base.toLowerCase());
  for (const d of drafts)
    if (d.suffix === 0 && (sharedBase.get(d.base.toLowerCase()) ?? 0) > 1) d.suffix = SUFFIX_LENGTH;

  // Two alike: each suffixed one grows by a character of its id, or, the id spent, takes an ordinal.
  for (;;) {
    const groups = groupBy(drafts, (d) => spelled(d).toLowerCase());
    const clashing = [...groups.values()].filter((g) => g.length > 1);
    if (clashing.length === 0) break;
    for (const group of clashing) {
      const growable = group.filter((d) => d.suffix > 0 && idSuffix(d.id, d.suffix + 1).length > d.suffix);
      if (growable.length > 0) {
        for (const d of growable) d.suffix += 1;
        continue;
      }
      // Ordinals only grow, so this ends.
      group.forEach((d, i) => (d.ordinal += i));
    }
  }
  return new Map(drafts.map((d) => [d.key, spelled(d)]));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function countBy<T>(items: readonly T[], by: (t: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of items) counts.set(by(t), (counts.get(by(t)) ?? 0) + 1);
  return counts;
}

function groupBy<T>(items: readonly T[], by: (t: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const t of items) groups.set(by(t), [...(groups.get(by(t)) ?? []), t]);
  return groups;
}

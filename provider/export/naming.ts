// The names an export gives the objects it lists: `pulumi import --file` makes each a resource
// name and, with --generate-code, a variable of the program in its language. So a name is a
// camelCase identifier every generator takes as it is (ASCII letters and digits, a letter first,
// no keyword of the languages Pulumi generates), readable (the object's own name) and stable: it
// depends only on the set of objects named, never on the order they were listed in.

/** What every name given matches. */
export const NAME_PATTERN = /^[a-z][A-Za-z0-9]*$/;

/** The object's own name is cut to this many characters, so a suffix still leaves a short name. */
const MAX_BASE = 48;

/** The suffix taken from an object's id starts this long and grows only where two would meet. */
const SUFFIX_LENGTH = 6;

/**
 * Words a generated program cannot use as a variable (TypeScript, Python, Go, C#, Java, YAML's own
 * keys of a resource): such a name takes the type's word before it, e.g. "alertImport".
 */
const KEYWORDS = new Set(
  (
    "abstract and as assert async await break case catch chan class const continue def default defer del delete do " +
    "elif else enum except export extends false fallthrough final finally for from func function global go goto if " +
    "implements import in instanceof interface is lambda let map new nil none nonlocal not null or package pass " +
    "private protected public raise range return select static struct super switch this throw true try type typeof " +
    "var void while with yield properties options resources outputs variables config"
  ).split(" "),
);

/** An object to name: its type's word (e.g. "alert"), its own name when it has one, and its id. */
export interface Nameable {
  /** The type's word, a valid name itself ("alert", "apiKey"): the base when the object's name gives none. */
  readonly typeWord: string;
  readonly name: string | undefined;
  readonly id: string;
}

/** `text` as camelCase ASCII words, accents dropped, cut to MAX_BASE; "" when it holds no letter or digit. */
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

/**
 * The object's name as a valid name, or undefined when it gives none (no name, or no letter or
 * digit in it). A name starting with a digit, or a keyword, takes the type's word before it.
 */
export function baseName(typeWord: string, name: string | undefined): string | undefined {
  const words = camelWords(name ?? "");
  if (words === "") return undefined;
  if (/^[0-9]/.test(words) || KEYWORDS.has(words.toLowerCase())) return `${typeWord}${capitalized(words)}`;
  return words;
}

/** The id's letters and digits, lower case, the last `length` of them (ids end in their most varied part). */
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
  /** Set only when even the whole id leaves two alike: an ordinal among them, by id. */
  ordinal: number;
}

function spelled(d: Draft): string {
  const tail = d.suffix === 0 ? "" : idSuffix(d.id, d.suffix);
  return `${d.base}${tail}${d.ordinal === 0 ? "" : `x${d.ordinal}`}`;
}

/**
 * A name for each object, by the key `keyOf` gives it: its own name made valid where that name is
 * its alone; where it has none, or shares it with another object (case aside), the base then the
 * last characters of its id, as many as make it unique. Names are unique case aside, since some
 * languages' code and some file systems tell names apart by case alone.
 */
export function assignNames<T extends Nameable>(objects: readonly T[], keyOf: (o: T) => string): Map<string, string> {
  const drafts: Draft[] = objects
    .map((o) => {
      const own = baseName(o.typeWord, o.name);
      return { key: keyOf(o), base: own ?? o.typeWord, id: o.id, suffix: own === undefined ? SUFFIX_LENGTH : 0 };
    })
    // Sorted by what is named, never by listing order: the same objects always get the same names.
    .sort((a, b) => compare(a.base.toLowerCase(), b.base.toLowerCase()) || compare(a.id, b.id) || compare(a.key, b.key))
    .map((d) => ({ ...d, ordinal: 0 }));
  const sharedBase = countBy(drafts, (d) => d.base.toLowerCase());
  for (const d of drafts)
    if (d.suffix === 0 && (sharedBase.get(d.base.toLowerCase()) ?? 0) > 1) d.suffix = SUFFIX_LENGTH;

  // Two names alike: each suffixed one among them grows by one character of its id; one with the
  // whole id already (ids alike once letters and digits alone are kept) takes an ordinal instead.
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
      // Nothing left to grow (ids alike once letters and digits alone are kept): the members after
      // the first, in their sorted order, count on; ordinals only grow, so this ends.
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

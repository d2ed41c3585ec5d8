// The refresh rows' fair reference (issue 47): a minimal provider that reads through the same lists
// ours reads and records the same outputs. Its reads send what ours sends on a refresh (one list of
// keys per organization, the pages of alerts), to the same emulator, each list once per process,
// and answer each read from the list (there: the recorded outputs; missing: gone), with no inputs
// (the engine keeps the state's own) and no other work. Its resources adopt our stack's objects when
// the bench makes its stack: each create takes the id and outputs ours recorded for the resource of
// the same name (the adoption file the bench writes from our state), so both states are the same
// size and both lists hold the same objects.
// The dynamic door loads `listingDynamicProvider` (bench/benchFolder.ts installs a package that
// requires this file), the plugin door `pulumi-resource-benchlisting` (bench/nativeShells.ts).
// No runtime import from the product: the reference must not load our code.

import { readFileSync } from "node:fs";
import { ADOPT_FILE_ENV, FETCH_KEY_ID_ENV, FETCH_KEY_SECRET_ENV, FETCH_TOKEN_ENV, FETCH_URL_ENV } from "./shellFacts";

export type Values = Record<string, unknown>;

/** What a resource's read lists: its organization's keys (an ApiKey), or the alerts (an Alert). */
export type ListRef = { readonly list: "keys"; readonly organizationId: string } | { readonly list: "alerts" };

/** An ApiKey's state names its organization; an Alert's does not. */
export function listOf(props: Values): ListRef {
  const org = props.organizationId;
  return typeof org === "string" && org !== "" ? { list: "keys", organizationId: org } : { list: "alerts" };
}

/** The path of a list's first request: the keys' whole list, or the alerts' first page. */
export function listPath(ref: ListRef, pageMax: number, offset = 0): string {
  return ref.list === "keys"
    ? `/v1/organizations/${ref.organizationId}/keys`
    : `/api/v2/alerts?limit=${pageMax}&offset=${offset}`;
}

/** A listed object's id, as ours takes it (a non-empty string `id`). */
function idOf(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const id = (item as Values).id;
  return typeof id === "string" && id.trim() !== "" ? id : undefined;
}

/** The listed objects by id, the first of each id kept. */
export function byId(items: readonly unknown[], into = new Map<string, Values>()): Map<string, Values> {
  for (const item of items) {
    const id = idOf(item);
    if (id !== undefined && !into.has(id)) into.set(id, item as Values);
  }
  return into;
}

/** A read's answer from its list: the recorded outputs when the list holds the id, undefined (gone) when not. */
export function readAnswer(
  items: ReadonlyMap<string, unknown>,
  id: string,
  props: Values,
): { id: string; props: Values } | undefined {
  return items.has(id) ? { id, props } : undefined;
}

/** The engine's marker of a secret in an exported state (`pulumi stack export --show-secrets`). */
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";

/** A value with every secret envelope replaced by its plaintext: the reference records plain values. */
export function revealed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revealed);
  if (typeof value !== "object" || value === null) return value;
  const obj = value as Values;
  if (SECRET_SIG_KEY in obj && typeof obj.plaintext === "string") return revealed(JSON.parse(obj.plaintext));
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, revealed(v)]));
}

export interface Adoption {
  readonly id: string;
  readonly outputs: Values;
}

/** The key a resource is adopted by: its `name` input, unique across the thousand's alerts and keys. */
export function adoptionKey(props: Values): string {
  return String(props.name);
}

/**
 * From our stack's exported deployment: each custom resource of ours (not a provider, not the stack)
 * by its adoption key, with its id and outputs, secrets revealed and the dynamic host's own
 * `__provider` left out (the reference's host records its own).
 */
export function adoptionsFrom(exported: unknown): Record<string, Adoption> {
  const resources = (exported as { deployment?: { resources?: unknown[] } } | undefined)?.deployment?.resources ?? [];
  const out: Record<string, Adoption> = {};
  for (const r of resources as Array<{ type?: string; id?: string; outputs?: Values; custom?: boolean }>) {
    if (r.id === undefined || r.outputs === undefined) continue;
    if (r.type?.startsWith("pulumi:")) continue;
    const { __provider: _p, ...outputs } = revealed(r.outputs) as Values;
    out[adoptionKey(outputs)] = { id: r.id, outputs };
  }
  return out;
}

/** Where the reference reads from, as the bench's env sets it. */
export interface ListingEnv {
  readonly url: string;
  readonly token: string;
  readonly keyId: string;
  readonly keySecret: string;
  readonly adoptFile: string;
}

export function listingEnv(env: NodeJS.ProcessEnv = process.env): ListingEnv {
  return {
    url: env[FETCH_URL_ENV] ?? "",
    token: env[FETCH_TOKEN_ENV] ?? "",
    keyId: env[FETCH_KEY_ID_ENV] ?? "",
    keySecret: env[FETCH_KEY_SECRET_ENV] ?? "",
    adoptFile: env[ADOPT_FILE_ENV] ?? "",
  };
}

type Fetch = typeof fetch;

/** The reads of one process: each list fetched once (concurrent reads share its request), then served from memory. */
export class ListingReads {
  private readonly lists = new Map<string, Promise<Map<string, Values>>>();
  private adoptions: Record<string, Adoption> | undefined;

  constructor(
    private readonly env: ListingEnv,
    private readonly pageMax: number,
    private readonly fetchImpl: Fetch = fetch,
  ) {}

  /** A create of the bench's setup: the object ours made under the same name. */
  adopt(inputs: Values): Adoption {
    this.adoptions ??= JSON.parse(readFileSync(this.env.adoptFile, "utf8")) as Record<string, Adoption>;
    const found = this.adoptions[adoptionKey(inputs)];
    if (found === undefined) throw new Error(`no object of ours to adopt for ${adoptionKey(inputs)}`);
    return found;
  }

  async read(id: string, props: Values): Promise<{ id: string; props: Values } | undefined> {
    return readAnswer(await this.list(listOf(props)), id, props);
  }

  private list(ref: ListRef): Promise<Map<string, Values>> {
    const key = ref.list === "keys" ? `keys ${ref.organizationId}` : "alerts";
    let held = this.lists.get(key);
    if (held === undefined) {
      held = this.fetchList(ref).catch((err: unknown) => {
        this.lists.delete(key);
        throw err;
      });
      this.lists.set(key, held);
    }
    return held;
  }

  private async get(path: string, authorization: string): Promise<Values> {
    const res = await this.fetchImpl(this.env.url + path, { headers: { authorization } });
    const body = (await res.json()) as Values;
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
    return body;
  }

  private async fetchList(ref: ListRef): Promise<Map<string, Values>> {
    if (ref.list === "keys") {
      const basic = Buffer.from(`${this.env.keyId}:${this.env.keySecret}`).toString("base64");
      const body = await this.get(listPath(ref, this.pageMax), `Basic ${basic}`);
      return byId(Array.isArray(body.result) ? body.result : []);
    }
    // Pages step by the service's limit until they cover its total, as ours do (provider/reading/pagedList.ts).
    const found = new Map<string, Values>();
    for (let offset = 0; ;) {
      const body = await this.get(listPath(ref, this.pageMax, offset), `Bearer ${this.env.token}`);
      const page = Array.isArray(body.data) ? body.data : [];
      const before = found.size;
      byId(page, found);
      const meta = body.meta as { total?: number; limit?: number } | undefined;
      if (typeof meta?.total !== "number") {
        if (page.length !== this.pageMax || found.size === before) return found;
        offset += this.pageMax;
      } else {
        offset += Math.min(meta.limit ?? this.pageMax, this.pageMax);
        if (offset >= meta.total) return found;
      }
    }
  }
}

/** The dynamic door's reference: every method answers at once, but read answers from the lists. */
export function listingDynamicProvider(pageMax: number): Record<string, (...args: never[]) => Promise<unknown>> {
  const reads = new ListingReads(listingEnv(), pageMax);
  return {
    check: async (_olds: Values, news: Values) => ({ inputs: news }),
    diff: async () => ({}),
    create: async (inputs: Values) => {
      const adopted = reads.adopt(inputs);
      return { id: adopted.id, outs: adopted.outputs };
    },
    read: async (id: string, props: Values) => (await reads.read(id, props)) ?? {},
    update: async (_id: string, _olds: Values, news: Values) => ({ outs: news }),
    delete: async () => undefined,
  };
}

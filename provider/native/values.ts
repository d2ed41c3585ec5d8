// Secrets unwrapped on the way in, output-only secrets wrapped on the way out.

import { memberOf, type Values } from "../protocol/properties";
import { structPb, type Struct } from "./protocol";

/** Pulumi's `specialSigKey` and `specialSecretSig`. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

function isSecret(value: unknown): value is { readonly value?: unknown } {
  return typeof value === "object" && value !== null && memberOf(value, SIG_KEY) === SECRET_SIG;
}

/**
 * Resource calls carry no markers (acceptSecrets false); Configure and CheckConfig may. In place:
 * `value` is a fresh conversion of a Struct, which nothing else holds.
 */
function unwrapped(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (isSecret(value)) return unwrapped(value.value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unwrapped(value[i]);
    return value;
  }
  const obj = value as Record<string, unknown>;
  for (const k in obj) obj[k] = unwrapped(obj[k]);
  return obj;
}

/** At any depth: Struct cannot say undefined. Copied only where one is. */
function defined(value: unknown): unknown {
  if (!holdsUndefined(value)) return value;
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : defined(v)));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== undefined) out[k] = defined(v);
  return out;
}

function holdsUndefined(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some((v) => v === undefined || holdsUndefined(v));
  for (const k in value) {
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined || holdsUndefined(v)) return true;
  }
  return false;
}

export function fromStruct(struct: Struct | undefined): Values {
  if (struct === undefined) return {};
  return unwrapped(struct.toJavaScript()) as Values;
}

/** The engine re-marks outputs named as secret inputs; only we know output-only ones (`keySecret`). */
export function toStruct(props: Values, secrets: readonly string[] = []): Struct {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined) continue;
    out[name] = secrets.includes(name) ? { [SIG_KEY]: SECRET_SIG, value: defined(value) } : defined(value);
  }
  return structPb.Struct.fromJavaScript(out as Parameters<typeof structPb.Struct.fromJavaScript>[0]);
}

/** Whether `props` would go out as the Struct `sent` came in: absent and undefined alike, null a value. */
export function carriedAs(props: unknown, sent: unknown): boolean {
  if (props === sent) return true;
  if (Array.isArray(props)) {
    if (!Array.isArray(sent) || props.length !== sent.length) return false;
    for (let i = 0; i < props.length; i++)
      if (!carriedAs(props[i] === undefined ? null : props[i], sent[i])) return false;
    return true;
  }
  if (typeof props !== "object" || props === null || typeof sent !== "object" || sent === null || Array.isArray(sent))
    return false;
  // Allocation-free: a refresh compares a thousand states.
  const given = props as Record<string, unknown>;
  const held = sent as Record<string, unknown>;
  let count = 0;
  for (const k in given) {
    const v = given[k];
    if (v === undefined) continue;
    count += 1;
    if (!Object.hasOwn(held, k) || !carriedAs(v, held[k])) return false;
  }
  return count === Object.keys(held).length;
}

// Secrets unwrapped on the way in, output-only secrets wrapped on the way out.

import { memberOf, type Values } from "../protocol/properties";
import { structPb, type Struct } from "./protocol";

/** Pulumi's `specialSigKey` and `specialSecretSig`. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

function isSecret(value: unknown): value is { readonly value?: unknown } {
  return typeof value === "object" && value !== null && memberOf(value, SIG_KEY) === SECRET_SIG;
}

/** Resource calls carry no markers (acceptSecrets false); Configure and CheckConfig may. */
export function plain(value: unknown): unknown {
  if (isSecret(value)) return plain(value.value);
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** At any depth: Struct cannot say undefined. */
function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : defined(v)));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, defined(v)]),
    );
  }
  return value;
}

export function fromStruct(struct: Struct | undefined): Values {
  if (struct === undefined) return {};
  return Object.fromEntries(Object.entries(struct.toJavaScript()).map(([k, v]) => [k, plain(v)]));
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
  if (Array.isArray(props))
    return (
      Array.isArray(sent) &&
      props.length === sent.length &&
      props.every((v, i) => carriedAs(v === undefined ? null : v, sent[i]))
    );
  if (typeof props !== "object" || props === null || typeof sent !== "object" || sent === null || Array.isArray(sent))
    return false;
  const given = Object.entries(props).filter(([, v]) => v !== undefined);
  return (
    given.length === Object.keys(sent).length &&
    given.every(([k, v]) => Object.hasOwn(sent, k) && carriedAs(v, (sent as Record<string, unknown>)[k]))
  );
}

// Property values as they travel over the Pulumi gRPC wire once a google.protobuf.Struct is
// turned into plain JavaScript: secrets are `{ [SIG_KEY]: SECRET_SIG, value }` objects and
// unknown (computed) values are the UNKNOWN sentinel string. These are the same constants the
// SDK uses (see @pulumi/pulumi/runtime/rpc.js: unknownValue, specialSigKey, specialSecretSig).

/** The sentinel the SDK and engine use for a value that is not known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** The key that marks a special (signature-carrying) object. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** Signature of a secret value. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** Signature of a resource reference. */
export const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";
/** The text shown instead of a secret value, as the CLI does. */
export const SECRET_MASK = "[secret]";

export type PropertyValue = null | boolean | number | string | PropertyValue[] | { [key: string]: PropertyValue };
export type PropertyMap = { [key: string]: PropertyValue };

export interface SecretValue {
    [SIG_KEY]: typeof SECRET_SIG;
    value: PropertyValue;
}

function isObject(v: unknown): v is { [key: string]: PropertyValue } {
    return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function isSecret(v: unknown): v is SecretValue {
    return isObject(v) && v[SIG_KEY] === SECRET_SIG && "value" in v;
}

export function makeSecret(v: PropertyValue): PropertyValue {
    if (isSecret(v)) {
        return v;
    }
    return { [SIG_KEY]: SECRET_SIG, value: v };
}

export function isUnknown(v: unknown): boolean {
    return v === UNKNOWN;
}

/** Deep copy with every secret wrapper replaced by its plain value (what a provider that does not accept secrets gets). */
export function stripSecrets(v: PropertyValue): PropertyValue {
    if (isSecret(v)) {
        return stripSecrets(v.value);
    }
    if (Array.isArray(v)) {
        return v.map(stripSecrets);
    }
    if (isObject(v)) {
        const out: PropertyMap = {};
        for (const [k, x] of Object.entries(v)) {
            out[k] = stripSecrets(x);
        }
        return out;
    }
    return v;
}

export function stripSecretsMap(m: PropertyMap): PropertyMap {
    return stripSecrets(m) as PropertyMap;
}

export function containsSecrets(v: PropertyValue): boolean {
    if (isSecret(v)) {
        return true;
    }
    if (Array.isArray(v)) {
        return v.some(containsSecrets);
    }
    if (isObject(v)) {
        return Object.values(v).some(containsSecrets);
    }
    return false;
}

export function containsUnknowns(v: PropertyValue): boolean {
    if (v === UNKNOWN) {
        return true;
    }
    if (Array.isArray(v)) {
        return v.some(containsUnknowns);
    }
    if (isObject(v)) {
        return Object.values(v).some(containsUnknowns);
    }
    return false;
}

/**
 * What the engine does with the results of a provider that does not accept secrets: a top-level
 * property whose input contained a secret becomes secret in the outputs.
 */
export function annotateSecrets(outs: PropertyMap, ins: PropertyMap): PropertyMap {
    const result: PropertyMap = { ...outs };
    for (const [k, inValue] of Object.entries(ins)) {
        const outValue = result[k];
        if (outValue === undefined) {
            continue;
        }
        if (containsSecrets(inValue) && !containsSecrets(outValue)) {
            result[k] = makeSecret(outValue);
        }
    }
    return result;
}

/** Marks the named top-level outputs secret (the `additionalSecretOutputs` resource option). */
export function applyAdditionalSecretOutputs(outs: PropertyMap, names: readonly string[]): PropertyMap {
    if (names.length === 0) {
        return outs;
    }
    const result: PropertyMap = { ...outs };
    for (const name of names) {
        const v = result[name];
        if (v !== undefined) {
            result[name] = makeSecret(v);
        }
    }
    return result;
}

/** Structural equality; secret wrappers count, so a value turning secret is a change. */
export function deepEqual(a: PropertyValue | undefined, b: PropertyValue | undefined): boolean {
    if (a === b) {
        return true;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
        return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
    }
    if (isObject(a) && isObject(b)) {
        const ka = Object.keys(a);
        const kb = Object.keys(b);
        return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
    }
    return false;
}

/** Top-level keys whose values differ between two property maps, sorted. */
export function changedKeys(olds: PropertyMap, news: PropertyMap): string[] {
    const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
    return [...keys].filter((k) => !deepEqual(olds[k], news[k])).sort();
}

/** Copy with secrets replaced by SECRET_MASK, for anything shown to a person or a log. */
export function maskSecrets(v: PropertyValue): PropertyValue {
    if (isSecret(v)) {
        return SECRET_MASK;
    }
    if (Array.isArray(v)) {
        return v.map(maskSecrets);
    }
    if (isObject(v)) {
        const out: PropertyMap = {};
        for (const [k, x] of Object.entries(v)) {
            out[k] = maskSecrets(x);
        }
        return out;
    }
    return v;
}

/** Drops `undefined` members so a value can go through google.protobuf.Struct.fromJavaScript. */
export function toWire(v: unknown): PropertyValue {
    if (v === undefined || v === null) {
        return null;
    }
    if (Array.isArray(v)) {
        return v.map((x) => (x === undefined ? null : toWire(x)));
    }
    if (typeof v === "object") {
        const out: PropertyMap = {};
        for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
            if (x !== undefined) {
                out[k] = toWire(x);
            }
        }
        return out;
    }
    if (typeof v === "boolean" || typeof v === "number" || typeof v === "string") {
        return v;
    }
    return String(v);
}

export function toWireMap(v: unknown): PropertyMap {
    const w = toWire(v);
    return isObject(w) ? w : {};
}

// The state file kept between runs, shaped after a local-backend checkpoint: one entry per resource
// with its urn, type, id, inputs, outputs and dependencies. The dynamic provider's serialized code stays
// inside inputs/outputs as `__provider`, as in Pulumi. Secret values are stored as
// `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "ciphertext": "v1:..."}`.
// Stack outputs are the outputs of the `pulumi:pulumi:Stack` resource.
import * as fs from "node:fs";
import * as path from "node:path";
import type { PropertyMap } from "./props";

export const STACK_TYPE = "pulumi:pulumi:Stack";

export interface StateResource {
    urn: string;
    type: string;
    /** true for resources managed by a provider, false for components and the stack. */
    custom: boolean;
    id?: string;
    parent?: string;
    inputs: PropertyMap;
    outputs: PropertyMap;
    dependencies: string[];
    propertyDependencies?: Record<string, string[]>;
    additionalSecretOutputs?: string[];
    retainOnDelete?: boolean;
    /** Read with `Resource.get`: not owned by the stack, never deleted through the provider. */
    external?: boolean;
    /** A replaced resource that still has to be deleted (create-before-delete replacement). */
    delete?: boolean;
    /** Reasons from a create/update that left the object partially initialized. */
    initErrors?: string[];
}

export interface StateFile {
    version: 1;
    project: string;
    stack: string;
    /** Passphrase secrets manager state; absent until the first run that writes state. */
    secretsProvider?: { type: "passphrase"; salt: string };
    /** When the file was last written (ISO time). */
    updated?: string;
    /** In dependency order: every resource comes after its parent and dependencies. */
    resources: StateResource[];
}

export function emptyState(project: string, stack: string): StateFile {
    return { version: 1, project, stack, resources: [] };
}

/** Reads the state file as stored (secrets still encrypted); an absent file is an empty state. */
export function readStateFile(statePath: string, project: string, stack: string): StateFile {
    let text: string;
    try {
        text = fs.readFileSync(statePath, "utf8");
    } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") {
            return emptyState(project, stack);
        }
        throw e;
    }
    const parsed = JSON.parse(text) as StateFile;
    if (parsed.version !== 1 || !Array.isArray(parsed.resources)) {
        throw new Error(`${statePath} is not a harness state file`);
    }
    return parsed;
}

/** Writes the state atomically (temp file + rename). */
export function writeStateFile(statePath: string, state: StateFile): void {
    fs.mkdirSync(path.dirname(statePath), { recursive: true });
    const tmp = `${statePath}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ ...state, updated: new Date().toISOString() }, null, 2) + "\n", { mode: 0o600 });
    fs.renameSync(tmp, statePath);
}

/**
 * Stable topological order: each resource after its parent and dependencies (when those are present);
 * otherwise the given order is kept.
 */
export function sortByDependencies(resources: StateResource[]): StateResource[] {
    const byUrn = new Map<string, StateResource[]>();
    for (const r of resources) {
        const list = byUrn.get(r.urn) ?? [];
        list.push(r);
        byUrn.set(r.urn, list);
    }
    const out: StateResource[] = [];
    const placed = new Set<StateResource>();
    const visiting = new Set<StateResource>();
    const visit = (r: StateResource): void => {
        if (placed.has(r) || visiting.has(r)) {
            return;
        }
        visiting.add(r);
        for (const dep of [...(r.parent ? [r.parent] : []), ...r.dependencies]) {
            for (const d of byUrn.get(dep) ?? []) {
                if (d !== r) {
                    visit(d);
                }
            }
        }
        visiting.delete(r);
        placed.add(r);
        out.push(r);
    };
    resources.forEach(visit);
    return out;
}

// The engine harness against a throw-away program: Pulumi's own language runtime and dynamic provider
// host, a file-backed JS dynamic provider (test/harness/fixture) whose journal.log records every
// provider call, and a state file per test. The program's resources come from spec.json, so each test
// changes the desired state without changing code.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalStack, SECRET_MASK, UNKNOWN, type RunResult, type StackOptions } from "./index";
import { SECRET_SIG, SIG_KEY } from "./props";
import type { StateResource } from "./state";

const REPO = path.resolve(__dirname, "../..");
const FIXTURE = path.join(__dirname, "fixture");
const TIMEOUT = 60_000;

interface Item {
    name: string;
    props: Record<string, unknown>;
    secret?: string[];
    additionalSecretOutputs?: string[];
    dependsOn?: string[];
    /** Take `label` from this resource's `serial` output. */
    labelFrom?: string;
    /** Read the object with this id (Resource.get) instead of managing one. */
    getId?: string;
}

const dirs: string[] = [];
afterAll(() => {
    for (const d of dirs) {
        fs.rmSync(d, { recursive: true, force: true });
    }
});

function canary(what: string): string {
    return `CANARY-${what}-${crypto.randomBytes(6).toString("hex")}`;
}

/** A fresh copy of the fixture program with its own store, state file and stack config. */
function fixture(items: Item[], extra: { hang?: boolean } = {}) {
    fs.mkdirSync(path.join(REPO, ".alertpipe"), { recursive: true });
    const dir = fs.mkdtempSync(path.join(REPO, ".alertpipe", "tmp-harness-"));
    dirs.push(dir);
    const programDir = path.join(dir, "program");
    fs.mkdirSync(programDir);
    for (const f of fs.readdirSync(FIXTURE)) {
        fs.copyFileSync(path.join(FIXTURE, f), path.join(programDir, f));
    }
    const storeDir = path.join(dir, "store");
    const token = canary("TOKEN");
    const opts: StackOptions = {
        programDir,
        stack: "test",
        statePath: path.join(dir, "state.json"),
        passphrase: "correct horse battery staple",
        config: { storeDir: { value: storeDir }, apiToken: { value: token, secret: true } },
        timeoutMs: TIMEOUT,
    };
    const fx = {
        dir,
        storeDir,
        token,
        opts,
        setItems(next: Item[], more: { hang?: boolean } = {}): void {
            fs.writeFileSync(path.join(programDir, "spec.json"), JSON.stringify({ items: next, ...more }));
        },
        stack(over: Partial<StackOptions> = {}): LocalStack {
            return new LocalStack({ ...opts, ...over });
        },
        /** Provider calls so far, e.g. "create alpha alpha-xyz". */
        journal(): string[] {
            const file = path.join(storeDir, "journal.log");
            return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : [];
        },
        /** The `label` of every Check the provider received. */
        checks(): string[] {
            const file = path.join(storeDir, "checks.log");
            return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : [];
        },
        stateText(): string {
            return fs.readFileSync(opts.statePath, "utf8");
        },
        resource(name: string): StateResource | undefined {
            return fx.stack().readState().resources.find((r) => r.urn.endsWith(`::${name}`) && !r.delete);
        },
        objectFile(id: string): string {
            return path.join(storeDir, `${id}.json`);
        },
    };
    fx.setItems(items, extra);
    return fx;
}

function expectOk(r: RunResult): void {
    expect(r.ok, `${r.error}\n${r.log}`).toBe(true);
}

function opsByName(r: RunResult): Record<string, string> {
    return Object.fromEntries(r.steps.map((s) => [s.name, s.op]));
}

const alpha: Item = { name: "a", props: { label: "alpha", kind: "k1", size: 1 } };
const beta: Item = { name: "b", props: { label: "beta", kind: "k1", size: 2 }, dependsOn: ["a"] };

describe.concurrent("LocalStack", () => {
    it("up creates every resource through the dynamic provider host", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha, beta]);
        const r = await fx.stack().up();
        expectOk(r);
        expect(opsByName(r)).toEqual({ "harness-test-test": "create", a: "create", b: "create" });
        expect(fx.journal().map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual(["create alpha", "create beta"]);
        const a = fx.resource("a");
        expect(a?.id).toBeTruthy();
        expect(a?.outputs["serial"]).toBe(a?.id);
        expect(typeof a?.inputs["__provider"]).toBe("string");
        expect(fx.resource("b")?.dependencies).toEqual([a?.urn]);
        expect(r.outputs["aSerial"]).toBe(a?.id);
        expect(r.outputs["aTagged"]).toBe(`tag-${a?.id}`);
    });

    it("a second up of an unchanged program is all same and calls no Create or Update", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha, beta]);
        expectOk(await fx.stack().up());
        const before = fx.journal();
        const r = await fx.stack().up();
        expectOk(r);
        expect(r.steps.map((s) => s.op)).toEqual(["same", "same", "same"]);
        expect(fx.journal()).toEqual(before);
    });

    it("a changed input updates the resource in place", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha]);
        expectOk(await fx.stack().up());
        const id = fx.resource("a")?.id;
        fx.setItems([{ ...alpha, props: { ...alpha.props, label: "alpha2" } }]);
        const r = await fx.stack().up();
        expectOk(r);
        expect(r.steps.find((s) => s.name === "a")).toMatchObject({ op: "update", diffs: ["label"] });
        expect(fx.journal().at(-1)).toBe(`update alpha2 ${id}`);
        expect(fx.resource("a")).toMatchObject({ id, outputs: { label: "alpha2" } });
    });

    it("a change the provider marks as replace creates the replacement before deleting the old object", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha]);
        expectOk(await fx.stack().up());
        const oldId = fx.resource("a")?.id;
        fx.setItems([{ ...alpha, props: { ...alpha.props, kind: "k2" } }]);
        const r = await fx.stack().up();
        expectOk(r);
        expect(r.steps.find((s) => s.name === "a")).toMatchObject({ op: "replace", replaceKeys: ["kind"] });
        const newId = fx.resource("a")?.id;
        expect(newId).not.toBe(oldId);
        expect(fx.journal().slice(-2)).toEqual([`create alpha ${newId}`, `delete alpha ${oldId}`]);
        expect(fx.stack().readState().resources.filter((x) => x.urn.endsWith("::a"))).toHaveLength(1);
    });

    it("a replace the provider marks deleteBeforeReplace deletes the old object first", { timeout: TIMEOUT }, async () => {
        const fx = fixture([{ ...alpha, props: { ...alpha.props, dbr: true } }]);
        expectOk(await fx.stack().up());
        const oldId = fx.resource("a")?.id;
        fx.setItems([{ ...alpha, props: { ...alpha.props, dbr: true, kind: "k2" } }]);
        const r = await fx.stack().up();
        expectOk(r);
        const newId = fx.resource("a")?.id;
        expect(fx.journal().slice(-2)).toEqual([`delete alpha ${oldId}`, `create alpha ${newId}`]);
    });

    it("preview checks and diffs but sends no Create, and the program sees unknown outputs", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha, beta]);
        const r = await fx.stack().preview();
        expectOk(r);
        expect(opsByName(r)).toEqual({ "harness-test-test": "create", a: "create", b: "create" });
        expect(fx.journal()).toEqual([]);
        expect(r.outputs["aSerial"]).toBe(UNKNOWN);
        expect(r.outputs["aTagged"]).toBe(UNKNOWN);
        expect(r.log).not.toContain("apply ran");
        expect(fs.existsSync(fx.opts.statePath)).toBe(false);
    });

    it("preview sends an input that depends on an unknown output to the provider as the unknown sentinel", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha, { name: "b", props: { kind: "k1" }, labelFrom: "a" }]);
        const r = await fx.stack().preview();
        expectOk(r);
        expect(fx.checks()).toEqual(["check alpha", `check ${UNKNOWN}`]);
        expect(r.outputs["bTagged"]).toBe(UNKNOWN);
        // The same program in an up: the value is known by the time b is checked.
        expectOk(await fx.stack().up());
        expect(fx.checks().at(-1)).toBe(`check ${fx.resource("a")?.id}`);
    });

    it("preview of a change plans the update without calling Update and leaves the state alone", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha]);
        expectOk(await fx.stack().up());
        const state = fx.stateText();
        const journal = fx.journal();
        fx.setItems([{ ...alpha, props: { ...alpha.props, label: "alpha2" } }]);
        const r = await fx.stack().preview();
        expectOk(r);
        expect(r.steps.find((s) => s.name === "a")).toMatchObject({ op: "update", diffs: ["label"] });
        // Planned outputs are the inputs: what the provider would compute is unknown until the update.
        expect(r.outputs["aSerial"]).toBe(UNKNOWN);
        expect(fx.journal()).toEqual(journal);
        expect(fx.stateText()).toBe(state);
    });

    it("refresh picks up an out-of-band change to an object", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha]);
        expectOk(await fx.stack().up());
        const id = fx.resource("a")?.id ?? "";
        const file = fx.objectFile(id);
        fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, "utf8")), label: "changed-elsewhere" }));
        const r = await fx.stack().refresh();
        expectOk(r);
        expect(r.steps).toEqual([expect.objectContaining({ name: "a", op: "refresh-update", diffs: ["label"] })]);
        expect(fx.resource("a")?.outputs["label"]).toBe("changed-elsewhere");
    });

    it("refresh drops an object deleted out of band from the state", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha, { ...beta, dependsOn: [] }]);
        expectOk(await fx.stack().up());
        fs.rmSync(fx.objectFile(fx.resource("a")?.id ?? ""));
        const r = await fx.stack().refresh();
        expectOk(r);
        expect(opsByName(r)).toEqual({ a: "refresh-delete", b: "same" });
        expect(fx.resource("a")).toBeUndefined();
        expect(fx.resource("b")).toBeDefined();
    });

    it("up deletes a resource that is no longer in the program", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha, beta]);
        expectOk(await fx.stack().up());
        const bId = fx.resource("b")?.id;
        fx.setItems([alpha]);
        const r = await fx.stack().up();
        expectOk(r);
        expect(opsByName(r)).toMatchObject({ a: "same", b: "delete" });
        expect(fx.journal().at(-1)).toBe(`delete beta ${bId}`);
        expect(fx.resource("b")).toBeUndefined();
    });

    it("destroy deletes everything, dependents before their dependencies", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha, beta]);
        expectOk(await fx.stack().up());
        const [aId, bId] = [fx.resource("a")?.id, fx.resource("b")?.id];
        const r = await fx.stack().destroy();
        expectOk(r);
        expect(r.steps.map((s) => `${s.op} ${s.name}`)).toEqual(["delete b", "delete a", "delete harness-test-test"]);
        expect(fx.journal().slice(-2)).toEqual([`delete beta ${bId}`, `delete alpha ${aId}`]);
        expect(fx.stack().readState().resources).toEqual([]);
        expect(fs.readdirSync(fx.storeDir).filter((f) => f.endsWith(".json"))).toEqual([]);
    });

    it("Resource.get reads an object through the provider, and the stack never deletes it", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha]);
        expectOk(await fx.stack().up());
        const id = fx.resource("a")?.id ?? "";
        fx.setItems([alpha, { name: "g", props: {}, getId: id }]);
        const r = await fx.stack().up();
        expectOk(r);
        expect(opsByName(r)).toMatchObject({ a: "same", g: "read" });
        expect(fx.resource("g")).toMatchObject({ id, external: true, outputs: { label: "alpha" } });
        expect(r.outputs["gSerial"]).toBe(id);
        expectOk(await fx.stack().destroy());
        expect(fx.journal().filter((l) => l.startsWith("delete"))).toEqual([`delete alpha ${id}`]);
    });

    it("a check failure fails the run naming the property, and nothing is created for it", { timeout: TIMEOUT }, async () => {
        const fx = fixture([{ ...alpha, props: { ...alpha.props, size: 1000 } }]);
        const r = await fx.stack().up();
        expect(r.ok).toBe(false);
        expect(r.error).toMatch(/property size value 1000 has a problem: size must be at most 100/);
        expect(r.steps.find((s) => s.name === "a")?.error).toMatch(/size/);
        expect(fx.journal()).toEqual([]);
        expect(fx.resource("a")).toBeUndefined();
    });

    it("a create that fails to initialize keeps the partial object in state and fails the run", { timeout: TIMEOUT }, async () => {
        const fx = fixture([{ ...alpha, props: { ...alpha.props, failInit: true } }]);
        const r = await fx.stack().up();
        expect(r.ok).toBe(false);
        expect(r.error).toMatch(/did not become ready/);
        const a = fx.resource("a");
        expect(a?.id).toMatch(/^alpha-/);
        expect(a?.initErrors).toEqual(["still booting"]);
        expect(a?.outputs["serial"]).toBe(a?.id);
    });

    it("the provider is configured with the stack config, secret values as plain strings", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha]);
        const r = await fx.stack().up();
        expectOk(r);
        // storeDir came through Configure (the journal is where it says); so did the secret token, unwrapped.
        expect(fx.journal()).toHaveLength(1);
        expect(fx.resource("a")?.outputs["tokenLength"]).toBe(fx.token.length);
    });

    it("secret inputs, additionalSecretOutputs and secret stack outputs are encrypted in the state file and never printed", { timeout: TIMEOUT }, async () => {
        const password = canary("PASSWORD");
        const seed = crypto.randomBytes(6).toString("hex");
        const fx = fixture([{ ...alpha, props: { ...alpha.props, password, seed }, secret: ["password"], additionalSecretOutputs: ["derived"] }]);
        const r = await fx.stack().up();
        expectOk(r);
        const derived = `DERIVED-${seed}`;
        const text = fx.stateText();
        for (const plain of [password, derived, fx.token]) {
            expect(text).not.toContain(plain);
            expect(JSON.stringify(r)).not.toContain(plain);
        }
        const a = fx.resource("a");
        const sealed = { [SIG_KEY]: SECRET_SIG, ciphertext: expect.stringMatching(/^v1:/) };
        expect(a?.inputs["password"]).toEqual(sealed);
        expect(a?.outputs["password"]).toEqual(sealed);
        expect(a?.outputs["derived"]).toEqual(sealed);
        expect(a?.outputs["seed"]).toBe(seed);
        expect(r.outputs["token"]).toBe(SECRET_MASK);
        expect(await fx.stack().stackOutputs(true)).toMatchObject({ token: fx.token });
        // Secretness survives a second run that reads the state back.
        expectOk(await fx.stack().up());
        expect(fx.stateText()).not.toContain(password);
    });

    it("a wrong passphrase fails the run without touching the state", { timeout: TIMEOUT }, async () => {
        const fx = fixture([{ ...alpha, props: { ...alpha.props, password: "x" }, secret: ["password"] }]);
        expectOk(await fx.stack().up());
        const state = fx.stateText();
        const r = await fx.stack({ passphrase: "wrong" }).up();
        expect(r.ok).toBe(false);
        expect(r.error).toMatch(/incorrect passphrase/);
        expect(fx.stateText()).toBe(state);
    });

    it("a program that never exits times out instead of hanging, and the run fails", { timeout: TIMEOUT }, async () => {
        const fx = fixture([alpha], { hang: true });
        const started = Date.now();
        const r = await fx.stack({ timeoutMs: 6_000 }).up();
        expect(r.ok).toBe(false);
        expect(r.error).toMatch(/timed out after 6000 ms/);
        expect(Date.now() - started).toBeLessThan(20_000);
    });

    it("runs a TypeScript program with the runtime's own TypeScript support", { timeout: TIMEOUT }, async () => {
        const fx = fixture([]);
        const programDir = fx.opts.programDir;
        for (const f of fs.readdirSync(programDir)) {
            fs.rmSync(path.join(programDir, f));
        }
        fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: harness-ts\nruntime: nodejs\n");
        fs.writeFileSync(path.join(programDir, "package.json"), JSON.stringify({ name: "harness-ts", private: true }));
        fs.writeFileSync(
            path.join(programDir, "tsconfig.json"),
            JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "nodenext", moduleResolution: "nodenext", types: ["node"] } }),
        );
        fs.writeFileSync(
            path.join(programDir, "index.ts"),
            [
                `import * as pulumi from "@pulumi/pulumi";`,
                `const provider: pulumi.dynamic.ResourceProvider = {`,
                `    async create(inputs: { n: number }) {`,
                `        return { id: \`n-\${inputs.n}\`, outs: { n: inputs.n, doubled: inputs.n * 2 } };`,
                `    },`,
                `};`,
                `class Num extends pulumi.dynamic.Resource {`,
                `    declare readonly doubled: pulumi.Output<number>;`,
                `    constructor(name: string, n: number) {`,
                `        super(provider, name, { n, doubled: undefined }, {});`,
                `    }`,
                `}`,
                `export const doubled = new Num("num", 21).doubled;`,
                ``,
            ].join("\n"),
        );
        const r = await fx.stack().up();
        expectOk(r);
        expect(r.outputs).toEqual({ doubled: 42 });
    });
});

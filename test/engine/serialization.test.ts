// The provider object Pulumi stores in every resource's state, as it is when a user installs the
// packed package into their own program.

import { execFileSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { installPacked, repoRoot, workDir } from "../../scripts/packedPackage";

const CANARY_SECRET = "canary-key-secret-5d1f0b";
const CANARY_TOKEN = "canary-token-0e77a2";
const TYPES = {
  PipeSettings: "pulumi-nodejs:dynamic/alertpipe:PipeSettings",
  Alert: "pulumi-nodejs:dynamic/alertpipe:Alert",
  ApiKey: "pulumi-nodejs:dynamic/alertpipe:ApiKey",
} as const;

const VALID_INPUTS: Record<keyof typeof TYPES, Record<string, unknown>> = {
  PipeSettings: {
    organizationId: "0f8fad5b-d9cb-469f-a165-70867728950e",
    serviceId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    pipeId: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed",
    dbMaxThreads: 8,
  },
  Alert: {
    threshold: 5,
    interval: "5m",
    source: "search",
    thresholdType: "above",
    channel: { type: "webhook", webhookId: "hook-1" },
  },
  ApiKey: { organizationId: "0f8fad5b-d9cb-469f-a165-70867728950e", roles: ["developer"] },
};

const INVALID: Record<keyof typeof TYPES, [string, unknown]> = {
  PipeSettings: ["dbMaxThreads", 65],
  Alert: ["interval", "5 minutes"],
  ApiKey: ["roles", []],
};

let programDir: string;
let providers: Record<string, string>;

beforeAll(() => {
  programDir = workDir(`serialization-${process.pid}`);
  installPacked(programDir);
  for (const f of ["serializeProviders.js", "checkSerializedProvider.js"])
    copyFileSync(join(__dirname, "fixtures", f), join(programDir, f));
  const out = execFileSync(process.execPath, ["serializeProviders.js"], {
    cwd: programDir,
    encoding: "utf8",
    env: {
      ...process.env,
      ALERTPIPE_CLOUD_KEY_SECRET: CANARY_SECRET,
      ALERTPIPE_ALERTING_TOKEN: CANARY_TOKEN,
      PULUMI_CONFIG: JSON.stringify({
        "alertpipe:cloudKeySecret": CANARY_SECRET,
        "alertpipe:alertingToken": CANARY_TOKEN,
      }),
    },
  });
  providers = JSON.parse(out) as Record<string, string>;
});

function checkInProgram(text: string, news: Record<string, unknown>): Array<{ property: string; reason: string }> {
  const out = execFileSync(process.execPath, ["checkSerializedProvider.js"], {
    cwd: programDir,
    encoding: "utf8",
    input: JSON.stringify([text, news]),
    // A configured stack: check reports missing connection settings.
    env: {
      ...process.env,
      ALERTPIPE_ALERTING_URL: "https://alerts.example.test",
      ALERTPIPE_ALERTING_TOKEN: "tok",
      ALERTPIPE_CLOUD_URL: "https://cloud.example.test",
      ALERTPIPE_CLOUD_KEY_ID: "id",
      ALERTPIPE_CLOUD_KEY_SECRET: "secret",
    },
  });
  return JSON.parse(out) as Array<{ property: string; reason: string }>;
}

describe.each(Object.keys(TYPES) as Array<keyof typeof TYPES>)("the serialized %s provider", (kind) => {
  const text = (): string => {
    const t = providers[TYPES[kind]];
    if (typeof t !== "string") throw new Error(`no __provider captured for ${kind}`);
    return t;
  };

  it("is a require of the installed package, a few hundred bytes", () => {
    console.log(`${kind} __provider: ${Buffer.byteLength(text())} bytes`);
    expect(text()).toContain(`require("pulumi-alertpipe/dist/provider/`);
    expect(Buffer.byteLength(text())).toBeLessThan(2048);
  });

  it("holds no credential and no absolute path of this machine", () => {
    for (const leak of [CANARY_SECRET, CANARY_TOKEN, repoRoot(), programDir, "/tmp/", "/root/"])
      expect(text()).not.toContain(leak);
  });

  it("loads as the host loads it and accepts valid inputs", () => {
    expect(checkInProgram(text(), VALID_INPUTS[kind])).toEqual([]);
  });

  it("loads as the host loads it and refuses a bad value, naming the property", () => {
    const [property, value] = INVALID[kind];
    const failures = checkInProgram(text(), { ...VALID_INPUTS[kind], [property]: value });
    expect(failures.map((f) => f.property)).toContain(property);
  });
});

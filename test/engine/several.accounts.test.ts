// Several accounts in one program (docs/guides/several-accounts.md): the guide's YAML program, two
// explicit `pulumi:providers:alertpipe` instances with their own URLs and credentials, run by the CLI
// against two emulators standing for the two accounts, each accepting only its own credentials, and no
// `alertpipe:*` config at all (a resource falling to the default provider would fail). Each resource's
// requests go to its own provider's service; destroy removes everything from both.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { changes, emulator, requestLog } from "../support/engine";
import type { CliStack } from "../support/cliStack";
import { documentedYamlProgram, yamlStack } from "../support/yamlStack";

const GUIDE = "docs/guides/several-accounts.md";

/** One account's settings as the guide's program reads them from the stack config. */
function accountConfig(prefix: string, emu: RunningEmulator): Record<string, { value: string; secret?: boolean }> {
  return {
    [`alertpipe-accounts:${prefix}Url`]: { value: emu.url },
    [`alertpipe-accounts:${prefix}Token`]: { value: emu.token, secret: true },
    [`alertpipe-accounts:${prefix}KeyId`]: { value: emu.keyId },
    [`alertpipe-accounts:${prefix}KeySecret`]: { value: emu.keySecret, secret: true },
  };
}

describe("two accounts through two explicit providers", () => {
  let staging: RunningEmulator;
  let production: RunningEmulator;
  let stack: CliStack;

  beforeAll(async () => {
    const noLimits = { rateLimits: { cloud: false, alerting: false } } as const;
    staging = await emulator({
      ...noLimits,
      token: "staging-token",
      keyId: "STAGINGKEYID",
      keySecret: "staging-secret",
    });
    production = await emulator({
      ...noLimits,
      token: "production-token",
      keyId: "PRODUCTIONKEYID",
      keySecret: "production-secret",
    });
    const program = documentedYamlProgram(GUIDE, "alertpipe-accounts");
    ({ stack } = await yamlStack(staging, program, {
      defaultProvider: false,
      config: { ...accountConfig("staging", staging), ...accountConfig("production", production) },
    }));
  }, 900_000);

  it("creates each resource on its own provider's service", async () => {
    const up = await stack.runLogged("up", ["up", "--yes"]);
    expect(up.code, up.output).toBe(0);
    expect(changes(up)).toEqual(["create productionDeployer", "create stagingDeployer", "create stagingLag"]);
    expect(Object.values(staging.snapshot().keys).map((k) => k.name)).toEqual(["staging-deployer"]);
    expect(Object.values(production.snapshot().keys).map((k) => k.name)).toEqual(["production-deployer"]);
    expect(Object.keys(staging.snapshot().alerts)).toHaveLength(1);
    expect(production.snapshot().alerts).toEqual({});
  });

  it("sends no write of one account's resource to the other's service", () => {
    const writes = (emu: RunningEmulator) => requestLog(emu, (m) => m !== "GET").map((r) => r.split(" ")[0]);
    expect(writes(staging).sort()).toEqual(["POST", "POST"]);
    expect(writes(production)).toEqual(["POST"]);
  });

  it("destroys everything on both services", async () => {
    const down = await stack.runLogged("destroy", ["destroy", "--yes"]);
    expect(down.code, down.output).toBe(0);
    expect(staging.snapshot().keys).toEqual({});
    expect(staging.snapshot().alerts).toEqual({});
    expect(production.snapshot().keys).toEqual({});
  });
});

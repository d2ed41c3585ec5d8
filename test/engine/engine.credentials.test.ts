// A wrong key or token fails the first preview of a new stack, on both doors: a preview of creates
// sends no write, so each credential's check (one read, provider/http/credentials.ts) is what finds
// it, naming the configuration keys and never the value given.

import { describe, expect, it } from "vitest";
import { CREDENTIAL_READS, credentialChecks, emulator, newStack, requestLog, told } from "../support/engine";
import { documentedYamlProgram, yamlStack } from "../support/yamlStack";

const WRONG = "wrong-secret-canary-5d0e";

describe("a wrong credential on a new stack", () => {
  it("fails preview through the dynamic classes, naming cloudKeyId and cloudKeySecret, after one read", async () => {
    const { emu, stack } = await newStack("wrong-cloud-key", undefined, {
      config: { "alertpipe:cloudKeySecret": { value: WRONG, secret: true } },
    });
    const preview = await stack.preview();
    expect(preview.ok).toBe(false);
    expect(told(preview)).toContain("[CREDENTIAL_REFUSED]");
    expect(told(preview)).toContain("alertpipe:cloudKeyId");
    expect(told(preview)).toContain("alertpipe:cloudKeySecret");
    expect(told(preview)).not.toContain(WRONG);
    expect(requestLog(emu, (m) => m !== "GET")).toEqual([]);
    expect(credentialChecks(emu).filter((r) => r === CREDENTIAL_READS.cloud)).toHaveLength(1);
  });

  it("fails preview through the dynamic classes on a wrong alerting token, naming alertpipe:alertingToken", async () => {
    const { emu, stack } = await newStack("wrong-token", undefined, {
      config: { "alertpipe:alertingToken": { value: WRONG, secret: true } },
    });
    const preview = await stack.preview();
    expect(preview.ok).toBe(false);
    expect(told(preview)).toMatch(/\[CREDENTIAL_REFUSED\][^\n]*alertpipe:alertingToken/);
    expect(told(preview)).not.toContain(WRONG);
    expect(requestLog(emu, (m) => m !== "GET")).toEqual([]);
  });

  it("fails preview through the plugin (YAML), naming cloudKeyId and cloudKeySecret, sending no write", async () => {
    const emu = await emulator();
    const { stack } = await yamlStack(emu, documentedYamlProgram(), {
      config: { "alertpipe:cloudKeySecret": { value: WRONG, secret: true } },
    });
    const preview = await stack.run(["preview"]);
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(/has a problem: \[CREDENTIAL_REFUSED\][^\n]*alertpipe:cloudKeyId/);
    expect(preview.output).not.toContain(WRONG);
    expect(requestLog(emu, (m) => m !== "GET")).toEqual([]);
    expect(credentialChecks(emu).filter((r) => r === CREDENTIAL_READS.cloud)).toHaveLength(1);
  });
});

// The lookups as a TypeScript program of the dynamic classes calls them: plain async functions of
// the installed package, running in the program's own process and reading the stack's `alertpipe:*`
// config there (no ALERTPIPE_* variable is set for it), against an emulator holding an estate made by hand.

import { beforeAll, describe, expect, it } from "vitest";
import { sharedStack } from "../support/engine";
import { TEAM_SECRET, seedEstate, seedTeamObjects, type TeamObjects } from "../support/exportRuns";
import { ORG_ID } from "../support/fixtures";
import type { RunResult } from "../../scripts/engine/stack";

describe("the TypeScript lookups in a program of the dynamic classes", () => {
  const t = sharedStack("lookups-ts", async ({ getApiKey, getAlerts, getWebhook, getSavedSearch }) => {
    const key = await getApiKey({ organizationId: ORG_ID, name: "deployer" });
    const highCpu = await getAlerts({ name: "High CPU" });
    const ops = await getWebhook({ name: "ops" });
    const errors = await getSavedSearch({ name: "errors" });
    return { key, highCpuThresholds: highCpu.alerts.map((a) => a.threshold).sort(), ops, errors };
  });
  let team: TeamObjects;
  let up: RunResult;

  beforeAll(async () => {
    // The program runs in this process: with no connection variable here, only the stack's config can serve it.
    expect(Object.keys(process.env).filter((k) => /^ALERTPIPE_(ALERTING|CLOUD)_/.test(k))).toEqual([]);
    await seedEstate(t.emu);
    team = await seedTeamObjects(t.emu);
    up = await t.stack.up();
  }, 600_000);

  it("finds the key by its name, with no secret, from the stack's config", () => {
    expect(up.ok, up.log).toBe(true);
    const key = up.outputs.key?.value as Record<string, unknown>;
    expect(key).toMatchObject({ organizationId: ORG_ID, name: "deployer", roles: ["developer"] });
    expect(Object.keys(key)).not.toContain("keySecret");
  });

  it("finds the alerts of a name", () => {
    expect(up.outputs.highCpuThresholds?.value).toEqual([90, 95]);
  });

  it("finds the webhook and the saved search by name, no header or parameter in the webhook", () => {
    expect(up.outputs.ops?.value).toMatchObject({ id: team.ops, name: "ops", service: "generic" });
    expect(JSON.stringify(up.outputs.ops?.value)).not.toContain(TEAM_SECRET);
    expect(up.outputs.errors?.value).toMatchObject({ id: team.errors, name: "errors", where: "level:error" });
  });
});

// A saved search the engine replaces (replaceOnChanges) while an alert outside the stack watches it,
// on the real engine through the native plugin (Pulumi YAML; the dynamic host sends the engine no
// detailed diff, so replaceOnChanges never replaces a dynamic resource): preview warns, naming the
// alert the service would delete with the search, and up refuses to delete the old search.

import { describe, expect, it } from "vitest";
import { SEEDED_SOURCES } from "../../emulator";
import { byHand, emulator as startEmulator } from "../support/engine";
import { yamlProgram, yamlStack } from "../support/yamlStack";

const SEARCH = { name: "errors", sourceId: SEEDED_SOURCES[0].id, where: "level:error" };
const OUTSIDE = {
  name: "errors outside",
  source: "search",
  threshold: 1,
  thresholdType: "above",
  interval: "5m",
  channel: { type: "webhook", webhookId: "0123456789abcdef01234567" },
};

const program = (where: string) =>
  yamlProgram({
    resources: {
      errors: {
        type: "alertpipe:index:SavedSearch",
        properties: { ...SEARCH, where },
        options: { replaceOnChanges: ["where"] },
      },
    },
  });

describe("a watched saved search replaced by replaceOnChanges, through the plugin", () => {
  it("is warned about in preview, naming the alert that watches it, and its delete is refused in up", async () => {
    const emu = await startEmulator({ rateLimits: { cloud: false, alerting: false } });
    const yaml = await yamlStack(emu, program(SEARCH.where));
    expect((await yaml.stack.runLogged("up", ["up", "--yes"])).code).toBe(0);
    const [searchId = ""] = Object.keys(emu.snapshot().savedSearches ?? {});
    const made = (await byHand(emu, "POST", "/api/v2/alerts", OUTSIDE)) as { data: { id: string } };
    expect(emu.watchSearch(made.data.id, searchId)).toBe(true);

    yaml.write(program("level:fatal"));
    const preview = await yaml.stack.runLogged("preview", ["preview"]);
    const previewTold = `${preview.output}\n${preview.diagnostics.join("\n")}`;
    expect(preview.steps.map((s) => s.op)).toContain("replace");
    expect(previewTold).toContain(`the saved search ${searchId} is to be replaced`);
    expect(previewTold).toContain(`"errors outside" (${made.data.id})`);

    const up = await yaml.stack.runLogged("up", ["up", "--yes"]);
    expect(up.code).not.toBe(0);
    expect(`${up.output}\n${up.diagnostics.join("\n")}`).toContain("STILL_REFERENCED");
    expect(emu.snapshot().alerts[made.data.id]).toBeDefined();
  });
});

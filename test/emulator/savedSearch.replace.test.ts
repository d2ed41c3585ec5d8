// A saved search the engine is about to replace, which the service would delete with the alerts that
// watch it: the engine checks a replacement's arguments again without the stored ones after its
// diff, and that check says, in preview, which alerts watch the old search. Through the dynamic
// door's methods in the engine's order, against the emulator.

import { describe, expect, it } from "vitest";
import { SEEDED_SOURCES } from "../../emulator";
import * as search from "../../provider/savedSearch/provider";
import * as alert from "../../provider/alert/provider";
import { emulatorPerTest } from "../support/emulatorPerTest";
import { searchAlert } from "../support/fixtures";

const errors = { name: "errors", sourceId: SEEDED_SOURCES[0].id, where: "level:error" };

describe("SavedSearch replaced", () => {
  const service = emulatorPerTest({ service: "alerting", helper: "saved search replace test" });

  /** A search watched by an alert made outside the stack; answers the search's id and outputs, and the alert's id. */
  async function watched() {
    const made = await search.create(errors);
    const watcher = await alert.create({ ...searchAlert, name: "errors up" });
    service.emulator.watchSearch(watcher.id, made.id);
    return { ...made, alertId: watcher.id };
  }

  it("names the alerts that watch it when the engine checks its replacement after the diff", async () => {
    const { id, outs, alertId } = await watched();
    await search.check(errors, errors);
    await search.diff(id, outs, errors);
    await search.check({}, errors);
    expect(service.notices.join("\n")).toContain(`the saved search ${id} is to be replaced`);
    expect(service.notices.join("\n")).toContain(`"errors up" (${alertId})`);
  });

  it("says nothing on the check of a new search, which no diff came before", async () => {
    await watched();
    await search.check({}, { ...errors, name: "new" });
    expect(service.notices).toEqual([]);
  });

  it("says nothing on the check of an update, which has olds", async () => {
    const { id, outs } = await watched();
    await search.diff(id, outs, errors);
    await search.check(errors, errors);
    expect(service.notices).toEqual([]);
  });

  it("says nothing when no alert watches the search being replaced", async () => {
    const { id, outs } = await search.create(errors);
    await search.diff(id, outs, errors);
    await search.check({}, errors);
    expect(service.notices).toEqual([]);
  });

  it("still passes the check: the warning refuses nothing", async () => {
    const { id, outs } = await watched();
    await search.diff(id, outs, errors);
    expect((await search.check({}, errors)).failures).toEqual([]);
  });
});

// The SDKs committed under sdk/ are what Pulumi's code generators make of the schema the plugin
// serves today: regenerating them (`npm run sdk`, into a temporary folder here) changes no byte,
// adds no file and leaves none behind. A change to the schema without `npm run sdk` fails here.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder } from "../../scripts/release";
import { generatePluginSdks, sdkDir } from "../../scripts/sdk";

describe("the committed SDKs", () => {
  let fresh: string;

  beforeAll(async () => {
    fresh = mkdtempSync(join(tmpdir(), "alertpipe-sdk-"));
    const t0 = Date.now();
    await generatePluginSdks(fresh, () => undefined);
    console.log(`SDKs regenerated in ${Date.now() - t0} ms`);
  }, 600_000);

  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it("are the same files as a regeneration from the plugin's schema", () => {
    expect(filesUnder(sdkDir())).toEqual(filesUnder(fresh));
  });

  it("hold the same bytes, file by file, as that regeneration", () => {
    const differing = filesUnder(fresh).filter(
      (file) => !readFileSync(join(sdkDir(), file)).equals(readFileSync(join(fresh, file))),
    );
    expect(differing).toEqual([]);
  });
});

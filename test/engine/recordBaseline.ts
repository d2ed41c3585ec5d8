// Records a release's upgrade baselines (issue 25): `npm run baseline:record` packs the tree (or takes
// the tarball ALERTPIPE_RECORD_TARBALL names), installs it as a user's install, runs each door's program
// through the real engine against an emulator keeping a data file, and writes what the `up` left into
// test/engine/recorded/<version>/<door>/ (see test/support/recordings.ts). A release without programs
// of its own starts from the newest recording's. Not a test: vitest runs it (project "record", which
// only that npm script turns on) for the engine helpers the tests use.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pulumiCli } from "../../scripts/engine/pulumiCli";
import { installPacked, packPackage, workDir } from "../../scripts/packedPackage";
import { afterFile, changes, emulator, succeeded } from "../support/engine";
import {
  BASELINE_PROJECT,
  BASELINE_STACK,
  byVersion,
  DOORS,
  FILES,
  openDoorStack,
  PROGRAM_FILE,
  RECORDED_DIR,
  recordings,
  type Door,
  type RecordingFacts,
} from "../support/recordings";

const tarball = process.env.ALERTPIPE_RECORD_TARBALL ?? packPackage();
const version = (
  JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as {
    version: string;
  }
).version;

/** The recording's folder, holding its program: its own, or a copy of the newest older recording's. */
function programFolder(door: Door): string {
  const dir = join(RECORDED_DIR, version, door);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, PROGRAM_FILE[door]))) {
    const older = recordings().filter((r) => r.facts.door === door && byVersion(r.facts.version, version) < 0);
    const newest = older.at(-1);
    if (newest === undefined) throw new Error(`no ${PROGRAM_FILE[door]} in ${dir}, and no older recording to copy`);
    copyFileSync(join(newest.dir, PROGRAM_FILE[door]), join(dir, PROGRAM_FILE[door]));
  }
  return dir;
}

describe(`recording the upgrade baselines of pulumi-alertpipe ${version}`, () => {
  const packageDir = workDir("baseline", version);
  installPacked(packageDir, tarball);
  const packageSha256 = createHash("sha256").update(readFileSync(tarball)).digest("hex");

  for (const door of DOORS) {
    it(`records the ${door} door's program and what its up left`, async () => {
      const dir = programFolder(door);
      const scratch = mkdtempSync(join(tmpdir(), "alertpipe-record-"));
      afterFile(() => rmSync(scratch, { recursive: true, force: true }));
      const dataFile = join(scratch, FILES.emulator);
      const emu = await emulator({ dataFile, rateLimits: { cloud: false, alerting: false } });
      const project =
        door === "yaml"
          ? (/^name: (\S+)$/m.exec(readFileSync(join(dir, PROGRAM_FILE.yaml), "utf8"))?.[1] ?? "")
          : BASELINE_PROJECT;
      const facts: RecordingFacts = {
        version,
        door,
        project,
        stack: BASELINE_STACK,
        passphrase: `alertpipe-baseline-${version}`,
        emulatorUrl: emu.url,
        packageSha256,
        cli: (await pulumiCli()).version,
      };
      const stack = await openDoorStack(door, emu, { programFolder: dir, packageDir, ...facts });
      const up = succeeded(await stack.run("up"));
      expect(changes(up).every((c) => c.startsWith("create "))).toBe(true);
      writeFileSync(join(dir, FILES.state), await stack.exportState());
      copyFileSync(stack.configFile, join(dir, FILES.config));
      copyFileSync(dataFile, join(dir, FILES.emulator));
      writeFileSync(join(dir, FILES.facts), `${JSON.stringify(facts, null, 2)}\n`);
      console.log(`recorded ${version}/${door}: ${changes(up).join(", ")}`);
    }, 600_000);
  }
});

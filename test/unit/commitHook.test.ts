// The commit-msg hook that `npm ci` enables (core.hooksPath): a subject of at most 72
// characters, then a blank line before the body.

import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const hook = resolve(__dirname, "..", "..", ".githooks", "commit-msg");

function verdict(message: string): { ok: boolean; said: string } {
  const file = join(mkdtempSync(join(tmpdir(), "commit-msg-")), "MSG");
  writeFileSync(file, message);
  try {
    execFileSync(process.execPath, [hook, file], { stdio: ["ignore", "pipe", "pipe"] });
    return { ok: true, said: "" };
  } catch (error) {
    return { ok: false, said: String((error as { stderr?: Buffer }).stderr ?? "") };
  }
}

describe("commit-msg hook", () => {
  it("accepts a subject of 72 characters followed by a body", () => {
    expect(verdict(`${"s".repeat(72)}\n\nWhy it changed.\n`).ok).toBe(true);
  });

  it("refuses a subject of 73 characters and says how long it is", () => {
    const { ok, said } = verdict(`${"s".repeat(73)}\n`);
    expect(ok).toBe(false);
    expect(said).toContain("73 characters");
  });

  it("counts characters, not bytes, so a subject with accents is not refused early", () => {
    expect(verdict(`${"é".repeat(72)}\n`).ok).toBe(true);
  });

  it("ignores git's comment lines above the subject", () => {
    expect(verdict(`# Please enter the commit message\nShort subject\n`).ok).toBe(true);
  });

  it("refuses a body that starts on the second line", () => {
    expect(verdict("Subject\nbody without a blank line\n").ok).toBe(false);
  });
});

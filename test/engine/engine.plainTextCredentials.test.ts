// A credential set in plain text is said once per run, naming `pulumi config set --secret`, in
// both front doors on the real engine (issue 24; docs/design/ids-and-secrets.md): the dynamic
// classes say it from the program, the native plugin from Configure. Set as secrets, nothing is said.

import type { PulumiFn } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { emulator, installedPackage, stackOn, told } from "../support/engine";
import { documentedYamlProgram, yamlStack } from "../support/yamlStack";
import { PIPE_IDS } from "../support/fixtures";

const ADVICE = "`pulumi config set --secret alertpipe:alertingToken <value>`";
const count = (text: string, part: string) => text.split(part).length - 1;

describe("a credential in plain text in the stack's config", () => {
  it("is said once by the dynamic classes, however many resources the program makes", async () => {
    const emu = await emulator();
    const { PipeSettings } = installedPackage();
    const program: PulumiFn = async () => {
      for (const name of ["a", "b"]) new PipeSettings(name, { ...PIPE_IDS, dbMaxThreads: 8 });
      return {};
    };
    const plain = await stackOn(emu, "plain-token-dynamic", {
      program,
      config: { "alertpipe:alertingToken": { value: emu.token, secret: false } },
    });
    const preview = await plain.preview();
    expect(preview.ok, told(preview)).toBe(true);
    expect(preview.diagnostics.filter((d) => d.startsWith("warning:") && d.includes(ADVICE))).toHaveLength(1);
    expect(preview.log).not.toContain("cloudKeySecret is set in plain text");

    const secret = await stackOn(emu, "secret-token-dynamic", { program });
    const quiet = await secret.preview();
    expect(quiet.ok, told(quiet)).toBe(true);
    expect(quiet.log).not.toContain("set in plain text");
  });

  it("is said once by the native plugin", async () => {
    const emu = await emulator();
    const { stack } = await yamlStack(emu, documentedYamlProgram(), {
      config: { "alertpipe:alertingToken": { value: emu.token, secret: false } },
    });
    const preview = await stack.run(["preview"]);
    expect(preview.code, preview.output).toBe(0);
    // The CLI shows a warning twice: as it happens, and in the summary under "Diagnostics:".
    const summary = preview.output.slice(preview.output.indexOf("Diagnostics:"));
    expect(count(summary, ADVICE), preview.output).toBe(1);
  });
});

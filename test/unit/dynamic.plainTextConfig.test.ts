// The dynamic front door's plain-text credential warning: the program's runtime knows which stack
// config keys are secret (the provider host does not: docs/design/plain-text-credentials.md).

import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { warnPlainTextInProgram } from "../../provider/dynamic/plainTextConfig";
import { resetRuntime } from "../../provider/runtime/runtime";

describe("a program whose stack config holds a credential", () => {
  const said: string[] = [];
  beforeEach(() => {
    resetRuntime();
    said.length = 0;
  });
  afterEach(() => {
    pulumi.runtime.setAllConfig({});
    resetRuntime();
  });

  it("hears once per run which ones are plain text, with the command that makes them secret", () => {
    pulumi.runtime.setAllConfig(
      { "alertpipe:alertingToken": "plain-token", "alertpipe:cloudKeySecret": "secret-one" },
      ["alertpipe:cloudKeySecret"],
    );
    warnPlainTextInProgram((line) => said.push(line));
    warnPlainTextInProgram((line) => said.push(line));
    expect(said).toEqual([expect.stringContaining("`pulumi config set --secret alertpipe:alertingToken <value>`")]);
    expect(said[0]).not.toContain("cloudKeySecret");
    expect(said[0]).not.toContain("plain-token");
  });

  it("hears nothing when each is a secret, or set only in the environment", () => {
    pulumi.runtime.setAllConfig({ "alertpipe:alertingToken": "t", "alertpipe:cloudKeySecret": "s" }, [
      "alertpipe:alertingToken",
      "alertpipe:cloudKeySecret",
    ]);
    warnPlainTextInProgram((line) => said.push(line));
    pulumi.runtime.setAllConfig({});
    warnPlainTextInProgram((line) => said.push(line));
    expect(said).toEqual([]);
  });
});

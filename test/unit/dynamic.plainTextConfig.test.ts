// The dynamic front door's plain-text credential warning: the program's runtime knows which stack
// config keys are secret (the provider host does not: docs/design/plain-text-credentials.md). Each
// resource class says it when a program makes one, under Pulumi's mocks (no provider code runs).

import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { warnPlainTextInProgram } from "../../provider/dynamic/plainTextConfig";
import type * as IndexModule from "../../provider/index";
import { resetRuntime } from "../../provider/runtime/runtime";
import { providerModule } from "../support/dynamicClasses";

const ADVICE = "`pulumi config set --secret alertpipe:alertingToken <value>`";

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
    expect(said).toEqual([expect.stringContaining(ADVICE)]);
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

describe("a program making resources while its stack config holds a credential in plain text", () => {
  const pkg = providerModule("./provider/index") as typeof IndexModule;
  const classes = ["Alert", "ApiKey", "PipeSettings", "Webhook", "SavedSearch"] as const;
  beforeAll(() => pulumi.runtime.setMocks({ newResource: (a) => ({ id: a.name, state: a.inputs }), call: () => ({}) }));
  beforeEach(() => {
    resetRuntime();
    pulumi.runtime.setAllConfig({ "alertpipe:alertingToken": "plain-token" });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    pulumi.runtime.setAllConfig({});
    resetRuntime();
  });

  it.each(classes)("hears it once from %s, however many the program makes", (kind) => {
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    const Made = pkg[kind] as unknown as new (name: string, args: object) => pulumi.CustomResource;
    for (const name of ["a", "b"]) new Made(name, {});
    expect(warn.mock.calls.map(([line]) => line)).toEqual([expect.stringContaining(ADVICE)]);
  });
});

// getClickPipe and getClickPipes against the emulator's Cloud mode: a pipe made by the resource read
// back as the service holds it (one GET each), never a credential; a missing pipe is LOOKUP_NOT_FOUND.

import { describe, expect, it } from "vitest";
import * as provider from "../../provider/clickPipe/provider";
import { lookupNamed, runLookup } from "../../provider/lookups/run";
import { emulatorPerTest } from "../support/emulatorPerTest";
import { PIPE_SERVICE, PROGRAMS } from "../support/clickPipes";

const emu = emulatorPerTest({ service: "cloud", helper: "clickPipeLookups", cloudDialect: "clickhouse" });
const PIPES = `/v1/organizations/${PIPE_SERVICE.organizationId}/services/${PIPE_SERVICE.serviceId}/clickpipes`;
const MISSING = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";

function run(name: string, args: unknown): Promise<Record<string, unknown>> {
  const def = lookupNamed(name);
  if (def === undefined) throw new Error(`no lookup ${name}`);
  return runLookup(def, args);
}

const secretsOf = (program: { credentials?: Readonly<Record<string, string>> }) =>
  Object.values(program.credentials ?? {});

describe("the ClickPipe lookups on the Cloud's API", () => {
  it("getClickPipe reads a Kafka pipe with one GET, as the program made it, without its credentials", async () => {
    const made = await provider.create({ ...PROGRAMS.kafka, __provider: "serialized" });
    emu.emulator.resetRequestLog();
    const pipe = await run("getClickPipe", { ...PIPE_SERVICE, clickPipeId: made.id });
    expect(emu.requests()).toEqual([`GET ${PIPES}/${made.id}`]);
    const { credentials: _credentials, ...program } = PROGRAMS.kafka;
    expect(pipe).toMatchObject({ ...program, clickPipeId: made.id, state: expect.any(String) });
    expect(pipe.createdAt).toEqual(expect.any(String));
    expect(pipe).not.toHaveProperty("credentials");
    for (const secret of secretsOf(PROGRAMS.kafka)) expect(JSON.stringify(pipe)).not.toContain(secret);
  });

  it("getClickPipes lists the service's pipes with one GET, and by name keeps that one", async () => {
    const kafka = await provider.create({ ...PROGRAMS.kafka, __provider: "serialized" });
    const kinesis = await provider.create({ ...PROGRAMS.kinesis, __provider: "serialized" });
    emu.emulator.resetRequestLog();
    const all = await run("getClickPipes", PIPE_SERVICE);
    expect(emu.requests()).toEqual([`GET ${PIPES}`]);
    const listed = all.clickPipes as Array<Record<string, unknown>>;
    expect(listed.map((p) => p.clickPipeId).sort()).toEqual([kafka.id, kinesis.id].sort());
    for (const secret of [...secretsOf(PROGRAMS.kafka), ...secretsOf(PROGRAMS.kinesis)])
      expect(JSON.stringify(all)).not.toContain(secret);
    const named = await run("getClickPipes", { ...PIPE_SERVICE, name: PROGRAMS.kinesis.name });
    expect((named.clickPipes as Array<Record<string, unknown>>).map((p) => p.clickPipeId)).toEqual([kinesis.id]);
  });

  it("getClickPipe of a pipe the service does not have fails LOOKUP_NOT_FOUND, naming it and the 404", async () => {
    await expect(run("getClickPipe", { ...PIPE_SERVICE, clickPipeId: MISSING })).rejects.toThrow(
      `[LOOKUP_NOT_FOUND] getClickPipe: service "${PIPE_SERVICE.serviceId}" of organization ` +
        `"${PIPE_SERVICE.organizationId}" has no ClickPipe "${MISSING}" (GET ${PIPES}/${MISSING} answered 404)`,
    );
  });

  it("getClickPipes of a service with no pipe gives an empty list", async () => {
    expect(await run("getClickPipes", PIPE_SERVICE)).toEqual({ ...PIPE_SERVICE, clickPipes: [] });
  });
});

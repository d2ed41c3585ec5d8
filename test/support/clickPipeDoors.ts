// ClickPipes on the real engine: both front doors over one program the test rewrites between runs,
// each against its own emulator in Cloud mode, the pipes' state steps short for the file.

import type { RunningEmulator } from "../../emulator";
import { byHand } from "./byHand";
import { PIPE_SERVICE } from "./clickPipes";
import { CLOUD_MODE, cloudConfig, dynamicDoor, yamlDoor, type YamlDoor } from "./cloudDoors";
import { emulator, installedPackage, requestLog } from "./engine";

export { shortPipeSteps } from "./clickPipes";

/** A program's resources by name, as a Pulumi.yaml's `resources`. */
export type Resources = Record<string, { readonly type: string; readonly properties: object }>;

export const PIPES = `/v1/organizations/${PIPE_SERVICE.organizationId}/services/${PIPE_SERVICE.serviceId}/clickpipes`;

/** ClickPipe resources of these programs, by name. */
export function clickPipes(programs: Record<string, object>): Resources {
  return Object.fromEntries(
    Object.entries(programs).map(([name, properties]) => [name, { type: "alertpipe:index:ClickPipe", properties }]),
  );
}

type Constructors = Record<string, new (name: string, args: object) => unknown>;

/** The dynamic classes running `resources` (`alertpipe:index:X` as the class `X`), rewritten by `write`. */
async function dynamicPipes(resources: Resources, name: string): Promise<YamlDoor> {
  const emu = await emulator(CLOUD_MODE);
  let current = resources;
  const door = await dynamicDoor(emu, cloudConfig(emu), name, async () => {
    const pkg = installedPackage() as unknown as Constructors;
    for (const [n, r] of Object.entries(current)) {
      const Class = pkg[r.type.split(":")[2] ?? ""];
      if (Class === undefined) throw new Error(`no class for ${r.type}`);
      new Class(n, r.properties);
    }
  });
  return { ...door, write: (more) => (current = more as Resources) };
}

async function yamlPipes(resources: Resources): Promise<YamlDoor> {
  const emu = await emulator(CLOUD_MODE);
  return yamlDoor(emu, cloudConfig(emu), resources);
}

/** For describe.each: the door's name, and how to open it on a program (the stack named `name`). */
export const PIPE_DOORS: ReadonlyArray<[string, (resources: Resources, name: string) => Promise<YamlDoor>]> = [
  ["the dynamic classes", dynamicPipes],
  ["Pulumi YAML through the plugin", yamlPipes],
];

/** The service's pipes as its list answers them. */
export async function livePipes(emu: RunningEmulator): Promise<Array<Record<string, unknown>>> {
  return ((await byHand(emu, "GET", PIPES)) as { result: Array<Record<string, unknown>> }).result;
}

/** The one live pipe named `name`; fails when there is not exactly one. */
export async function livePipe(emu: RunningEmulator, name: string): Promise<Record<string, unknown>> {
  const found = (await livePipes(emu)).filter((p) => p.name === name);
  if (found.length !== 1) throw new Error(`${found.length} pipes named ${name} on the service`);
  return found[0] as Record<string, unknown>;
}

/** A request that changes something: every method but GET (for requestLog). */
export const isWrite = (method: string): boolean => method !== "GET";

/** The writes the emulator took since the last call (or reset), as "METHOD path"; its log starts afresh. */
export function takeWrites(emu: RunningEmulator): string[] {
  const sent = requestLog(emu, isWrite);
  emu.resetRequestLog();
  return sent;
}

// `npm run demo`: the whole thing on this machine, no cloud account, no network. Starts the
// bundled emulator, runs the example stack up, shows its outputs (the key secret masked), changes
// one setting and runs up again, destroys, and checks that nothing is left behind.

import type { RunResult, Step } from "../test/harness";
import { defaultDriver, emulatorConfig, forgetStack, openStack, prepareExamples, withEmulator } from "./exampleStack";

const SYMBOL: Record<string, string> = { create: "+", update: "~", replace: "+-", delete: "-", same: " ", read: ">", "refresh-update": "~", "refresh-delete": "-" };

function show(title: string, result: RunResult): void {
  console.log(`\n== ${title}: ${result.ok ? "ok" : "FAILED"}`);
  for (const step of result.steps.filter((s: Step) => s.op !== "same")) {
    const diffs = step.diffs && step.diffs.length > 0 ? ` [${step.diffs.join(", ")}]` : "";
    console.log(`  ${SYMBOL[step.op] ?? step.op} ${step.type} ${step.name}${diffs}${step.error ? ` ERROR: ${step.error}` : ""}`);
  }
  const unchanged = result.steps.filter((s: Step) => s.op === "same").length;
  if (unchanged > 0) console.log(`  (${unchanged} unchanged)`);
  if (!result.ok) throw new Error(`${title} failed: ${result.error ?? "see above"}`);
}

function masked(value: unknown): string {
  if (typeof value === "object" && value !== null && (value as { secret?: unknown }).secret === true) return "[secret]";
  return JSON.stringify(value);
}

async function main(): Promise<void> {
  const driver = defaultDriver();
  console.log(
    driver === "cli"
      ? "Running through the pulumi CLI found on PATH."
      : "The pulumi CLI is not on PATH: running through the bundled engine harness (Pulumi's own language runtime and dynamic-provider host).",
  );
  const programDir = prepareExamples();
  await withEmulator({}, async (emulator) => {
    console.log(`Emulator listening on ${emulator.url}`);
    const name = "demo";
    forgetStack(name);
    const config = emulatorConfig(emulator);
    const stack = (dbMaxThreads: number) =>
      openStack({ driver, name, programDir, config: { ...config, "alertpipe-example:dbMaxThreads": { value: String(dbMaxThreads) } } });

    show("preview", await stack(8).preview());
    const first = await stack(8).up();
    show("up", first);
    console.log("\nOutputs:");
    for (const [k, v] of Object.entries(first.outputs)) console.log(`  ${k}: ${masked(v)}`);

    const second = await stack(16).up();
    show("up with dbMaxThreads 8 -> 16", second);
    console.log(`  pipeDbMaxThreads is now ${masked(second.outputs.pipeDbMaxThreads)}`);

    show("destroy", await stack(16).destroy());
    const left = emulator.snapshot();
    const leftovers = [
      ...Object.keys(left.alerts).map((id) => `alert ${id}`),
      ...Object.keys(left.keys).map((id) => `API key ${id}`),
      ...Object.entries(left.pipes)
        .filter(([, settings]) => Object.values(settings).some((v) => v !== null))
        .map(([pipe]) => `settings of pipe ${pipe}`),
    ];
    if (leftovers.length > 0) throw new Error(`destroy left objects behind: ${leftovers.join(", ")}`);
    console.log("\nNothing left behind on the emulator. Demo complete.");
  });
}

main().catch((err: unknown) => {
  console.error(`\ndemo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

// `npm run demo`: the example stack through the real Pulumi engine, on this machine, with no cloud
// account and no network. Starts the bundled emulator, then shows the pulumi CLI's own output for
// preview, up, a change (dbMaxThreads 8 → 16) and up, refresh, and destroy; finally checks that
// nothing is left on the emulator.
//
// SIGINT and SIGTERM interrupt it safely: the pulumi CLI gets one SIGINT (it lets the requests
// already sent finish and records them in state, then stops, taking its plugins with it), the stack
// folder with that state is kept and named, and the emulator is closed before exiting.

import type { EngineStack, RunResult } from "./engine/stack";
import { emulatorConfig, openStack, prepareExamples, withEmulator } from "./exampleStack";

function print(text: string): void {
  process.stdout.write(text);
}

/** Set by the first SIGINT or SIGTERM; aborting it sends the running CLI its one SIGINT. */
const interrupt = new AbortController();
let interruptedBy: NodeJS.Signals | undefined;
/** What the CLI printed during the current step, to tell whether a terminal's Ctrl-C reached it too. */
let stepOutput = "";

class Interrupted extends Error {}

function onSignal(signal: NodeJS.Signals): void {
  if (interruptedBy !== undefined) {
    console.error(
      `\n${signal} again: still waiting for the pulumi CLI to finish cancelling, so that state stays whole.`,
    );
    return;
  }
  interruptedBy = signal;
  console.error(`\n${signal} received: cancelling the current pulumi run; state written so far is kept.`);
  // Ctrl-C in a terminal reaches the CLI too (same process group): a second SIGINT from us would
  // make it terminate, leaving pending operations. Give it a moment to say it is cancelling; send
  // ours only if it did not (a signal sent to the demo alone: kill, a supervisor's SIGTERM).
  setTimeout(() => {
    if (!/received; cancelling/i.test(stepOutput)) interrupt.abort();
  }, 1_000).unref();
}

async function step(title: string, run: (signal: AbortSignal) => Promise<RunResult>): Promise<RunResult> {
  if (interruptedBy !== undefined) throw new Interrupted();
  console.log(`\n=== ${title}`);
  stepOutput = "";
  const result = await run(interrupt.signal);
  if (interruptedBy !== undefined) throw new Interrupted();
  if (!result.ok) throw new Error(`${title} failed: ${result.error ?? "see above"}`);
  return result;
}

function show(text: string): void {
  stepOutput += text;
  print(text);
}

async function main(): Promise<void> {
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const started = Date.now();
  const programDir = prepareExamples();
  let stack: EngineStack | undefined;
  try {
    await withEmulator({}, async (emulator) => {
      console.log(`Emulator of both APIs listening on ${emulator.url}`);
      const config = emulatorConfig(emulator);
      stack = await openStack({
        stack: "demo",
        programDir,
        config: { ...config, "alertpipe-example:dbMaxThreads": { value: "8" } },
      });
      console.log(
        `Engine: the real Pulumi engine, ${stack.tool.path} ${stack.tool.version} (${stack.tool.source === "path" ? "from PATH" : "built from Go modules"}), Automation API inline program, state in ${stack.root}`,
      );
      const s = stack;

      await step("pulumi preview", (signal) => s.preview({ onOutput: show, signal }));
      await step("pulumi up", (signal) => s.up({ onOutput: show, signal }));
      await s.setConfig({ "alertpipe-example:dbMaxThreads": { value: "16" } });
      await step("pulumi up, after changing dbMaxThreads 8 -> 16", (signal) =>
        s.up({ onOutput: show, diff: true, signal }),
      );
      const refreshed = await step("pulumi refresh", (signal) => s.refresh({ onOutput: show, signal }));
      const drifted = refreshed.steps.filter((x) => x.op !== "same");
      if (drifted.length > 0)
        throw new Error(`refresh found drift nobody made: ${drifted.map((x) => x.name).join(", ")}`);
      await step("pulumi destroy", (signal) => s.destroy({ onOutput: show, signal }));

      const left = emulator.snapshot();
      const leftovers = [
        ...Object.keys(left.alerts).map((id) => `alert ${id}`),
        ...Object.keys(left.keys).map((id) => `API key ${id}`),
        ...Object.entries(left.pipes)
          .filter(([, settings]) => Object.values(settings).some((v) => v !== null))
          .map(([pipe]) => `settings of pipe ${pipe}`),
      ];
      if (leftovers.length > 0) throw new Error(`destroy left objects behind: ${leftovers.join(", ")}`);
      console.log(
        `\nNothing left behind on the emulator. Demo complete in ${Math.round((Date.now() - started) / 1000)} s.`,
      );
    });
  } finally {
    // After an interrupt the state is what tells what was made: keep it. The emulator it points at
    // is gone, but the state names every object and id.
    if (interruptedBy !== undefined && stack !== undefined)
      console.error(`\nInterrupted: the stack's state is kept in ${stack.root} (state file ${stack.statePath}).`);
    else stack?.dispose();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    if (interruptedBy !== undefined) {
      console.error(`demo interrupted by ${interruptedBy}; the emulator is closed.`);
      process.exit(interruptedBy === "SIGINT" ? 130 : 143);
    }
    console.error(`\ndemo failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);

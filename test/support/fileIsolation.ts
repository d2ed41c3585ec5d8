// Unit files share a worker's modules (isolate: false in vitest.config.mts): each file leaves the
// process as it found it, its environment and the provider's runtime context, whatever its tests set.

import { afterAll } from "vitest";
import { resetRuntime } from "../../provider/runtime/runtime";

const environment = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
  resetRuntime();
});

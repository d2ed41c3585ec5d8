// The fault soak of issue 46 on the real engine: four Kafka ClickPipes (two scaled, one stopped) on
// the emulator's Cloud mode, 30% of the create's POST, the scaling PATCH and the state command's
// PATCH answered late, with a 500 or not at all after the service did them
// (scripts/engine/soakClickPipe.ts), one Ctrl-C during the first up, then a changed program (two
// pipes rescaled, one stopped, the stopped one started) under the same faults: one pipe per name,
// none outside the state, scaling and stopped as the program says, a clean up that writes nothing,
// destroy leaving none. One seed per door here; `npm run bench -- soak-clickpipe` sweeps five seeds
// over both doors. SOAK_CLICKPIPE_SEEDS="1,2" picks others.

import { clickPipeSoak } from "../../scripts/engine/soakClickPipe";
import { seedsFrom, soakSuite } from "../support/soakSuite";

const RATE = 0.3;
const [dynamicSeed = 46801, nativeSeed = 46802] = seedsFrom("SOAK_CLICKPIPE_SEEDS", "46801,46802");

soakSuite([
  { door: "dynamic", seed: dynamicSeed, rate: RATE, scenario: clickPipeSoak() },
  { door: "native", seed: nativeSeed, rate: RATE, scenario: clickPipeSoak() },
]);

// The fault soak of issue 44 on the real engine: the alerting chain (scripts/engine/soakObservability.ts:
// connection → source → dashboard → saved search → webhook → a tile alert and a search alert, twice)
// under 30% of writes faulted and one Ctrl-C, through the dynamic classes against the emulator's
// HyperDX (2026) mode and through the native plugin against its managed ClickStack mode (no
// connection there): one object per resource once up converges, nothing of the program left after
// destroy. One seed per door here; `npm run bench -- soak` with SOAK_PROGRAM=alerting sweeps five
// seeds over both doors, both dialects and 15% and 30%. SOAK_ALERTING_SEEDS="1,2" picks others.

import { observabilitySoak } from "../../scripts/engine/soakObservability";
import { seedsFrom, soakSuite } from "../support/soakSuite";

const RATE = 0.3;
const [dynamicSeed = 44401, nativeSeed = 44402] = seedsFrom("SOAK_ALERTING_SEEDS", "44401,44402");

soakSuite([
  { door: "dynamic", seed: dynamicSeed, rate: RATE, scenario: observabilitySoak("hyperdx") },
  { door: "native", seed: nativeSeed, rate: RATE, scenario: observabilitySoak("clickstack") },
]);

// The scenarios `npm run record:hyperdx` records, in the order it runs them (rate-limit last: it
// spends the key's window). A new scenario is one file here and one line below.

import type { Scenario } from "../scenario";
import { alerts } from "./alerts";
import { connections } from "./connections";
import { dashboards } from "./dashboards";
import { rateLimit } from "./rateLimit";
import { savedSearches } from "./savedSearches";
import { service } from "./service";
import { sources } from "./sources";
import { webhooks } from "./webhooks";

export const SCENARIOS: readonly Scenario[] = [
  service,
  alerts,
  webhooks,
  savedSearches,
  connections,
  sources,
  dashboards,
  rateLimit,
];

// Dashboards: a GET of one, an unpaged list; a DELETE of a missing one answers 200.

import { alertingCollection } from "../reading/alertingCollection";
import { DASHBOARDS_PATH } from "../serviceFacts/observability";
import { DASHBOARD } from "./definition";

export const DASHBOARDS = alertingCollection(DASHBOARD, "dashboard", DASHBOARDS_PATH, true, false);

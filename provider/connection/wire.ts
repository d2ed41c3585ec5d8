// Connections are not paged; there is a GET of one.

import { alertingCollection } from "../reading/alertingCollection";
import { CONNECTIONS_PATH } from "../serviceFacts/observability";
import { CONNECTION } from "./definition";

export const CONNECTIONS = alertingCollection(CONNECTION, "connection", CONNECTIONS_PATH, true, false);

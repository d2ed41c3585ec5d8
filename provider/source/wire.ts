// Sources are read through the list on both services; an update reads one by its GET.

import { alertingCollection } from "../reading/alertingCollection";
import { SOURCES_PATH } from "../serviceFacts/observability";
import { SOURCE } from "./definition";

export const SOURCES = alertingCollection(SOURCE, "source", SOURCES_PATH, false, false, true);

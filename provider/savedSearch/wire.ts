import { alertingCollection } from "../reading/alertingCollection";
import { SAVED_SEARCHES_PATH } from "../serviceFacts/savedSearches";
import { SAVED_SEARCH } from "./definition";

export const SEARCHES = alertingCollection(SAVED_SEARCH, "saved search", SAVED_SEARCHES_PATH, true);

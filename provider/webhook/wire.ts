// Every read goes through the listing: the service has no GET of one webhook.

import { alertingCollection } from "../reading/alertingCollection";
import { WEBHOOKS_PATH } from "../serviceFacts/webhooks";
import { WEBHOOK } from "./definition";

export const WEBHOOKS = alertingCollection(WEBHOOK, "webhook", WEBHOOKS_PATH, false);

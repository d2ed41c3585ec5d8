// The Webhook's wire: its paths, the webhook an answer holds, the request body, and the listing
// every read goes through (the service has no GET of one webhook).

import { alertingCollection } from "../reading/alertingCollection";
import { WEBHOOKS_PATH } from "../serviceFacts/webhooks";
import { WEBHOOK } from "./definition";

export const WEBHOOKS = alertingCollection(WEBHOOK, "webhook", WEBHOOKS_PATH, false);

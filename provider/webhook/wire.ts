// The Webhook's wire: its paths, the webhook an answer holds, the request body, and the listing
// every read goes through (the service has no GET of one webhook).

import { z } from "../protocol/zod";
import { toWire as mapping, inputNames } from "../protocol/definition";
import type { PropertyMap } from "../protocol/properties";
import type { AreaConnection } from "../runtime/connection";
import type { Collection } from "../reading/listedReads";
import { listPaged, type Listed } from "../reading/pagedList";
import { LIST_PAGE_MAX } from "../serviceFacts/alertRules";
import { WEBHOOKS_PATH } from "../serviceFacts/webhooks";
import { WEBHOOK } from "./definition";
import { memberPath } from "../http/paths";

const answer = z.object({ data: z.record(z.string(), z.unknown()) });

/** The id of the webhook in a create's answer. */
export const createdWebhook = z.object({
  data: z.object({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }),
});

/** The webhook of a 2xx answer, or undefined when its body holds none. */
export function webhookIn(body: unknown): Listed | undefined {
  const parsed = answer.safeParse(body);
  return parsed.success ? parsed.data.data : undefined;
}

const SENT = inputNames(WEBHOOK);

/** The request body: every argument the program sets, write-only ones included. */
export function toWire(args: PropertyMap): Record<string, unknown> {
  return mapping(WEBHOOK, args, SENT, "drop");
}

/** The list's path, or one webhook's: its id is opaque (ObjectId.isValid also takes any 12 characters). */
export function webhooksPath(id?: string): string {
  return memberPath("webhook", WEBHOOKS_PATH, id);
}

export const listWebhooks = (conn: AreaConnection): Promise<Map<string, Listed>> =>
  listPaged(conn, WEBHOOKS_PATH, LIST_PAGE_MAX);

/** The caller's webhooks as a collection whose listing serves reads, each as a write answers it. */
export function webhookCollection(conn: AreaConnection): Collection {
  return { path: WEBHOOKS_PATH, list: () => listWebhooks(conn), asAnswer: (webhook) => ({ data: webhook }) };
}

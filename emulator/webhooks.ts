// Webhooks under /api/v2/webhooks: a paged list, create, a whole PUT and DELETE; no GET of one.
// headers and queryParams are stored but never answered, nor an incidentio webhook's body.

import { randomBytes } from "node:crypto";
import { z } from "zod";
import {
  NOT_FOR_SLACK,
  WEBHOOK_LIMITS,
  WEBHOOK_MODIFIED_CONCURRENTLY,
  WEBHOOK_NAME_TAKEN,
  WEBHOOK_SERVICES,
  headersProblems,
  notForSlackWords,
  queryParamsProblems,
  webhookInUseWords,
  webhookNameProblem,
  webhookUrlProblem,
} from "../provider/serviceFacts/webhooks";
import { pageOf } from "./paging";
import { alertingBody, alertingError, isoNow, type Incoming, type Reply, type Services } from "./replies";
import type { StoredWebhook } from "./store";

const at = (max: number) => ({ error: `String must contain at most ${max} character(s)` });
const stringMap = z.record(z.string(), z.string());

const bodySchema = z
  .object({
    name: z.string().superRefine((v, ctx) => {
      const problem = webhookNameProblem(v);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
    }),
    service: z.enum(WEBHOOK_SERVICES, {
      error: (i) => `Invalid enum value. Expected 'slack' | 'generic' | 'incidentio', received '${String(i.input)}'`,
    }),
    url: z
      .string({ error: (i) => (i.input === undefined ? "Required" : "Expected string") })
      .max(WEBHOOK_LIMITS.url, at(WEBHOOK_LIMITS.url)),
    description: z.string().max(WEBHOOK_LIMITS.description, at(WEBHOOK_LIMITS.description)).optional(),
    body: z.string().max(WEBHOOK_LIMITS.body, at(WEBHOOK_LIMITS.body)).optional(),
    headers: stringMap.optional(),
    queryParams: stringMap.optional(),
  })
  .superRefine((b, ctx) => {
    for (const p of [...headersProblems(b.headers ?? {}), ...queryParamsProblems(b.queryParams ?? {})])
      ctx.addIssue({ code: "custom", path: p.key === undefined ? [p.field] : [p.field, p.key], message: p.message });
    if (b.service === "slack")
      for (const f of NOT_FOR_SLACK)
        if (b[f] !== undefined) ctx.addIssue({ code: "custom", path: [f], message: notForSlackWords(f) });
  });

type WebhookBody = z.infer<typeof bodySchema>;

/** A webhook as an answer carries it: never headers or queryParams; a body only for generic. */
export function renderWebhook(w: StoredWebhook): Record<string, unknown> {
  return {
    id: w.id,
    name: w.name,
    service: w.service,
    url: w.url,
    ...(w.description !== undefined ? { description: w.description } : {}),
    ...(w.body !== undefined && w.service === "generic" ? { body: w.body } : {}),
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
}

const webhooksOf = (services: Services) => (services.state.webhooks ??= {});

/** Test hook: a PUT of this webhook meets another writer that changed its url to this one. */
export const pendingRaces = new WeakMap<Services, Map<string, string>>();

/** The body checked in the service's order: schema, then `lookup` (a PUT's 404), then the URL rules. */
function readBody(
  req: Incoming,
  lookup: () => Reply | undefined = () => undefined,
): { ok: true; body: WebhookBody } | { ok: false; reply: Reply } {
  const parsed = alertingBody(req, bodySchema);
  if (!parsed.ok) return parsed;
  const missing = lookup();
  if (missing !== undefined) return { ok: false, reply: missing };
  const url = webhookUrlProblem(parsed.value.service, parsed.value.url);
  if (url !== undefined)
    return {
      ok: false,
      reply: alertingError(400, url === "Invalid url" ? "Body validation failed: url: Invalid url" : url),
    };
  return { ok: true, body: parsed.value };
}

function nameTaken(services: Services, body: WebhookBody, except?: string): boolean {
  const name = body.name.trim();
  return Object.values(webhooksOf(services)).some(
    (w) => w.id !== except && w.service === body.service && w.name === name,
  );
}

export function handleWebhooks(services: Services, req: Incoming, id?: string): Reply {
  const hooks = webhooksOf(services);
  if (id === undefined) {
    if (req.method === "GET") return pageOf(req, Object.values(hooks).map(renderWebhook));
    const read = readBody(req);
    if (!read.ok) return read.reply;
    if (nameTaken(services, read.body)) return alertingError(400, WEBHOOK_NAME_TAKEN);
    const now = isoNow();
    const hook = stored(read.body, newId(hooks), now, now);
    hooks[hook.id] = hook;
    services.persist();
    return { status: 200, body: { data: renderWebhook(hook) } };
  }
  if (req.method === "DELETE") {
    // The count comes first, and counts only an alert's first channel.
    const using = Object.values(services.state.alerts).filter(
      (a) => a.channel.type === "webhook" && a.channel.webhookId === id,
    ).length;
    if (using > 0) return alertingError(409, webhookInUseWords(using));
    if (hooks[id] === undefined) return alertingError(404, "Webhook not found");
    delete hooks[id];
    services.persist();
    return { status: 200, body: {} };
  }
  const existing = hooks[id];
  const read = readBody(req, () => (existing === undefined ? alertingError(404, "Webhook not found") : undefined));
  if (!read.ok) return read.reply;
  if (existing === undefined) return alertingError(404, "Webhook not found");
  const race = pendingRaces.get(services)?.get(id);
  if (race !== undefined) {
    // Another writer changed the destination between the service's read and its write.
    pendingRaces.get(services)?.delete(id);
    existing.url = race;
    services.persist();
    return alertingError(409, WEBHOOK_MODIFIED_CONCURRENTLY);
  }
  if (nameTaken(services, read.body, id)) return alertingError(400, WEBHOOK_NAME_TAKEN);
  const next = stored(read.body, id, existing.createdAt, isoNow(existing.updatedAt));
  // Omitted secrets are kept while the destination stays; they never follow to a new one.
  const sameDestination = existing.url === next.url && existing.service === next.service;
  for (const f of ["headers", "queryParams"] as const)
    if (read.body[f] === undefined && sameDestination && existing[f] !== undefined) next[f] = existing[f];
  hooks[id] = next;
  services.persist();
  return { status: 200, body: { data: renderWebhook(next) } };
}

function stored(body: WebhookBody, id: string, createdAt: string, updatedAt: string): StoredWebhook {
  const nonEmpty = (m: Record<string, string> | undefined) =>
    m === undefined || Object.keys(m).length === 0 ? undefined : m;
  const headers = nonEmpty(body.headers);
  const queryParams = nonEmpty(body.queryParams);
  return {
    id,
    name: body.name.trim(),
    service: body.service,
    url: body.url,
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.body !== undefined ? { body: body.body } : {}),
    ...(headers !== undefined ? { headers } : {}),
    ...(queryParams !== undefined ? { queryParams } : {}),
    createdAt,
    updatedAt,
  };
}

export function newId(existing: Readonly<Record<string, unknown>>): string {
  for (;;) {
    const id = randomBytes(12).toString("hex");
    if (existing[id] === undefined) return id;
  }
}

// Webhook rules (docs/design/webhooks-and-saved-searches.md).

/** Where a webhook delivers. */
export const WEBHOOK_SERVICES = ["slack", "generic", "incidentio"] as const;
export type WebhookService = (typeof WEBHOOK_SERVICES)[number];

/**
 * Services a webhook may be answered with on managed ClickStack (the Cloud document's `ClickStackWebhook`)
 * but not created through its API (`ClickStackWebhookInput` takes the three above): made in the console.
 */
export const CONSOLE_WEBHOOK_SERVICES = ["slack_api", "pagerduty_api"] as const;

/** Why `service` cannot be a Webhook's input, or undefined when it can. */
export function webhookServiceProblem(service: unknown): string | undefined {
  const creatable = WEBHOOK_SERVICES.map((v) => `"${v}"`).join(", ");
  if ((WEBHOOK_SERVICES as readonly unknown[]).includes(service)) return undefined;
  if ((CONSOLE_WEBHOOK_SERVICES as readonly unknown[]).includes(service))
    return (
      `service "${String(service)}" is made in the ClickStack console, not through the API: read such a webhook with ` +
      `getWebhook (or getWebhooks) and use its id; a Webhook's service is one of ${creatable}`
    );
  return `service must be one of ${creatable}`;
}

export const WEBHOOK_LIMITS = {
  name: 1024,
  url: 2048,
  description: 2048,
  body: 16384,
  entries: 100,
  headerName: 256,
  paramName: 1024,
  value: 4096,
} as const;

/** The fields a slack webhook refuses, in the service's order. */
export const NOT_FOR_SLACK = ["headers", "queryParams", "body"] as const;

/** The service's words when a name is taken: unique per team and service. */
export const WEBHOOK_NAME_TAKEN = "A webhook with this service and name already exists";

/** The words of a PUT that raced a change of the webhook's url or service. */
export const WEBHOOK_MODIFIED_CONCURRENTLY = "Webhook was modified concurrently; please retry with the current state";

export function webhookInUseWords(count: number): string {
  return `Cannot delete webhook: ${count} alert(s) still reference it. Reassign or remove those alerts first.`;
}

/** Where (a field, or `field.key`) and the service's words. */
export interface FieldProblem {
  readonly field: string;
  readonly key?: string;
  readonly message: string;
}

// eslint-disable-next-line no-control-regex -- control characters are what the rule refuses
const CONTROL = /[\x00-\x1f\x7f]/;
const TOKEN = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/;

/** What the service says of a webhook's name (trimmed first), or undefined. */
export function webhookNameProblem(name: string): string | undefined {
  const length = name.trim().length;
  if (length < 1) return "String must contain at least 1 character(s)";
  if (length > WEBHOOK_LIMITS.name) return `String must contain at most ${WEBHOOK_LIMITS.name} character(s)`;
  return undefined;
}

/** The problems of a headers map, as the service words them. */
export function headersProblems(headers: Readonly<Record<string, unknown>>): FieldProblem[] {
  const out: FieldProblem[] = [];
  const entries = Object.entries(headers);
  if (entries.length > WEBHOOK_LIMITS.entries)
    out.push({ field: "headers", message: `A webhook cannot have more than ${WEBHOOK_LIMITS.entries} headers` });
  for (const [name, value] of entries) {
    const at = { field: "headers", key: name };
    if (name === "") out.push({ ...at, message: "Header name cannot be empty" });
    else if (name.length > WEBHOOK_LIMITS.headerName)
      out.push({ ...at, message: `Header name cannot be longer than ${WEBHOOK_LIMITS.headerName} characters` });
    else if (/^[0-9]/.test(name)) out.push({ ...at, message: "Header name cannot start with a number" });
    if (!TOKEN.test(name))
      out.push({
        ...at,
        message: "Invalid header name. Only alphanumeric characters and !#$%&'*+-.^_`|~ are allowed",
      });
    if (typeof value !== "string") out.push({ ...at, message: "Header values must be strings" });
    else if (value.length > WEBHOOK_LIMITS.value)
      out.push({ ...at, message: `Header values cannot be longer than ${WEBHOOK_LIMITS.value} characters` });
    else if (CONTROL.test(value)) out.push({ ...at, message: "Header values cannot contain control characters" });
  }
  return out;
}

/** The problems of a query parameters map, as the service words them. */
export function queryParamsProblems(params: Readonly<Record<string, unknown>>): FieldProblem[] {
  const out: FieldProblem[] = [];
  const entries = Object.entries(params);
  if (entries.length > WEBHOOK_LIMITS.entries)
    out.push({
      field: "queryParams",
      message: `A webhook cannot have more than ${WEBHOOK_LIMITS.entries} query parameters`,
    });
  for (const [name, value] of entries) {
    const at = { field: "queryParams", key: name };
    if (name === "") out.push({ ...at, message: "Query parameter name cannot be empty" });
    else if (name.length > WEBHOOK_LIMITS.paramName)
      out.push({
        ...at,
        message: `Query parameter names cannot be longer than ${WEBHOOK_LIMITS.paramName} characters`,
      });
    else if (CONTROL.test(name))
      out.push({ ...at, message: "Query parameter names cannot contain control characters" });
    if (typeof value !== "string") out.push({ ...at, message: "Query parameter values must be strings" });
    else if (value.length > WEBHOOK_LIMITS.value)
      out.push({ ...at, message: `Query parameter values cannot be longer than ${WEBHOOK_LIMITS.value} characters` });
    else if (CONTROL.test(value))
      out.push({ ...at, message: "Query parameter values cannot contain control characters" });
  }
  return out;
}

/** The service's words for a field a slack webhook cannot have. */
export function notForSlackWords(field: string): string {
  return `${field} is not supported for the slack webhook service`;
}

const V4_REFUSED: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

function v4Number(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function v4Refused(n: number): boolean {
  return V4_REFUSED.some(([base, bits]) => {
    const b = v4Number(base) ?? 0;
    const size = 2 ** (32 - bits);
    return n >= b && n < b + size;
  });
}

/** An IPv6 literal as WHATWG writes it, without brackets, as 8 numbers. */
function v6Groups(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === "" ? [] : s.split(":").map((g) => parseInt(g, 16)));
  const head = groups(halves[0] ?? "");
  const tail = halves.length === 2 ? groups(halves[1] ?? "") : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const all = [...head, ...Array<number>(Math.max(0, fill)).fill(0), ...tail];
  return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : undefined;
}

function v6Refused(g: readonly number[]): boolean {
  const [a = 0, b = 0, c = 0, d = 0, , f = 0, h = 0, i = 0] = g;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if ((a & 0xffc0) === 0xfe80) return true; // fe80::/10
  if ((a & 0xfe00) === 0xfc00) return true; // fc00::/7
  if ((a & 0xff00) === 0xff00) return true; // ff00::/8
  if (a === 0x2001 && b === 0x0db8) return true; // 2001:db8::/32
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return true; // 100::/64
  // ::, ::1, and ::ffff:a.b.c.d or ::a.b.c.d by their embedded IPv4 (:: and ::1 fall in 0/8)
  if (zeroTo(6) || (zeroTo(5) && f === 0xffff)) return v4Refused(h * 65536 + i);
  return false;
}

/** Whether a hostname is localhost or a private or reserved address. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/\.$/, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host.startsWith("[") && host.endsWith("]")) {
    const groups = v6Groups(host.slice(1, -1));
    return groups !== undefined && v6Refused(groups);
  }
  const v4 = v4Number(host);
  return v4 !== undefined && v4Refused(v4);
}

/** A slack webhook's host: its last two labels are exactly slack.com. */
export function isSlackHost(hostname: string): boolean {
  return hostname.toLowerCase().split(".").slice(-2).join(".") === "slack.com";
}

/** What the service says of a webhook's url; names are not resolved, as there. */
export function webhookUrlProblem(service: string, url: string): string | undefined {
  if (url.length > WEBHOOK_LIMITS.url) return `String must contain at most ${WEBHOOK_LIMITS.url} character(s)`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "Invalid url";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "Webhook URL must use HTTP or HTTPS";
  if (service === "slack" && !isSlackHost(parsed.hostname))
    return `Slack Webhook URL ${url} does not have hostname that ends in 'slack.com'`;
  if (isPrivateHost(parsed.hostname)) return "Webhook URL resolves to a private or reserved address.";
  return undefined;
}

/** Where the webhooks are; there is no GET of one. */
export const WEBHOOKS_PATH = "/api/v2/webhooks";

// The Alert's wire: its path, and the alert an answer holds. The mapping to and from the
// properties is the definition's; the answer is read liberally (members may be missing, renamed
// by later versions, of any shape), so only a create answer without an id is broken.

import { z } from "../protocol/zod";
import { fromWire as mapped, inputNames, toWire as mapping, type ArgsOf, type StateOf } from "../protocol/definition";
import { ALERTS_PATH, sourceFromWire, sourceOnWire, type AlertingDialect } from "../serviceFacts/alertRules";
import { ALERT } from "./definition";
import { memberPath } from "../http/paths";

/** The alert in an answer's `data`, when there is one: any object, members unchecked. */
const alertAnswer = z.object({ data: z.record(z.string(), z.unknown()) });

/** The id of the alert in an answer, when it has a usable one. */
export const createdAlert = z.object({
  data: z.object({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }),
});

export type WireAlert = Record<string, unknown>;

/** An alert's arguments once checked, and what its state records. */
export type Args = ArgsOf<typeof ALERT>;
export type State = StateOf<typeof ALERT>;

/** The alert of a 2xx answer, or undefined when its body holds none (an empty body, plain text). */
export function alertIn(body: unknown): WireAlert | undefined {
  const parsed = alertAnswer.safeParse(body);
  return parsed.success ? parsed.data.data : undefined;
}

const SENT = inputNames(ALERT);

/**
 * The request body: the whole alert, absent or null optionals left out, `source` as `dialect` spells
 * it (alert/dialect.ts); the contract's spelling, the properties' own, by default.
 */
export function toWire(args: Args, dialect: AlertingDialect = "contract"): Record<string, unknown> {
  const body = mapping(ALERT, args, SENT, "drop");
  return body.source === undefined ? body : { ...body, source: sourceOnWire(body.source, dialect) };
}

/** The answer under the properties' names, values as they came (`source` in a program's spelling); null is absent. */
export function fromWire(alert: WireAlert): State {
  return mapped(ALERT, alert.source === undefined ? alert : { ...alert, source: sourceFromWire(alert.source) }, "drop");
}

/** The alerts' path, or one alert's: its id is opaque (the service publishes no form), so only the path rules apply. */
export function alertsPath(id?: string): string {
  return memberPath("alert", ALERTS_PATH, id);
}

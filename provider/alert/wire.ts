// Answers are read liberally (members may be missing, renamed or of any shape):
// only a create answer without an id is broken.

import { z } from "../protocol/zod";
import { wireObject } from "../protocol/validation";
import { fromWire as mapped, inputNames, toWire as mapping, type ArgsOf, type StateOf } from "../protocol/definition";
import {
  ALERTS_PATH,
  emailChannelFromWire,
  sourceFromWire,
  sourceOnWire,
  withOneChannel,
  type AlertingDialect,
} from "../serviceFacts/alertRules";
import { ALERT } from "./definition";
import { memberPath } from "../http/paths";

/** Members unchecked. */
const alertAnswer = z.object({ data: wireObject });

export const createdAlert = z.object({
  data: z.object({ id: z.string().refine((id) => id.trim() !== "", { error: "the id is empty" }) }),
});

export type WireAlert = Record<string, unknown>;

export type Args = ArgsOf<typeof ALERT>;
export type State = StateOf<typeof ALERT>;

/** Undefined for a body without one (empty, plain text). */
export function alertIn(body: unknown): WireAlert | undefined {
  const parsed = alertAnswer.safeParse(body);
  return parsed.success ? parsed.data.data : undefined;
}

const SENT = inputNames(ALERT);

/**
 * Absent or null optionals left out; `source` as `dialect` spells it. `oneChannel`: a service with no
 * `channels` (managed ClickStack), sent its one channel as `channel` (the check refuses more).
 */
export function toWire(args: Args, dialect: AlertingDialect = "contract", oneChannel = false): Record<string, unknown> {
  const body = mapping(ALERT, args, SENT, "drop");
  const spelled = body.source === undefined ? body : { ...body, source: sourceOnWire(body.source, dialect) };
  return oneChannel ? withOneChannel(spelled) : spelled;
}

/** Whether the connection's service takes one `channel` only (managed ClickStack's schema). */
export function takesOneChannel(conn: { readonly gateway?: unknown }): boolean {
  return conn.gateway !== undefined;
}

/** `source` in a program's spelling; null is absent. */
export function fromWire(alert: WireAlert): State {
  const read = emailChannelFromWire(alert);
  return mapped(ALERT, read.source === undefined ? read : { ...read, source: sourceFromWire(read.source) }, "drop");
}

/** The id is opaque (the service publishes no form): only the path rules apply. */
export function alertsPath(id?: string): string {
  return memberPath("alert", ALERTS_PATH, id);
}

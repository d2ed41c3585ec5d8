// A credential's first check of a run: one read per credential and process, so a wrong key fails
// preview (which sends no write) instead of `up`. Which read, and why: docs/design/preview.md.

import { ApiError, CredentialRefusedError } from "../errors";
import { checkArgs, type CheckFailure, type Checked } from "../protocol/check";
import type { ResourceDefinition } from "../protocol/definition";
import type { RawInputs } from "../protocol/properties";
import { connectionFailures, connectionFor, type Area, type AreaConnection } from "../runtime/connection";
import { runtime } from "../runtime/runtime";
import { send } from "./client";

/** The read each kind of credential gets: the smallest answer its service's description offers. */
export function credentialRead(conn: AreaConnection): string {
  // A cloud key (managed ClickStack's included) lists its own organization: one object, no parameter.
  if (conn.area === "cloud") return "/v1/organizations";
  // An alerting token: one alert at most, whatever the team holds.
  return "/api/v2/alerts?limit=1";
}

/** No retry: a failure other than a refusal is the next request's to meet, with the whole policy. */
const ONE_ATTEMPT = { maxAttempts: 1, attemptTimeoutMs: 10_000 } as const;

/** Only a refusal of the credential fails; anything else is left to the request that needs the answer. */
async function verify(conn: AreaConnection): Promise<string | undefined> {
  try {
    await send(conn, { method: "GET", path: credentialRead(conn), retryPolicy: ONE_ATTEMPT });
    return undefined;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403))
      return new CredentialRefusedError(err).message;
    return undefined;
  }
}

/** This process's checks by credential: each one's refusal, or undefined once it passed. */
function credentialChecks(): Map<string, Promise<string | undefined>> {
  return (runtime().credentialChecks ??= new Map<string, Promise<string | undefined>>());
}

/** Once per credential in this process, whoever asks first; later askers share the answer. */
function verified(conn: AreaConnection): Promise<string | undefined> {
  const checks = credentialChecks();
  const known = checks.get(conn.credentialId);
  if (known !== undefined) return known;
  const answer = verify(conn);
  checks.set(conn.credentialId, answer);
  return answer;
}

/**
 * A read this process already had answered with the credential: its later checks send nothing. For
 * `alertpipe export`, which checks what it listed as a preview would, with the key that listed it.
 */
export function credentialAnswered(area: Area): void {
  const checks = credentialChecks();
  const conn = connectionFor(area);
  if (!checks.has(conn.credentialId)) checks.set(conn.credentialId, Promise.resolve(undefined));
}

/**
 * A check that passed, and so sent nothing yet (bad input or settings fail first), meets its
 * credential's refusal as a failure naming no property: no input is at fault.
 */
async function credentialChecked<A>(area: Area, checked: Checked<A>): Promise<Checked<A>> {
  if (!checked.ok) return checked;
  const refused = await verified(connectionFor(area));
  if (refused === undefined) return checked;
  return { ok: false, inputs: checked.inputs as RawInputs, failures: [{ property: "", reason: refused }] };
}

/**
 * A resource's check: its inputs against its definition and `crossField`, its area's connection
 * settings and `more` (each coded already), then, all passing, its credential's check.
 */
export function checkedWithCredential<A>(
  area: Area,
  def: ResourceDefinition,
  news: RawInputs,
  crossField: (inputs: RawInputs) => readonly CheckFailure[] = () => [],
  more: readonly CheckFailure[] = [],
): Promise<Checked<A>> {
  return credentialChecked(area, checkArgs<A>(def, news, crossField, [...connectionFailures(area), ...more]));
}

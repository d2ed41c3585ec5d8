// A search alert without savedSearchId, which the 2026 service refuses at `up`: check refuses it in
// preview, naming the property, when `alertpipe:alertingDialect` says "2026"; when the dialect is
// not configured (asked of the service at write time) or says "contract", check demands nothing.
// Through both doors: the dynamic provider (the environment) and the plugin (the stack's config).

import { afterEach, describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import { UNKNOWN } from "../../provider/protocol/properties";
import { checkFailures } from "../support/failures";
import { searchAlert, tileAlert } from "../support/fixtures";
import { connectionEnvPerFile } from "../support/mockApi";
import { TOKENS, nativeCalls, nativeProviderPerFile } from "../support/nativeProvider";

connectionEnvPerFile();
const native = nativeCalls(nativeProviderPerFile());
const dynamicFailures = checkFailures(alert.check);
const SAVED_SEARCH_ID = "65a000000000000000000001";
const DIALECT_ENV = "ALERTPIPE_ALERTING_DIALECT";
const fileDialect = process.env[DIALECT_ENV];

afterEach(() => {
  if (fileDialect === undefined) delete process.env[DIALECT_ENV];
  else process.env[DIALECT_ENV] = fileDialect;
});

/** The dialect through the environment (the dynamic door); undefined: not configured. */
function envDialect(dialect: string | undefined): void {
  if (dialect === undefined) delete process.env[DIALECT_ENV];
  else process.env[DIALECT_ENV] = dialect;
}

/** The properties the plugin's check names, under the stack config's dialect (undefined: not configured). */
async function nativeProperties(dialect: string | undefined, news: Record<string, unknown>): Promise<string[]> {
  delete process.env[DIALECT_ENV];
  await native.configure(dialect === undefined ? {} : { alertingDialect: dialect });
  return (await native.check(TOKENS.alert, news)).failures.map((f) => f.property);
}

const refused = { ...searchAlert };
const cases: Array<[string, string | undefined, Record<string, unknown>, string[]]> = [
  ["a search alert without it under 2026", "2026", refused, ["savedSearchId"]],
  ["a search alert with it under 2026", "2026", { ...searchAlert, savedSearchId: SAVED_SEARCH_ID }, []],
  [
    "a search alert whose saved search is still unknown under 2026",
    "2026",
    { ...searchAlert, savedSearchId: UNKNOWN },
    [],
  ],
  ["a tile alert under 2026", "2026", tileAlert, []],
  ["a search alert without it under contract", "contract", refused, []],
  ["a search alert without it, the dialect not configured", undefined, refused, []],
];

describe("savedSearchId of a search alert, by the configured dialect", () => {
  it.each(cases)("dynamic door: %s fails naming %j", async (_what, dialect, news, properties) => {
    envDialect(dialect);
    expect((await dynamicFailures(news)).map((f) => f.property)).toEqual(properties);
  });

  it.each(cases)("plugin: %s fails naming %j", async (_what, dialect, news, properties) => {
    expect(await nativeProperties(dialect, news)).toEqual(properties);
  });

  it("says why and what to set", async () => {
    envDialect("2026");
    const [failure] = await dynamicFailures(refused);
    expect(failure?.reason).toMatch(/savedSearchId is required .* "2026"/);
  });
});

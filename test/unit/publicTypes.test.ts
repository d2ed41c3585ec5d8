// The public types say what the outputs hold at run time, so a program's compiler catches what
// would otherwise fail in a deployment. These assertions are checked by `npx tsc -p tsconfig.json`
// (expectTypeOf does nothing when the test runs); each would fail on the types before issue 20:
// silenced was Output<boolean>, keyId and keySecret Output<string>, interval a plain string.

import type * as pulumi from "@pulumi/pulumi";
import { describe, expectTypeOf, it } from "vitest";
import type { Alert, AlertArgs, AlertInterval, AlertSilence, ApiKey } from "../../provider/index";
import type { getAlert, getAlerts, getSavedSearches, getWebhooks } from "../../provider/index";
import { INTERVALS } from "../../provider/serviceFacts/alertRules";

/** What an Output holds once known. */
type Held<O> = O extends pulumi.Output<infer T> ? T : never;

describe("the public types", () => {
  it("type Alert.silenced as what the service answers: absent, the object {by, at, until}, or the contract's boolean", () => {
    expectTypeOf<Held<Alert["silenced"]>>().toEqualTypeOf<AlertSilence | boolean | undefined>();
    expectTypeOf<AlertSilence>().toEqualTypeOf<{
      readonly by?: string;
      readonly at?: string;
      readonly until?: string | null;
    }>();
  });

  it("type ApiKey.keyId and keySecret as null (taken over or read by id) or undefined (hashData) as well as a string", () => {
    expectTypeOf<Held<ApiKey["keyId"]>>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Held<ApiKey["keySecret"]>>().toEqualTypeOf<string | null | undefined>();
  });

  it("type Alert.interval, argument and output, as the intervals check accepts and no other string", () => {
    expectTypeOf<AlertInterval>().toEqualTypeOf<(typeof INTERVALS)[number]>();
    expectTypeOf<AlertInterval>().toEqualTypeOf<"1m" | "5m" | "15m" | "30m" | "1h" | "6h" | "12h" | "1d">();
    expectTypeOf<Held<Alert["interval"]>>().toEqualTypeOf<AlertInterval>();
    expectTypeOf<AlertArgs["interval"]>().toEqualTypeOf<pulumi.Input<AlertInterval>>();
    expectTypeOf<"5m">().toExtend<AlertArgs["interval"]>();
    expectTypeOf<"7m">().not.toExtend<AlertArgs["interval"]>();
    expectTypeOf<string>().not.toExtend<AlertArgs["interval"]>();
  });

  it("let the list lookups, whose arguments are all optional, be called with none; the others not", () => {
    expectTypeOf<Parameters<typeof getAlerts>>().toEqualTypeOf<[args?: { name?: string }]>();
    expectTypeOf<[]>().toExtend<Parameters<typeof getWebhooks>>();
    expectTypeOf<[]>().toExtend<Parameters<typeof getSavedSearches>>();
    expectTypeOf<[]>().not.toExtend<Parameters<typeof getAlert>>();
  });
});

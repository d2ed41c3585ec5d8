// Property-based tests of check: for random values of every field, check accepts exactly the
// values the spec's rules allow, and never throws. The oracle below restates each rule on its own
// terms (from the spec and the issues), independently of the zod schemas under test.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import * as pipeSettings from "../../provider/pipeSettings/provider";
import { PIPE_SETTINGS, SETTING_NAMES } from "../../provider/serviceFacts/pipeSettings";
import { connectionEnvPerFile } from "../support/mockApi";

connectionEnvPerFile();

const RUNS = 4_000;

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Drops the properties the generator chose to leave out (undefined), as a program would. */
function present(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}

const anyJson = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const absentOr = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
const uuidish = fc.oneof(
  fc.uuid(),
  fc.uuid().map((u) => u.toUpperCase()),
  fc.uuid().map((u) => u.slice(1)),
  fc.string(),
  fc.integer(),
);

/** For every program the generator makes, `check` reports no failure exactly when `allowed` (the oracle) says the rules allow it. */
async function acceptsExactly(
  check: typeof pipeSettings.check,
  program: fc.Arbitrary<Record<string, unknown>>,
  allowed: (p: Record<string, unknown>) => boolean,
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(program, async (raw) => {
      const p = present(raw);
      const result = await check({}, p);
      expect((result.failures ?? []).length === 0).toBe(allowed(p));
    }),
    { numRuns: RUNS },
  );
}

describe("PipeSettings check, property-based", () => {
  const settingValue = (name: (typeof SETTING_NAMES)[number]) => {
    const fact = PIPE_SETTINGS[name];
    if (fact.kind === "boolean") return fc.oneof(fc.boolean(), fc.constant(null), anyJson);
    return fc.oneof(
      fc.integer({ min: fact.min - 3, max: fact.min + 3 }),
      fc.integer({ min: fact.max - 3, max: fact.max + 3 }),
      fc.integer({ min: fact.min, max: fact.max }),
      fc.double({ min: fact.min, max: fact.max }),
      fc.constant(null),
      anyJson,
    );
  };
  const program = fc.record({
    organizationId: fc.oneof(fc.uuid(), uuidish),
    serviceId: fc.oneof(fc.uuid(), uuidish),
    pipeId: fc.oneof(fc.uuid(), uuidish),
    ...Object.fromEntries(SETTING_NAMES.map((n) => [n, absentOr(settingValue(n))])),
  });

  function allowed(p: Record<string, unknown>): boolean {
    const idsOk = ["organizationId", "serviceId", "pipeId"].every(
      (k) => typeof p[k] === "string" && UUID_TEXT.test(p[k]),
    );
    const set = SETTING_NAMES.filter((n) => n in p);
    const valuesOk = set.every((n) => {
      const v = p[n];
      const fact = PIPE_SETTINGS[n];
      // kafkaReadCommitted's published type is a plain boolean: no null (serviceFacts' unsetAs).
      if (v === null) return fact.kind !== "boolean" || !("unsetAs" in fact);
      if (fact.kind === "boolean") return typeof v === "boolean";
      return typeof v === "number" && Number.isInteger(v) && v >= fact.min && v <= fact.max;
    });
    return idsOk && valuesOk && set.length > 0;
  }

  it("accepts exactly the programs inside the spec's rules", () =>
    acceptsExactly(pipeSettings.check, program, allowed));
});

describe("Alert check, property-based", () => {
  const interval = fc.oneof(
    fc
      .tuple(fc.integer({ min: 0, max: 1000 }), fc.constantFrom("s", "m", "h", "d", "w", "M", ""))
      .map(([n, u]) => `${n}${u}`),
    fc.stringMatching(/^[0-9]{1,3}[smhdx ]?$/),
    fc.constantFrom("1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"),
    anyJson,
  );
  const opaque = fc.oneof(
    fc.string({ minLength: 1 }).filter((s) => s.trim() !== ""),
    fc.constant(""),
    fc.constant("   "),
    fc.integer(),
  );
  const program = fc.record({
    threshold: fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.string(),
      fc.constant(null),
    ),
    interval,
    source: fc.oneof(fc.constantFrom("tile", "search"), fc.string()),
    thresholdType: fc.oneof(fc.constantFrom("above", "below"), fc.string()),
    channel: fc.oneof(fc.record({ type: fc.oneof(fc.constant("webhook"), fc.string()), webhookId: opaque }), anyJson),
    dashboardId: absentOr(opaque),
    tileId: absentOr(opaque),
    name: absentOr(fc.oneof(fc.string(), fc.integer(), fc.string({ minLength: 510, maxLength: 514 }))),
    message: absentOr(fc.oneof(fc.string(), fc.integer(), fc.string({ minLength: 4094, maxLength: 4098 }))),
  });

  /** The real service's rules (real-services.md), restated: an interval from its list, a finite threshold, texts of 1 to N UTF-16 units. */
  const INTERVALS = ["1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"];
  const textWithin = (v: unknown, max: number) => typeof v === "string" && v.length >= 1 && v.length <= max;

  const nonEmpty = (v: unknown) => typeof v === "string" && v.trim() !== "";

  function allowed(p: Record<string, unknown>): boolean {
    const channel = p.channel as Record<string, unknown> | null;
    return (
      typeof p.threshold === "number" &&
      Number.isFinite(p.threshold) &&
      typeof p.interval === "string" &&
      INTERVALS.includes(p.interval) &&
      (p.source === "tile" || p.source === "search") &&
      typeof p.thresholdType === "string" &&
      ["above", "below", "above_exclusive", "below_or_equal", "equal", "not_equal"].includes(p.thresholdType) &&
      typeof channel === "object" &&
      channel !== null &&
      channel.type === "webhook" &&
      nonEmpty(channel.webhookId) &&
      (!("dashboardId" in p) || nonEmpty(p.dashboardId)) &&
      (!("tileId" in p) || nonEmpty(p.tileId)) &&
      (!("name" in p) || textWithin(p.name, 512)) &&
      (!("message" in p) || textWithin(p.message, 4096)) &&
      (p.source !== "tile" || ("dashboardId" in p && "tileId" in p))
    );
  }

  it("accepts exactly the programs inside the spec's rules", () => acceptsExactly(alert.check, program, allowed));
});

describe("ApiKey check, property-based", () => {
  const octet = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 250, max: 300 }));
  const source = fc.oneof(
    fc.tuple(octet, octet, octet, octet).map((o) => o.join(".")),
    fc
      .tuple(octet, octet, octet, octet, fc.integer({ min: 0, max: 40 }))
      .map(([a, b, c, d, p]) => `${a}.${b}.${c}.${d}/${p}`),
    fc.constantFrom("::1", "10.0.0", "1.2.3.4/", "01.2.3.4", ""),
    anyJson,
  );
  const dateTime = fc.oneof(
    fc
      .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString()),
    fc
      .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 19)),
    fc
      .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    fc
      .tuple(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 1, max: 32 }), fc.integer({ min: 0, max: 25 }))
      .map(
        ([mo, d, h]) =>
          `2031-${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")}T${String(h).padStart(2, "0")}:00:00+02:00`,
      ),
    fc.constantFrom(
      null,
      "",
      "2030-01-31T09:00Z",
      "2030-01-31t09:00:00z",
      "2030-01-31T09:00:00+24:00",
      "2030-01-31T09:00:00+0200",
      "2032-02-29T00:00:00Z",
      "2031-02-29T00:00:00Z",
    ),
    anyJson,
  );
  const program = fc.record({
    organizationId: uuidish,
    roles: fc.oneof(
      fc.array(fc.oneof(fc.constantFrom("admin", "developer", "query_endpoints"), fc.string()), { maxLength: 4 }),
      anyJson,
    ),
    name: absentOr(fc.oneof(fc.string(), fc.integer())),
    expireAt: absentOr(dateTime),
    state: absentOr(fc.oneof(fc.constantFrom("enabled", "disabled"), fc.string())),
    ipAccessList: absentOr(
      fc.array(fc.record({ source, description: fc.oneof(fc.string(), fc.integer()) }), { maxLength: 3 }),
    ),
  });

  /** A real instant written with its zone: the calendar fields must survive a round trip through Date. */
  function zonedDateTime(v: string): boolean {
    // RFC 3339: seconds required, upper-case T and Z, offset hours below 24.
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/.exec(v);
    if (!m) return false;
    const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const day = new Date(Date.UTC(y, mo - 1, d));
    const zoneOk = m[7] === "Z" || (Number(m[8]) < 24 && Number(m[9]) < 60);
    return day.getUTCMonth() === mo - 1 && day.getUTCDate() === d && h < 24 && mi < 60 && s < 60 && zoneOk;
  }

  function ipv4(v: string): boolean {
    const [addr, prefix, ...rest] = v.split("/");
    if (rest.length > 0 || addr === undefined) return false;
    const parts = addr.split(".");
    const octets = parts.length === 4 && parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
    return octets && (prefix === undefined || (/^(0|[1-9][0-9]?)$/.test(prefix) && Number(prefix) <= 32));
  }

  function allowed(p: Record<string, unknown>): boolean {
    const roles = p.roles;
    const rolesOk =
      Array.isArray(roles) &&
      roles.length > 0 &&
      roles.every((r) => r === "admin" || r === "developer" || r === "query_endpoints") &&
      new Set(roles).size === roles.length;
    const list = p.ipAccessList as Array<{ source: unknown; description: unknown }> | undefined;
    return (
      typeof p.organizationId === "string" &&
      UUID_TEXT.test(p.organizationId) &&
      rolesOk &&
      (!("name" in p) || typeof p.name === "string") &&
      (!("expireAt" in p) ||
        p.expireAt === null ||
        p.expireAt === "" ||
        // A new key's expiry must also be still to come (issue 24).
        (typeof p.expireAt === "string" && zonedDateTime(p.expireAt) && Date.parse(p.expireAt) > Date.now())) &&
      (!("state" in p) || p.state === "enabled" || p.state === "disabled") &&
      (list === undefined ||
        (list.length > 0 &&
          list.every((e) => typeof e.source === "string" && ipv4(e.source) && typeof e.description === "string")))
    );
  }

  it("accepts exactly the programs inside the spec's rules", () => acceptsExactly(apiKey.check, program, allowed));
});

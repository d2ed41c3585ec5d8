// Webhook and SavedSearch checks: each of the service's rules fails check naming the property,
// before any request (check sends none), and a secret's value is never shown.

import { describe, expect, it } from "vitest";
import * as webhook from "../../provider/webhook/provider";
import * as search from "../../provider/savedSearch/provider";
import { UNKNOWN } from "../../provider/protocol/properties";
import { checkFailures, where } from "../support/failures";
import { connectionEnvPerFile } from "../support/mockApi";

connectionEnvPerFile();

const hook = { name: "ops", service: "generic", url: "https://hooks.example.com/x" };
const slack = { name: "ops", service: "slack", url: "https://hooks.slack.com/services/T/B/x" };
const saved = { name: "errors", sourceId: "65a000000000000000000001" };
const hookFailures = checkFailures(webhook.check);
const searchFailures = checkFailures(search.check);
/** The property each failure names (one at a secret input names it in its reason only). */
const properties = async (failures: Promise<{ property: string; reason: string }[]>) =>
  (await failures).map((f) => where(f));

describe("Webhook check", () => {
  it("accepts a generic webhook with headers, queryParams and a body", async () => {
    expect(await hookFailures({ ...hook, headers: { "X-Token": "t" }, queryParams: { k: "v" }, body: "{}" })).toEqual(
      [],
    );
  });

  it.each([
    ["name", { name: "   " }],
    ["name", { name: "x".repeat(1025) }],
    ["service", { service: "teams" }],
    ["url", { url: "not a url" }],
    ["url", { url: "ftp://example.com/" }],
    ["url", { url: "http://192.168.1.10/hook" }],
    ["url", { url: "http://[fe80::1]/" }],
    ["url", { url: "http://localhost/" }],
    ["url", { url: `https://example.com/${"x".repeat(2048)}` }],
    ["description", { description: "x".repeat(2049) }],
    ["body", { body: "x".repeat(16385) }],
    ["headers", { headers: { "1abc": "x" } }],
    ["headers", { headers: { "a:b": "x" } }],
    ["headers", { headers: { A: "x\r\ny" } }],
    ["headers", { headers: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`h${i}`, "v"])) }],
    ["queryParams", { queryParams: { "": "x" } }],
    ["queryParams", { queryParams: { k: "\u0000" } }],
    ["importId", { importId: "" }],
    ["importId", { importId: "../alerts" }],
  ])("fails naming %s for %j", async (property, change) => {
    expect(await properties(hookFailures({ ...hook, ...change }))).toEqual([property]);
  });

  it("accepts an importId, the id of a webhook to take over", async () => {
    expect(await hookFailures({ ...hook, importId: "65a0000000000000000000aa" })).toEqual([]);
  });

  it.each(["headers", "queryParams", "body"])("refuses %s on a slack webhook, naming it", async (property) => {
    const value = property === "body" ? "{}" : { a: "b" };
    expect(await properties(hookFailures({ ...slack, [property]: value }))).toEqual([property]);
  });

  it("refuses a slack webhook whose host does not end in slack.com", async () => {
    const failures = await hookFailures({ ...slack, url: "https://evilslack.com/x" });
    expect(failures).toEqual([{ property: "url", reason: expect.stringContaining("slack.com") }]);
  });

  it("demands nothing of a slack webhook's url or headers while the service is unknown", async () => {
    expect(await hookFailures({ ...slack, service: UNKNOWN, headers: { a: "b" } })).toEqual([]);
  });

  // The engine prints `property P value {V}` with P's value in plain text, even a secret one.
  it.each(["headers", "queryParams"])("gives the engine no secret %s to print beside a failure", async (property) => {
    const failures = await hookFailures({ ...slack, [property]: { a: "s3cret" } });
    expect(failures).toEqual([{ property: "", reason: expect.stringMatching(new RegExp(`^${property} `)) }]);
  });

  it("never shows a header's value in a failure", async () => {
    const failures = await hookFailures({ ...hook, headers: { A: "s3cret\n" } });
    expect(JSON.stringify(failures)).not.toContain("s3cret");
  });
});

describe("SavedSearch check", () => {
  it("accepts renderable filters and every field", async () => {
    const filters = [
      { condition: "A IN ('x', 'y')" },
      { type: "sql", condition: "B NOT IN (1)" },
      { condition: "C BETWEEN 1 AND 5" },
    ];
    const all = { ...saved, select: "a", where: "b", whereLanguage: "sql", orderBy: "c", tags: ["t"], filters };
    expect(await searchFailures(all)).toEqual([]);
  });

  it.each([
    ["name", { name: " " }],
    ["sourceId", { sourceId: "logs" }],
    ["select", { select: "x".repeat(4097) }],
    ["where", { where: "x".repeat(8193) }],
    ["whereLanguage", { whereLanguage: "kql" }],
    ["orderBy", { orderBy: "x".repeat(1025) }],
    ["tags", { tags: Array.from({ length: 51 }, () => "t") }],
    ["filters", { filters: [{ condition: "ServiceName = 'x'" }] }],
    ["filters", { filters: [{ condition: "a IN ('x') AND b = 1" }] }],
    ["filters", { filters: [{ condition: "a IN ('x') AND b IN ('y')" }] }],
    ["filters", { filters: [{ condition: "t BETWEEN '2024-01-01' AND '2024-02-01'" }] }],
    ["importId", { importId: "" }],
    ["importId", { importId: "a/b" }],
  ])("fails naming %s for %j", async (property, change) => {
    expect(await properties(searchFailures({ ...saved, ...change }))).toEqual([property]);
  });

  it("accepts an importId, the id of a search to take over", async () => {
    expect(await searchFailures({ ...saved, importId: "65a0000000000000000000bb" })).toEqual([]);
  });

  it.each([
    [{ type: "lucene", condition: "level:error" }],
    [{ type: "sql_ast", operator: "=", left: "a", right: "b" }],
  ])("refuses a %j filter, which the service refuses on create", async (filter) => {
    expect((await searchFailures({ ...saved, filters: [filter] })).length).toBeGreaterThan(0);
  });
});

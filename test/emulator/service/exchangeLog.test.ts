// The exchange log (emulator/exchangeLog.ts): what `npm run test:openapi` reads of each exchange,
// and that no credential is in it.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { LoggedExchange } from "../../../emulator/exchangeLog";
import { DELIBERATE, alerting, call, createKey, start, validAlert } from "./helpers";

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((f) => rmSync(f, { recursive: true, force: true })));

function logFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "exchanges-"));
  folders.push(dir);
  return join(dir, "exchanges.jsonl");
}

const read = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as LoggedExchange);

describe("the exchange log", () => {
  it("holds each request and its answer, the Authorization header as its scheme alone", async () => {
    const file = logFile();
    const emu = await start({ exchangeLog: file, mode: "2026" });
    await alerting(emu, "GET", "/api/v2/alerts?limit=5");
    const [exchange] = read(file);
    expect(exchange?.dialects).toEqual({ alerting: "2026", cloud: "contract" });
    expect(exchange?.request).toEqual({
      method: "GET",
      path: "/api/v2/alerts",
      query: [["limit", "5"]],
      headers: { authorization: "Bearer", contentType: "application/json" },
    });
    expect(exchange?.answer?.status).toBe(200);
    expect(exchange?.answer?.headers).toMatchObject({ "content-type": "application/json", "ratelimit-limit": "100" });
    expect(exchange?.answer?.body).toEqual({ data: [], meta: { total: 0, limit: 5, offset: 0 } });
    expect(readFileSync(file, "utf8")).not.toContain(emu.token);
  });

  it("never holds a key secret: a create's answer has it as a placeholder", async () => {
    const file = logFile();
    const emu = await start({ exchangeLog: file });
    const made = await createKey(emu, randomUUID());
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(made.keySecret);
    expect(text).not.toContain(emu.keySecret);
    expect(read(file)[0]?.answer?.body).toMatchObject({ result: { keySecret: "(secret)" } });
  });

  it("marks a request sent wrong on purpose, and keeps a body that is not JSON as text", async () => {
    const file = logFile();
    const emu = await start({ exchangeLog: file });
    await call(emu, "POST", "/api/v2/alerts", { body: "{not json", auth: `Bearer ${emu.token}` });
    await fetch(`${emu.url}/api/v2/alerts`, { method: "POST", headers: DELIBERATE, body: JSON.stringify(validAlert) });
    const [notJson, deliberate] = read(file);
    expect(notJson?.request.text).toBe("{not json");
    expect(notJson?.request.headers.deliberate).toBeUndefined();
    expect(deliberate?.request.headers).toEqual({ deliberate: "invalid", contentType: "text/plain;charset=UTF-8" });
    expect(deliberate?.answer?.status).toBe(401);
  });

  it("names the test that was running", async () => {
    const file = logFile();
    const emu = await start({ exchangeLog: file });
    await alerting(emu, "GET", "/api/v2/alerts");
    expect(read(file)[0]?.tag).toBe(
      "test/emulator/service/exchangeLog.test.ts > the exchange log > names the test that was running",
    );
  });
});

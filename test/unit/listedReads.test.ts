// Where a list cannot serve a read as its GET would (provider/reading/listedReads.ts,
// docs/design/reading.md): a listing's failure and its secrets, a service without a list, and an
// older alerting service that answers every alert at once.

import { describe, expect, it } from "vitest";
import * as alert from "../../provider/alert/provider";
import * as apiKey from "../../provider/apiKey/provider";
import { ALERT_LIST_PAGE_MAX } from "../../provider/serviceFacts/alertRules";
import { answerOnce, cloudAnswer, errorText, mockApiPerTest } from "../support/mockApi";
import { ALERTS_PATH, KEYS_PATH, KEY_UUID, storedKey } from "../support/fixtures";

const mock = mockApiPerTest();

const OTHER_UUID = "9b2c1f7e-0d4a-4e8b-8a61-3c5d7e9f1a2b";
const OTHER_SECRET = "other-secret-CANARY-5d1e";

/** A key as the service answers it, under `id`. */
const wireKey = (id: string, name: string) => ({ id, name, roles: ["developer"], state: "enabled" });

/** The organization's key list, answered once with `keys`. */
const keysListed = (...keys: unknown[]) =>
  answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEYS_PATH }, 200, cloudAnswer(keys));

describe("a listing's failure", () => {
  it("names the list and carries the secret of no read waiting on it", async () => {
    // The service's words echo both keys' secrets, as a careless service might; the answer takes
    // a while, and the second read joins once the list request is on its way.
    let lists = 0;
    mock.api.cloud
      .intercept({ method: "GET", path: KEYS_PATH })
      .reply(() => {
        lists += 1;
        return {
          statusCode: 400,
          data: JSON.stringify({ status: 400, error: `BAD_REQUEST: ${storedKey.keySecret} ${OTHER_SECRET}` }),
          responseOptions: { headers: { "content-type": "application/json" } },
        };
      })
      .delay(100);
    const first = apiKey.read(KEY_UUID, storedKey);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = apiKey.read(OTHER_UUID, { ...storedKey, keySecret: OTHER_SECRET });
    const reads = await Promise.allSettled([first, second]);
    expect(lists).toBe(1);
    for (const r of reads) {
      expect(r.status).toBe("rejected");
      const text = errorText(r.status === "rejected" ? r.reason : undefined);
      expect(text).toContain(`GET ${KEYS_PATH}`);
      expect(text).not.toContain(storedKey.keySecret);
      expect(text).not.toContain(OTHER_SECRET);
    }
  });

  it("is not kept: the next read lists again", async () => {
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEYS_PATH }, 403, { status: 403, error: "FORBIDDEN" });
    keysListed(wireKey(KEY_UUID, "x"));
    await expect(apiKey.read(KEY_UUID, storedKey)).rejects.toThrow(/403/);
    expect((await apiKey.read(KEY_UUID, storedKey)).props?.name).toBe("x");
    expect(mock.seen.map((r) => r.path)).toEqual([KEYS_PATH, KEYS_PATH]);
  });
});

describe("a service without a usable list", () => {
  it("answering 404 to the list: each read sends its GET, and the list is not asked again", async () => {
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEYS_PATH }, 404, { status: 404, error: "NOT_FOUND" });
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: `${KEYS_PATH}/${KEY_UUID}` }, 200, {
      status: 200,
      result: wireKey(KEY_UUID, "one"),
    });
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: `${KEYS_PATH}/${OTHER_UUID}` }, 404, {
      status: 404,
      error: "NOT_FOUND",
    });
    expect((await apiKey.read(KEY_UUID, storedKey)).props?.name).toBe("one");
    expect(await apiKey.read(OTHER_UUID, storedKey)).toEqual({});
    expect(mock.seen.map((r) => r.path)).toEqual([KEYS_PATH, `${KEYS_PATH}/${KEY_UUID}`, `${KEYS_PATH}/${OTHER_UUID}`]);
  });

  it("answering the list in a shape that is not one: the read sends its GET", async () => {
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: KEYS_PATH }, 200, "plain text, not a list");
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: `${KEYS_PATH}/${KEY_UUID}` }, 200, {
      status: 200,
      result: wireKey(KEY_UUID, "one"),
    });
    expect((await apiKey.read(KEY_UUID, storedKey)).props?.name).toBe("one");
    expect(mock.seen.map((r) => r.path)).toEqual([KEYS_PATH, `${KEYS_PATH}/${KEY_UUID}`]);
  });
});

describe("an id in another letter case than the list's", () => {
  it("is read with its GET, which the service may answer", async () => {
    const upper = KEY_UUID.toUpperCase();
    keysListed(wireKey(KEY_UUID, "x"));
    answerOnce(mock.api.cloud, mock.seen, { method: "GET", path: `${KEYS_PATH}/${upper}` }, 200, {
      status: 200,
      result: wireKey(KEY_UUID, "by GET"),
    });
    expect((await apiKey.read(upper, storedKey)).props?.name).toBe("by GET");
  });
});

describe("an older alerting service, which ignores limit and offset", () => {
  it("answering more alerts than a page at once is listed in one request", async () => {
    const many = Array.from({ length: ALERT_LIST_PAGE_MAX + 2 }, (_, i) => ({
      id: `a${String(i).padStart(23, "0")}`,
      threshold: i,
    }));
    let pages = 0;
    mock.api.alerting
      .intercept({ method: "GET", path: (p) => p.startsWith(`${ALERTS_PATH}?`) })
      .reply(() => {
        pages += 1;
        return { statusCode: 200, data: JSON.stringify({ data: many }) };
      })
      .persist();
    const last = many[many.length - 1];
    expect((await alert.read(last?.id ?? "", {})).props?.threshold).toBe(last?.threshold);
    expect(await alert.read("f".repeat(24), {})).toEqual({});
    expect(pages).toBe(1);
  });
});

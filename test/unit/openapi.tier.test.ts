// The API-description tier's own rules (test/support/openapi/), on small documents made here, so
// they hold in `npm test` without the services' documents: the tier itself runs after it
// (`npm run test:openapi`, test/openapi/).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LoggedExchange } from "../../emulator/exchangeLog";
import { contractOperations } from "../support/openapi/contract";
import { listedDifferences } from "../support/openapi/differences";
import { OPENAPI_DIR_ENV, loadDocuments, type OpenApiDocument } from "../support/openapi/documents";
import { ExchangeValidator } from "../support/openapi/validation";

// HyperDX's document is OpenAPI 3.0: nullable, allOf, a discriminator with a mapping.
const hyperdx: OpenApiDocument = {
  openapi: "3.0.0",
  security: [{ BearerAuth: [] }],
  components: {
    securitySchemes: { BearerAuth: { type: "http", scheme: "bearer" } },
    schemas: {
      Base: {
        type: "object",
        properties: { name: { type: "string", nullable: true }, channel: { $ref: "#/components/schemas/Channel" } },
      },
      Channel: {
        oneOf: [{ $ref: "#/components/schemas/Webhook" }],
        discriminator: { propertyName: "type", mapping: { webhook: "#/components/schemas/Webhook" } },
      },
      Webhook: {
        type: "object",
        required: ["type"],
        properties: { type: { type: "string", enum: ["webhook"] }, webhookId: { type: "string" } },
      },
      Create: {
        allOf: [
          { $ref: "#/components/schemas/Base" },
          { type: "object", required: ["threshold"], properties: { threshold: { type: "number" } } },
        ],
      },
    },
  },
  paths: {
    "/api/v2/alerts": {
      post: {
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Create" } } } },
        responses: {
          "200": {
            content: {
              "application/json": {
                schema: { type: "object", properties: { data: { $ref: "#/components/schemas/Create" } } },
              },
            },
          },
        },
      },
    },
  },
};
// The Cloud's is 3.1: JSON Schema's own `type: [X, "null"]`.
const cloud: OpenApiDocument = {
  openapi: "3.1.0",
  security: [{ basicAuth: [] }],
  components: { securitySchemes: { basicAuth: { type: "http", scheme: "basic" } } },
  paths: {
    "/v1/organizations/{organizationId}/services/{serviceId}/clickpipes/{clickPipeId}/settings": {
      put: {
        requestBody: {
          content: {
            "application/json": {
              schema: { type: "object", properties: { clickhouse_max_threads: { type: ["integer", "null"] } } },
            },
          },
        },
        responses: {
          "200": {
            content: {
              "application/json": {
                schema: { type: "object", properties: { clickhouse_max_threads: { type: ["integer", "null"] } } },
              },
            },
          },
        },
      },
    },
  },
};

const validator = new ExchangeValidator({ hyperdx, cloud });
const uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
const SETTINGS = `/v1/organizations/${uuid}/services/${uuid}/pipes/${uuid}/settings`;

function exchange(
  method: string,
  path: string,
  body: unknown,
  options: { alerting?: string; authorization?: string; deliberate?: boolean; answer?: unknown } = {},
): LoggedExchange {
  return {
    at: 0,
    dialects: { alerting: options.alerting ?? "2026", cloud: "contract" },
    request: {
      method,
      path,
      query: [],
      headers: {
        authorization: options.authorization ?? (path.startsWith("/v1/") ? "Basic" : "Bearer"),
        ...(options.deliberate === true ? { deliberate: "invalid" } : {}),
      },
      body,
    },
    ...(options.answer !== undefined
      ? { answer: { status: 200, headers: { "content-type": "application/json" }, body: options.answer } }
      : {}),
  };
}

const findings = (e: LoggedExchange) =>
  validator.check(e).findings.map((f) => `${f.operation} | ${f.part} | ${f.finding}`);
const alert = { threshold: 1, name: null, channel: { type: "webhook", webhookId: "w" } };

/** An alert as the contract's own API takes it, of this source. */
const contractAlert = (source: string) => ({
  threshold: 1,
  interval: "5m",
  source,
  thresholdType: "above",
  channel: { type: "webhook", webhookId: "w" },
});

describe("request validation", () => {
  it("takes a body its operation's schema declares, composed by allOf, nullable as 3.0 says", () => {
    expect(findings(exchange("POST", "/api/v2/alerts", alert))).toEqual([]);
  });

  it("finds a member no schema declares, at the top and inside a oneOf, though no schema closes itself", () => {
    expect(
      findings(exchange("POST", "/api/v2/alerts", { ...alert, extra: 1, channel: { type: "webhook", hook: "x" } })),
    ).toEqual([
      'POST /api/v2/alerts (hyperdx) | request | /channel: member "hook" not declared',
      'POST /api/v2/alerts (hyperdx) | request | /: member "extra" not declared',
    ]);
  });

  it("finds a value of the wrong kind, a missing required member, and the wrong security scheme", () => {
    expect(findings(exchange("POST", "/api/v2/alerts", { name: 5 }, { authorization: "Basic" }))).toEqual([
      "POST /api/v2/alerts (hyperdx) | request | authorization Basic, not bearer",
      "POST /api/v2/alerts (hyperdx) | request | /name: must be string,null",
      "POST /api/v2/alerts (hyperdx) | request | /: must have required property 'threshold'",
    ]);
  });

  it("finds a request no operation describes", () => {
    expect(findings(exchange("GET", "/api/v2", undefined))).toEqual([
      "GET /api/v2 (hyperdx) | request | no such operation",
    ]);
  });

  it("leaves a request sent wrong on purpose out", () => {
    expect(
      validator.check(exchange("POST", "/api/v2/alerts", { name: 5 }, { deliberate: true })).requestValidated,
    ).toBe(false);
  });

  it("checks the contract's own operations against spec/interfaces.md, closed", () => {
    const contract = contractAlert("search");
    expect(findings(exchange("POST", "/api/v2/alerts", contract, { alerting: "contract" }))).toEqual([]);
    expect(
      findings(exchange("POST", "/api/v2/alerts", { ...contract, savedSearchId: "s" }, { alerting: "contract" })),
    ).toEqual(['POST /api/v2/alerts (interfaces.md A1) | request | /: member "savedSearchId" not declared']);
    expect(findings(exchange("PUT", SETTINGS, { db_max_threads: 65 }))).toEqual([
      "PUT /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings (interfaces.md B1) | request | /db_max_threads: must be <= 64",
    ]);
  });

  it("maps the contract's other requests to their public counterparts: pipes, db_, search", () => {
    const get = exchange("GET", SETTINGS, undefined);
    expect(findings(get)).toEqual([
      "GET /v1/organizations/{organizationId}/services/{serviceId}/clickpipes/{clickPipeId}/settings (cloud) | request | no such operation",
    ]);
  });
});

describe("answer validation", () => {
  it("validates the 2026 mode's answers, closed as requests are", () => {
    expect(findings(exchange("POST", "/api/v2/alerts", alert, { answer: { data: alert } }))).toEqual([]);
    expect(findings(exchange("POST", "/api/v2/alerts", alert, { answer: { data: { ...alert, team: "t" } } }))).toEqual([
      'POST /api/v2/alerts (hyperdx) | answer 200 | /data: member "team" not declared',
    ]);
  });

  it("validates the ClickHouse Cloud mode's answers, known by their path", () => {
    const path = SETTINGS.replace("/pipes/", "/clickpipes/");
    const put = exchange("PUT", path, { clickhouse_max_threads: 8 }, { answer: { clickhouse_max_threads: 8 } });
    expect(validator.check(put)).toEqual({ findings: [], requestValidated: true, answerValidated: true });
    expect(findings({ ...put, answer: { status: 200, headers: {}, body: "8" } })).toEqual([
      `PUT /v1/organizations/{organizationId}/services/{serviceId}/clickpipes/{clickPipeId}/settings (cloud) | answer 200 | /: must be object`,
    ]);
  });

  it("leaves the contract mode's answers alone", () => {
    const contract = contractAlert("tile");
    expect(
      validator.check(exchange("POST", "/api/v2/alerts", contract, { alerting: "contract", answer: { odd: 1 } }))
        .answerValidated,
    ).toBe(false);
  });
});

describe("the documents and the table", () => {
  it(`names where the documents come from publicly, and ${OPENAPI_DIR_ENV}, when they are missing`, () => {
    const empty = mkdtempSync(join(tmpdir(), "no-openapi-"));
    try {
      expect(() => loadDocuments(empty)).toThrow(
        /hyperdxio\/hyperdx` `packages\/api\/openapi\.json[\s\S]*ClickHouse\/clickhousectl` `crates\/clickhouse-cloud-api\/clickhouse_cloud_openapi\.json/,
      );
      expect(() => loadDocuments(empty)).toThrow(OPENAPI_DIR_ENV);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("reads the contract's three operations from spec/interfaces.md", () => {
    expect(contractOperations().map((op) => `${op.method} ${op.template} ${op.scheme}`)).toEqual([
      "POST /api/v2/alerts Bearer",
      "PUT /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings Basic",
      "POST /v1/organizations/{organizationId}/keys Basic",
    ]);
  });

  it("gives every row of the differences table its reason", () => {
    const rows = listedDifferences();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.why.length < 10)).toEqual([]);
  });
});

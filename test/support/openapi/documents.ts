// The services' own API descriptions, read where ALERTPIPE_OPENAPI_DIR says (default
// ../shared/spec/openapi beside the clone). They are never copied into the repository.

import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { repoRoot } from "../../../scripts/packedPackage";

export const OPENAPI_DIR_ENV = "ALERTPIPE_OPENAPI_DIR";

export const DOCUMENTS = {
  hyperdx: {
    file: "hyperdx-v2.openapi.json",
    source: "`hyperdxio/hyperdx` `packages/api/openapi.json` (at b52a6fa)",
  },
  cloud: {
    file: "clickhouse-cloud.openapi.json",
    source: "`ClickHouse/clickhousectl` `crates/clickhouse-cloud-api/clickhouse_cloud_openapi.json`",
  },
} as const;

export type DocumentName = keyof typeof DOCUMENTS;

/** An OpenAPI document as far as this tier reads it. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, SecurityScheme> };
  security?: Record<string, unknown>[];
}

export interface SecurityScheme {
  type: string;
  scheme?: string;
}

export interface OpenApiOperation {
  security?: Record<string, unknown>[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

export function openApiDir(): string {
  return resolve(repoRoot(), process.env[OPENAPI_DIR_ENV] || "../shared/spec/openapi");
}

/** Both documents, or an error naming where they come from publicly and the variable that points at them. */
export function loadDocuments(dir = openApiDir()): Record<DocumentName, OpenApiDocument> {
  const missing = Object.values(DOCUMENTS).filter((d) => !existsSync(resolve(dir, d.file)));
  if (missing.length > 0) {
    throw new Error(
      [
        `the services' API descriptions are not in ${dir}: missing ${missing.map((d) => d.file).join(", ")}.`,
        "They are public and not part of this repository; put them in one folder and point " +
          `${OPENAPI_DIR_ENV} at it (default ../shared/spec/openapi from the repository's root):`,
        ...Object.values(DOCUMENTS).map((d) => `  ${d.file}: ${d.source}`),
      ].join("\n"),
    );
  }
  const read = (name: DocumentName) =>
    JSON.parse(readFileSync(resolve(dir, DOCUMENTS[name].file), "utf8")) as OpenApiDocument;
  return { hyperdx: read("hyperdx"), cloud: read("cloud") };
}

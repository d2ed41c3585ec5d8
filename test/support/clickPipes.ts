// ClickPipe programs the tests share: one valid program per source kind, as the Cloud description
// requires each (docs/design/clickpipes.md), and the service they go on.

import { afterAll, beforeAll } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { postBody, type Args } from "../../provider/clickPipe/wire";
import { PIPE_IDS } from "./fixtures";

export const PIPE_SERVICE = { organizationId: PIPE_IDS.organizationId, serviceId: PIPE_IDS.serviceId };

const streamingDestination = {
  database: "default",
  table: "events",
  managedTable: true,
  tableDefinition: { engine: { type: "MergeTree" } },
  columns: [
    { name: "id", type: "String" },
    { name: "at", type: "DateTime" },
  ],
};
const fieldMappings = [
  { sourceField: "id", destinationField: "id" },
  { sourceField: "ts", destinationField: "at" },
];

/** A valid program of each kind, with the credentials its authentication needs. */
export const PROGRAMS = {
  kafka: {
    ...PIPE_SERVICE,
    name: "orders",
    source: {
      kafka: {
        type: "confluent",
        format: "AvroConfluent",
        brokers: "broker-1:9092",
        topics: "orders",
        authentication: "PLAIN",
        offset: { strategy: "from_beginning" },
        schemaRegistry: { url: "https://registry.example.com", authentication: "PLAIN" },
      },
    },
    credentials: {
      username: "kafka-user",
      password: "kafka-password-1",
      schemaRegistryUsername: "sr-user-1",
      schemaRegistryPassword: "sr-password-1",
    },
    destination: streamingDestination,
    fieldMappings,
    scaling: { replicas: 2, replicaCpuMillicores: 500, replicaMemoryGb: 2 },
    settings: { streamingMaxInsertWaitMs: 1000, kafkaReadCommitted: true },
  },
  kinesis: {
    ...PIPE_SERVICE,
    name: "clicks",
    source: {
      kinesis: {
        format: "JSONEachRow",
        streamName: "clicks",
        region: "us-east-1",
        iteratorType: "LATEST",
        authentication: "IAM_USER",
      },
    },
    credentials: { accessKeyId: "AKIAEXAMPLE", secretKey: "kinesis-secret-1" },
    destination: streamingDestination,
    fieldMappings,
  },
  objectStorage: {
    ...PIPE_SERVICE,
    name: "logs",
    source: {
      objectStorage: {
        type: "s3",
        format: "JSONEachRow",
        url: "https://bucket.s3.amazonaws.com/logs/*.json",
        authentication: "IAM_ROLE",
        iamRole: "arn:aws:iam::123456789012:role/pipes",
      },
    },
    destination: streamingDestination,
    fieldMappings,
  },
  pubsub: {
    ...PIPE_SERVICE,
    name: "signals",
    source: {
      pubsub: {
        format: "JSONEachRow",
        projectId: "proj",
        topic: "signals",
        authentication: "SERVICE_ACCOUNT",
        seekType: "latest",
      },
    },
    credentials: { serviceAccountKey: "eyJrZXkiOiJzZWNyZXQifQ==" },
    destination: streamingDestination,
    fieldMappings,
  },
  postgres: {
    ...PIPE_SERVICE,
    name: "pg-cdc",
    source: {
      postgres: {
        host: "db.example.com",
        port: 5432,
        database: "app",
        settings: { replicationMode: "cdc" },
        tableMappings: [{ sourceSchemaName: "public", sourceTable: "users", targetTable: "public_users" }],
      },
    },
    credentials: { username: "replicator", password: "pg-password-1" },
    destination: { database: "default" },
  },
  mysql: {
    ...PIPE_SERVICE,
    name: "my-cdc",
    source: {
      mysql: {
        host: "mysql.example.com",
        port: 3306,
        settings: { replicationMode: "cdc" },
        tableMappings: [{ sourceSchemaName: "shop", sourceTable: "orders", targetTable: "shop_orders" }],
      },
    },
    credentials: { username: "replicator", password: "my-password-1" },
    destination: { database: "default" },
  },
  mongodb: {
    ...PIPE_SERVICE,
    name: "mongo-cdc",
    source: {
      mongodb: {
        uri: "mongodb+srv://cluster.example.com",
        readPreference: "primary",
        settings: { replicationMode: "cdc" },
        tableMappings: [{ sourceDatabaseName: "app", sourceCollection: "users", targetTable: "app_users" }],
      },
    },
    credentials: { username: "reader", password: "mongo-password-1" },
    destination: { database: "default" },
  },
  bigquery: {
    ...PIPE_SERVICE,
    name: "bq-load",
    source: {
      bigquery: {
        snapshotStagingPath: "gs://bucket/staging/",
        tableMappings: [{ sourceDatasetName: "ds", sourceTable: "t", targetTable: "ds_t" }],
      },
    },
    credentials: { serviceAccountKey: "eyJiaWdxdWVyeSI6InNlY3JldCJ9" },
    destination: { database: "default" },
  },
} as const;

export type ProgramKind = keyof typeof PROGRAMS;

/** A copy with `at` (a dotted path) set to `value`, or removed when undefined. */
export function withValue(program: object, at: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(program) as Record<string, unknown>;
  const parts = at.split(".");
  let node: Record<string, unknown> = copy;
  for (const p of parts.slice(0, -1)) node = node[p] as Record<string, unknown>;
  const last = parts[parts.length - 1] ?? "";
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/** A Kafka pipe made on the emulator by hand, as the console would (one POST, its credentials sent): its id. */
export async function kafkaPipeMadeByHand(emu: Pick<RunningEmulator, "url" | "keyId" | "keySecret">): Promise<string> {
  const path = `/v1/organizations/${PIPE_SERVICE.organizationId}/services/${PIPE_SERVICE.serviceId}/clickpipes`;
  const made = await fetch(`${emu.url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${emu.keyId}:${emu.keySecret}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(postBody(PROGRAMS.kafka as unknown as Args)),
  });
  return ((await made.json()) as { result: { id: string } }).result.id;
}

/** The emulator's ClickPipe state step for the file's tests (ms), put back as it was after them. */
export function shortPipeSteps(ms = 50): void {
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS;
    process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS = String(ms);
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS;
    else process.env.ALERTPIPE_EMULATOR_CLICKPIPE_STEP_MS = saved;
  });
}

// What a ClickPipe change sends, decided without the service: what ClickPipePatchRequest can carry
// changes in place, the rest replaces; table mappings go as deltas; credentials go where the
// description puts them, only when the update needs them.

import { describe, expect, it } from "vitest";
import {
  mappingDeltas,
  patchBody,
  postBody,
  sourceReplacement,
  destinationReplacement,
} from "../../provider/clickPipe/wire";
import type { Args, State } from "../../provider/clickPipe/wire";
import { PROGRAMS, withValue } from "../support/clickPipes";

const args = (p: object) => p as unknown as Args;
const state = (p: object) => p as unknown as State;

describe("ClickPipe on the wire", () => {
  it("puts Kafka credentials and the registry's where the description has them", () => {
    const body = postBody(args(PROGRAMS.kafka)) as { source: { kafka: Record<string, unknown> } };
    expect(body.source.kafka.credentials).toEqual({ username: "kafka-user", password: "kafka-password-1" });
    expect(body.source.kafka.schemaRegistry).toMatchObject({
      credentials: { username: "sr-user-1", password: "sr-password-1" },
    });
    expect(body).toMatchObject({ settings: { streaming_max_insert_wait_ms: 1000, kafka_read_committed: true } });
  });

  it("sends Pub/Sub's and BigQuery's key as serviceAccountFile, Kinesis' as accessKey", () => {
    expect(postBody(args(PROGRAMS.pubsub)).source).toMatchObject({
      pubsub: { serviceAccountKey: { serviceAccountFile: "eyJrZXkiOiJzZWNyZXQifQ==" } },
    });
    expect(postBody(args(PROGRAMS.bigquery)).source).toMatchObject({
      bigquery: { credentials: { serviceAccountFile: "eyJiaWdxdWVyeSI6InNlY3JldCJ9" } },
    });
    expect(postBody(args(PROGRAMS.kinesis)).source).toMatchObject({
      kinesis: { accessKey: { accessKeyId: "AKIAEXAMPLE", secretKey: "kinesis-secret-1" } },
    });
  });

  it.each([
    ["kafka", "source.kafka.topics", "other", "source.kafka.topics cannot change in place"],
    ["kafka", "source.kafka.exactlyOnce", true, "source.kafka.exactlyOnce cannot change in place"],
    ["kinesis", "source.kinesis.region", "eu-west-1", "source.kinesis.region cannot change in place"],
    ["postgres", "source.postgres.settings.replicationMode", "snapshot", "source.postgres.settings.replicationMode"],
    ["bigquery", "source.bigquery.snapshotStagingPath", "gs://other/", "source.bigquery.snapshotStagingPath"],
  ] as const)("replaces a %s pipe when %s changes", (kind, at, value, why) => {
    const before = PROGRAMS[kind];
    expect(sourceReplacement(before.source, withValue(before, at, value).source)).toContain(why);
  });

  it.each([
    ["kafka", "source.kafka.caCertificate", "PEM"],
    ["postgres", "source.postgres.host", "db2.example.com"],
    ["postgres", "source.postgres.settings.syncIntervalSeconds", 30],
    ["mysql", "source.mysql.settings.useCompression", true],
    ["mongodb", "source.mongodb.readPreference", "secondary"],
  ] as const)("changes %s's %s in place", (kind, at, value) => {
    const before = PROGRAMS[kind];
    expect(sourceReplacement(before.source, withValue(before, at, value).source)).toBeUndefined();
  });

  it("replaces on another source kind, and on a destination change but its columns", () => {
    expect(sourceReplacement(PROGRAMS.kafka.source, PROGRAMS.kinesis.source)).toContain("source kind changes");
    const d = PROGRAMS.kafka.destination;
    expect(destinationReplacement(d, { ...d, columns: [] })).toBeUndefined();
    expect(destinationReplacement(d, { ...d, table: "other" })).toBe("destination.table cannot change in place");
  });

  it("sends table mappings as deltas: a changed mapping is removed and added", () => {
    const [users] = PROGRAMS.postgres.source.postgres.tableMappings;
    const changed = { ...users, targetTable: "users_v2" };
    const orders = { sourceSchemaName: "public", sourceTable: "orders", targetTable: "orders" };
    expect(mappingDeltas([users], [changed, orders])).toEqual({
      add: [changed, orders],
      remove: [{ sourceSchemaName: "public", sourceTable: "users", targetTable: "public_users" }],
    });
  });

  it("patches only what changed, MySQL with its host and port, credentials only when needed", () => {
    const olds = state(PROGRAMS.mysql);
    expect(patchBody(olds, args(PROGRAMS.mysql))).toBeUndefined();
    const renamed = patchBody(olds, args({ ...PROGRAMS.mysql, name: "my-cdc-2" }));
    expect(renamed).toEqual({ name: "my-cdc-2" });
    const moved = patchBody(olds, args(withValue(PROGRAMS.mysql, "source.mysql.serverId", 7)));
    expect(moved).toEqual({
      source: {
        mysql: {
          host: "mysql.example.com",
          port: 3306,
          serverId: 7,
          credentials: { username: "replicator", password: "my-password-1" },
        },
      },
    });
    const rotated = patchBody(olds, args(withValue(PROGRAMS.mysql, "credentials.password", "new-password")));
    expect(rotated).toMatchObject({ source: { mysql: { credentials: { password: "new-password" } } } });
  });
});

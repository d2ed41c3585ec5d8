// The ClickPipe's nested types, as the Cloud description's ClickPipePostRequest has them (credentials
// apart: `credentials`, docs/design/clickpipes.md). A field without `optional` is required; ranges are in BOUNDS.

import type { TypeSpec } from "../protocol/definition";

const STRING = { kind: "string" } as const;
const INTEGER = { kind: "integer" } as const;
const NUMBER = { kind: "number" } as const;
const BOOLEAN = { kind: "boolean" } as const;
const STRINGS = { kind: "array", items: STRING } as const;
const opt = <const T, const D extends string>(type: T, description: D) =>
  ({ type, description, optional: true }) as const;
const req = <const T, const D extends string>(type: T, description: D) => ({ type, description }) as const;
const enumOf = <const N extends string, const V extends readonly [string, ...string[]]>(
  name: N,
  description: string,
  values: V,
) => ({ kind: "enum", name, description, values }) as const;

const TABLE_ENGINE = enumOf("ClickPipeTableEngine", "A CDC target table's engine.", [
  "MergeTree",
  "ReplacingMergeTree",
  "Null",
]);
const REPLICATION_MODE = enumOf(
  "ClickPipeReplicationMode",
  '"cdc" (snapshot, then changes), "snapshot" (once) or "cdc_only" (changes only).',
  ["cdc", "snapshot", "cdc_only"],
);
const DB_AUTH = enumOf("ClickPipeDatabaseAuthentication", "How a database pipe signs in.", ["basic", "IAM_ROLE"]);
const TLS_FIELDS = {
  tlsHost: opt(STRING, "TLS host name for the server's certificate."),
  caCertificate: opt(STRING, "PEM CA certificate validating the server's certificate."),
  disableTls: opt(BOOLEAN, "Disable TLS (use with caution)."),
  skipCertVerification: opt(BOOLEAN, "Skip certificate verification (use with caution)."),
} as const;
const SORTING = {
  excludedColumns: opt(STRINGS, "Columns left out of replication (unique)."),
  useCustomSortingKey: opt(BOOLEAN, "Use sortingKeys instead of the source's primary key."),
  sortingKeys: opt(STRINGS, "ORDER BY columns, in order; required when useCustomSortingKey is true."),
  tableEngine: opt(TABLE_ENGINE, "The target table's engine."),
} as const;

export const KAFKA_SOURCE = {
  kind: "object",
  name: "ClickPipeKafkaSource",
  description: "A Kafka (or Kafka-compatible) source.",
  fields: {
    type: req(
      enumOf("ClickPipeKafkaType", "The Kafka flavour.", [
        "kafka",
        "redpanda",
        "msk",
        "gcmk",
        "confluent",
        "warpstream",
        "azureeventhub",
        "dokafka",
      ]),
      "The Kafka flavour. Changing it replaces the pipe.",
    ),
    format: req(
      enumOf("ClickPipeKafkaFormat", "A Kafka message format.", ["JSONEachRow", "Avro", "AvroConfluent", "Protobuf"]),
      "Message format. Changing it replaces the pipe.",
    ),
    brokers: req(STRING, "Brokers, comma-separated. Changing it replaces the pipe."),
    topics: req(STRING, "Topics. Changing it replaces the pipe."),
    consumerGroup: opt(STRING, 'Consumer group; default "clickpipes-<id>". Changing it replaces the pipe.'),
    authentication: req(
      enumOf("ClickPipeKafkaAuthentication", "How a Kafka pipe signs in.", [
        "PLAIN",
        "SCRAM-SHA-256",
        "SCRAM-SHA-512",
        "IAM_ROLE",
        "IAM_USER",
        "MUTUAL_TLS",
      ]),
      "Authentication; its secrets go in credentials.",
    ),
    iamRole: opt(STRING, "IAM role (IAM_ROLE)."),
    offset: opt(
      {
        kind: "object",
        name: "ClickPipeKafkaOffset",
        description: "Where a Kafka pipe starts reading.",
        fields: {
          strategy: req(
            enumOf("ClickPipeKafkaOffsetStrategy", "Where to start.", [
              "from_beginning",
              "from_latest",
              "from_timestamp",
            ]),
            "Where to start.",
          ),
          timestamp: opt(STRING, 'Minute-precision UTC timestamp; required for "from_timestamp".'),
        },
      },
      "Where to start reading. Changing it replaces the pipe.",
    ),
    schemaRegistry: opt(
      {
        kind: "object",
        name: "ClickPipeKafkaSchemaRegistry",
        description: "A schema registry (its user and password go in credentials).",
        fields: {
          url: req(STRING, "The schema's URL (https)."),
          authentication: req(
            enumOf("ClickPipeSchemaRegistryAuthentication", "Registry sign-in.", ["PLAIN"]),
            "PLAIN.",
          ),
          caCertificate: opt(STRING, "PEM CA certificate of the registry."),
        },
      },
      "Schema registry. Changing it replaces the pipe.",
    ),
    caCertificate: opt(STRING, "PEM CA certificates validating the brokers."),
    reversePrivateEndpointIds: opt(STRINGS, "Reverse private endpoint uuids."),
    exactlyOnce: opt(BOOLEAN, "Exactly-once delivery; set at creation only (changing it replaces the pipe)."),
  },
} as const;

export const OBJECT_STORAGE_SOURCE = {
  kind: "object",
  name: "ClickPipeObjectStorageSource",
  description: "Files in object storage.",
  fields: {
    type: req(
      enumOf("ClickPipeObjectStorageType", "An object store.", [
        "s3",
        "gcs",
        "dospaces",
        "azureblobstorage",
        "cloudflarer2",
        "ovhobjectstorage",
      ]),
      "The store. Changing it replaces the pipe.",
    ),
    format: req(
      enumOf("ClickPipeObjectStorageFormat", "A file format.", [
        "JSONEachRow",
        "JSONAsObject",
        "CSV",
        "CSVWithNames",
        "TabSeparated",
        "TabSeparatedWithNames",
        "Parquet",
        "Avro",
      ]),
      "File format. Changing it replaces the pipe.",
    ),
    url: opt(STRING, "Path of the files, wildcards allowed; required but for azureblobstorage (replaces)."),
    delimiter: opt(STRING, "Delimiter (replaces)."),
    compression: opt(
      enumOf("ClickPipeCompression", "A file compression.", [
        "none",
        "gzip",
        "gz",
        "brotli",
        "br",
        "xz",
        "LZMA",
        "zstd",
        "auto",
      ]),
      "Compression (replaces).",
    ),
    isContinuous: opt(BOOLEAN, "Keep reading new files (replaces)."),
    queueUrl: opt(STRING, "SQS queue or Pub/Sub subscription for event-based ingestion (replaces)."),
    skipInitialLoad: opt(BOOLEAN, "Only files from queue notifications; only with queueUrl."),
    startAfter: opt(STRING, "Skip keys up to this one; not with skipInitialLoad."),
    authentication: opt(
      enumOf("ClickPipeObjectStorageAuthentication", "How an object-storage pipe signs in.", [
        "IAM_ROLE",
        "IAM_USER",
        "CONNECTION_STRING",
        "SERVICE_ACCOUNT",
      ]),
      "Authentication (none: public); its secrets go in credentials.",
    ),
    iamRole: opt(STRING, "IAM role (IAM_ROLE, S3 only)."),
    path: opt(STRING, "Path within the Azure container (azureblobstorage)."),
    azureContainerName: opt(STRING, "Azure container (azureblobstorage)."),
  },
} as const;

export const KINESIS_SOURCE = {
  kind: "object",
  name: "ClickPipeKinesisSource",
  description: "An Amazon Kinesis stream.",
  fields: {
    format: req(
      enumOf("ClickPipeKinesisFormat", "A Kinesis record format.", ["JSONEachRow", "Avro", "AvroConfluent"]),
      "Record format (replaces).",
    ),
    streamName: req(STRING, "Stream name (replaces)."),
    region: req(STRING, "AWS region (replaces)."),
    useEnhancedFanOut: opt(BOOLEAN, "Enhanced fan-out (replaces)."),
    iteratorType: req(
      enumOf("ClickPipeKinesisIteratorType", "Where to start.", ["TRIM_HORIZON", "LATEST", "AT_TIMESTAMP"]),
      "Where to start (replaces).",
    ),
    timestamp: opt(INTEGER, "UNIX timestamp; required for AT_TIMESTAMP (replaces)."),
    authentication: req(
      enumOf("ClickPipeKinesisAuthentication", "How a Kinesis pipe signs in.", ["IAM_ROLE", "IAM_USER"]),
      "Authentication; IAM_USER's keys go in credentials.",
    ),
    iamRole: opt(STRING, "IAM role (IAM_ROLE)."),
  },
} as const;

export const PUBSUB_SOURCE = {
  kind: "object",
  name: "ClickPipePubSubSource",
  description: "A GCP Pub/Sub topic (its service-account key goes in credentials).",
  fields: {
    format: req(
      enumOf("ClickPipePubSubFormat", "A Pub/Sub message format.", ["JSONEachRow", "Avro", "Protobuf"]),
      "Message format (replaces).",
    ),
    projectId: req(STRING, "GCP project (replaces)."),
    topic: req(STRING, "Topic name (replaces)."),
    authentication: req(
      enumOf("ClickPipePubSubAuthentication", "How a Pub/Sub pipe signs in.", ["SERVICE_ACCOUNT"]),
      "SERVICE_ACCOUNT.",
    ),
    seekType: req(
      enumOf("ClickPipePubSubSeekType", "Where to start.", ["latest", "earliest", "timestamp"]),
      "Where to start (replaces).",
    ),
    seekTimestamp: opt(STRING, 'RFC 3339 time; exactly when seekType is "timestamp" (replaces).'),
    filter: opt(STRING, "Subscription filter (CEL), at most 256 characters (replaces)."),
    enableOrdering: opt(BOOLEAN, "Ordered delivery (replaces)."),
    ackDeadline: opt(INTEGER, "Acknowledgement deadline, 10 to 600 seconds."),
  },
} as const;

const CDC_SETTINGS = {
  syncIntervalSeconds: opt(INTEGER, "Seconds between syncs (at least 1)."),
  pullBatchSize: opt(INTEGER, "Rows per batch (at least 1)."),
  replicationMode: req(REPLICATION_MODE, "Replication mode (replaces)."),
} as const;
const SNAPSHOT_SETTINGS = {
  initialLoadParallelism: opt(INTEGER, "Workers per table in the snapshot (at least 1; replaces)."),
  snapshotNumRowsPerPartition: opt(INTEGER, "Rows per snapshot partition (at least 1000; replaces)."),
  snapshotNumberOfParallelTables: opt(INTEGER, "Tables snapshotted at once (at least 1; replaces)."),
  allowNullableColumns: opt(BOOLEAN, "Keep the source's nullability (replaces)."),
  deleteOnMerge: opt(BOOLEAN, "Hard deletes in ReplacingMergeTree (replaces)."),
} as const;

export const POSTGRES_SOURCE = {
  kind: "object",
  name: "ClickPipePostgresSource",
  description: "A PostgreSQL database replicated by CDC (user and password go in credentials).",
  fields: {
    type: opt(
      enumOf("ClickPipePostgresType", "A Postgres flavour.", [
        "postgres",
        "supabase",
        "neon",
        "alloydb",
        "planetscale",
        "rdspostgres",
        "aurorapostgres",
        "cloudsqlpostgres",
        "azurepostgres",
        "crunchybridge",
        "tigerdata",
      ]),
      'Flavour; default "postgres" (replaces).',
    ),
    host: req(STRING, "Server host name or address."),
    port: req(INTEGER, "Server port, 1 to 65535."),
    database: req(STRING, "Database replicated from."),
    authentication: opt(DB_AUTH, "basic (credentials) or IAM_ROLE (replaces)."),
    iamRole: opt(STRING, "IAM role ARN (IAM_ROLE; replaces)."),
    ...TLS_FIELDS,
    settings: req(
      {
        kind: "object",
        name: "ClickPipePostgresSettings",
        description: "A Postgres pipe's replication settings.",
        fields: {
          ...CDC_SETTINGS,
          publicationName: opt(STRING, "Publication; made by ClickPipes if unset (replaces)."),
          replicationSlotName: opt(STRING, 'Replication slot; "cdc_only" only (replaces).'),
          enableFailoverSlots: opt(BOOLEAN, "Failover slot, PG17+ (replaces)."),
          ...SNAPSHOT_SETTINGS,
        },
      },
      "Replication settings; syncIntervalSeconds and pullBatchSize change in place.",
    ),
    tableMappings: req(
      {
        kind: "array",
        items: {
          kind: "object",
          name: "ClickPipePostgresTableMapping",
          description: "A Postgres table and the ClickHouse table it fills.",
          fields: {
            sourceSchemaName: req(STRING, "Source schema."),
            sourceTable: req(STRING, "Source table."),
            targetTable: req(STRING, "Target table, made if missing."),
            ...SORTING,
            partitionKey: opt(STRING, "Indexed column for a parallel snapshot."),
            partitionByExpr: opt(STRING, "PARTITION BY of the target table."),
          },
        },
      },
      "Tables replicated; changes by adding and removing mappings, the pipe paused around it.",
    ),
  },
} as const;

export const MYSQL_SOURCE = {
  kind: "object",
  name: "ClickPipeMySqlSource",
  description: "A MySQL or MariaDB database replicated by CDC (user and password go in credentials).",
  fields: {
    type: opt(
      enumOf("ClickPipeMySqlType", "A MySQL flavour.", ["mysql", "rdsmysql", "auroramysql", "mariadb", "rdsmariadb"]),
      'Flavour; default "mysql" (replaces).',
    ),
    host: req(STRING, "Server host name or address."),
    port: req(INTEGER, "Server port, 1 to 65535."),
    authentication: opt(DB_AUTH, "basic (credentials) or IAM_ROLE."),
    iamRole: opt(STRING, "IAM role ARN (IAM_ROLE)."),
    ...TLS_FIELDS,
    serverId: opt(INTEGER, "server_id in the replication topology, 1 to 4294967295."),
    settings: req(
      {
        kind: "object",
        name: "ClickPipeMySqlSettings",
        description: "A MySQL pipe's replication settings.",
        fields: {
          ...CDC_SETTINGS,
          replicationMechanism: opt(
            enumOf("ClickPipeMySqlReplicationMechanism", "How MySQL replicates.", ["GTID", "FILE_POS"]),
            'Default "GTID" (replaces).',
          ),
          useCompression: opt(BOOLEAN, "Compressed connection."),
          ...SNAPSHOT_SETTINGS,
        },
      },
      "Replication settings; syncIntervalSeconds, pullBatchSize and useCompression change in place.",
    ),
    tableMappings: req(
      {
        kind: "array",
        items: {
          kind: "object",
          name: "ClickPipeMySqlTableMapping",
          description: "A MySQL table and the ClickHouse table it fills.",
          fields: {
            sourceSchemaName: req(STRING, "Source database."),
            sourceTable: req(STRING, "Source table."),
            targetTable: req(STRING, "Target table, made if missing."),
            ...SORTING,
            partitionKey: opt(STRING, "Indexed column for a parallel snapshot."),
          },
        },
      },
      "Tables replicated; changes by adding and removing mappings, the pipe paused around it.",
    ),
  },
} as const;

export const MONGODB_SOURCE = {
  kind: "object",
  name: "ClickPipeMongoDbSource",
  description: "A MongoDB deployment replicated by CDC (user and password go in credentials, not in uri).",
  fields: {
    uri: req(STRING, "Connection URI (mongodb:// or mongodb+srv://), without a password."),
    readPreference: req(
      enumOf("ClickPipeMongoDbReadPreference", "A read preference.", [
        "primary",
        "primaryPreferred",
        "secondary",
        "secondaryPreferred",
        "nearest",
      ]),
      "Read preference.",
    ),
    ...TLS_FIELDS,
    settings: req(
      {
        kind: "object",
        name: "ClickPipeMongoDbSettings",
        description: "A MongoDB pipe's replication settings.",
        fields: {
          ...CDC_SETTINGS,
          snapshotNumRowsPerPartition: SNAPSHOT_SETTINGS.snapshotNumRowsPerPartition,
          snapshotNumberOfParallelTables: SNAPSHOT_SETTINGS.snapshotNumberOfParallelTables,
          deleteOnMerge: SNAPSHOT_SETTINGS.deleteOnMerge,
          useJsonNativeFormat: opt(BOOLEAN, "Native JSON columns (replaces)."),
        },
      },
      "Replication settings; syncIntervalSeconds and pullBatchSize change in place.",
    ),
    tableMappings: req(
      {
        kind: "array",
        items: {
          kind: "object",
          name: "ClickPipeMongoDbTableMapping",
          description: "A MongoDB collection and the ClickHouse table it fills.",
          fields: {
            sourceDatabaseName: req(STRING, "Source database."),
            sourceCollection: req(STRING, "Source collection."),
            targetTable: req(STRING, "Target table, made if missing."),
            tableEngine: opt(TABLE_ENGINE, "The target table's engine."),
          },
        },
      },
      "Collections replicated; changes by adding and removing mappings, the pipe paused around it.",
    ),
  },
} as const;

export const BIGQUERY_SOURCE = {
  kind: "object",
  name: "ClickPipeBigQuerySource",
  description: "BigQuery tables loaded once (snapshot); any change replaces the pipe. Its key goes in credentials.",
  fields: {
    snapshotStagingPath: req(STRING, "GCS staging path, e.g. gs://bucket/staging/."),
    settings: opt(
      {
        kind: "object",
        name: "ClickPipeBigQuerySettings",
        description: "A BigQuery pipe's settings.",
        fields: {
          replicationMode: opt(enumOf("ClickPipeBigQueryReplicationMode", "Snapshot only.", ["snapshot"]), "snapshot."),
          allowNullableColumns: opt(BOOLEAN, "Nullable target columns."),
          initialLoadParallelism: opt(NUMBER, "Workers in the initial load."),
          snapshotNumRowsPerPartition: opt(NUMBER, "Rows per partition."),
          snapshotNumberOfParallelTables: opt(NUMBER, "Tables at once."),
        },
      },
      "Settings.",
    ),
    tableMappings: req(
      {
        kind: "array",
        items: {
          kind: "object",
          name: "ClickPipeBigQueryTableMapping",
          description: "A BigQuery table and the ClickHouse table it fills.",
          fields: {
            sourceDatasetName: req(STRING, "Source dataset."),
            sourceTable: req(STRING, "Source table."),
            targetTable: req(STRING, "Target table."),
            ...SORTING,
          },
        },
      },
      "Tables loaded.",
    ),
  },
} as const;

export const SOURCE_KINDS = [
  "kafka",
  "objectStorage",
  "kinesis",
  "pubsub",
  "postgres",
  "mysql",
  "mongodb",
  "bigquery",
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];
/** Their capacity is the service's (ClickPipeCdcInfrastructure); no destination table. */
export const DATABASE_KINDS: readonly SourceKind[] = ["postgres", "mysql", "mongodb", "bigquery"];

export const SOURCE = {
  kind: "object",
  name: "ClickPipeSource",
  description: "Where a pipe reads: exactly one kind.",
  fields: {
    kafka: opt(KAFKA_SOURCE, "Kafka, Redpanda, MSK, Confluent, Event Hubs, ..."),
    objectStorage: opt(OBJECT_STORAGE_SOURCE, "S3, GCS, Azure Blob Storage, ..."),
    kinesis: opt(KINESIS_SOURCE, "Amazon Kinesis."),
    pubsub: opt(PUBSUB_SOURCE, "GCP Pub/Sub."),
    postgres: opt(POSTGRES_SOURCE, "PostgreSQL (CDC)."),
    mysql: opt(MYSQL_SOURCE, "MySQL, MariaDB (CDC)."),
    mongodb: opt(MONGODB_SOURCE, "MongoDB (CDC)."),
    bigquery: opt(BIGQUERY_SOURCE, "BigQuery (snapshot)."),
  },
} as const;

const COLUMN = {
  kind: "object",
  name: "ClickPipeColumn",
  description: "A destination column.",
  fields: { name: req(STRING, "Column name."), type: req(STRING, "ClickHouse type, e.g. String.") },
} as const;

export const DESTINATION = {
  kind: "object",
  name: "ClickPipeDestination",
  description: "Where a pipe writes.",
  fields: {
    database: req(STRING, "Database (replaces)."),
    table: opt(STRING, "Table; required but for database pipes (replaces)."),
    managedTable: opt(BOOLEAN, "Whether ClickPipes makes the table; required but for database pipes (replaces)."),
    tableDefinition: opt(
      {
        kind: "object",
        name: "ClickPipeTableDefinition",
        description: "The managed table's definition.",
        fields: {
          engine: req(
            {
              kind: "object",
              name: "ClickPipeTableEngineSpec",
              description: "A managed table's engine.",
              fields: {
                type: req(
                  enumOf("ClickPipeManagedTableEngine", "A managed table's engine.", [
                    "MergeTree",
                    "ReplacingMergeTree",
                    "SummingMergeTree",
                    "Null",
                  ]),
                  "Engine.",
                ),
                versionColumnId: opt(STRING, "Version column (ReplacingMergeTree)."),
                columnIds: opt(STRINGS, "Columns summed (SummingMergeTree)."),
              },
            },
            "Engine.",
          ),
          sortingKey: opt(STRINGS, "Sorting key columns."),
          partitionBy: opt(STRING, "PARTITION BY expression."),
          primaryKey: opt(STRING, "PRIMARY KEY expression."),
        },
      },
      "Managed table's definition; with managedTable true (replaces).",
    ),
    columns: opt(
      { kind: "array", items: COLUMN },
      "Columns; required but for database pipes. Changes in place (the table's schema is not altered).",
    ),
    roles: opt(STRINGS, "Roles granted to the pipe's ClickHouse user (replaces)."),
  },
} as const;

export const FIELD_MAPPING = {
  kind: "object",
  name: "ClickPipeFieldMapping",
  description: "A source field and the column it fills.",
  fields: {
    sourceField: req(STRING, "Source field."),
    destinationField: req(STRING, "Destination column."),
  },
} as const;

export const SCALING = {
  kind: "object",
  name: "ClickPipeScaling",
  description: "A streaming or object-storage pipe's scaling.",
  fields: {
    replicas: opt(INTEGER, "Replicas, 1 to 40 (streaming pipes)."),
    concurrency: opt(INTEGER, "Concurrency, 0 (auto) to 34 (object storage)."),
    replicaCpuMillicores: opt(INTEGER, "CPU per replica, 125 to 2000 millicores."),
    replicaMemoryGb: opt(NUMBER, "Memory per replica, 0.5 to 8 GB."),
  },
} as const;

export const CREDENTIALS = {
  kind: "object",
  name: "ClickPipeCredentials",
  description: "The source's secrets, write-only: sent, never read back.",
  fields: {
    username: opt(STRING, "User (Kafka PLAIN/SCRAM, Postgres, MySQL, MongoDB)."),
    password: opt(STRING, "Password."),
    accessKeyId: opt(STRING, "AWS access key id (IAM_USER)."),
    secretKey: opt(STRING, "AWS secret key (IAM_USER)."),
    connectionString: opt(STRING, "Azure connection string (Event Hubs, Blob Storage)."),
    certificate: opt(STRING, "PEM client certificate (MUTUAL_TLS)."),
    privateKey: opt(STRING, "PEM client private key (MUTUAL_TLS)."),
    serviceAccountKey: opt(STRING, "Base64 GCP service-account JSON key (GCS, Pub/Sub, BigQuery)."),
    schemaRegistryUsername: opt(STRING, "Schema registry user."),
    schemaRegistryPassword: opt(STRING, "Schema registry password."),
  },
} as const;

/** Ranges the description gives, by object type name and field. */
export const BOUNDS: Readonly<Record<string, Readonly<Record<string, { min?: number; max?: number }>>>> = {
  ClickPipeScaling: {
    replicas: { min: 1, max: 40 },
    concurrency: { min: 0, max: 34 },
    replicaCpuMillicores: { min: 125, max: 2000 },
    replicaMemoryGb: { min: 0.5, max: 8 },
  },
  ClickPipePubSubSource: { ackDeadline: { min: 10, max: 600 }, filter: { max: 256 } },
  ClickPipePostgresSource: { port: { min: 1, max: 65535 } },
  ClickPipeMySqlSource: { port: { min: 1, max: 65535 }, serverId: { min: 1, max: 4_294_967_295 } },
  ...Object.fromEntries(
    ["ClickPipePostgresSettings", "ClickPipeMySqlSettings", "ClickPipeMongoDbSettings"].map((n) => [
      n,
      {
        syncIntervalSeconds: { min: 1 },
        pullBatchSize: { min: 1 },
        initialLoadParallelism: { min: 1 },
        snapshotNumRowsPerPartition: { min: 1000 },
        snapshotNumberOfParallelTables: { min: 1 },
      },
    ]),
  ),
};

export type ObjectSpec = Extract<TypeSpec, { kind: "object" }>;

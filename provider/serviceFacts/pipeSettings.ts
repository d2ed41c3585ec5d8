// The one table of pipe settings; their schemas, wire mapping and docs are built from it.

interface Named {
  /** The seed contract's name. */
  readonly wire: string;
  /** ClickHouse Cloud's name (`ClickPipeSettings`, docs/design/cloud-api-clickhouse.md). */
  readonly cloudWire: string;
}

export interface IntegerSetting extends Named {
  readonly kind: "integer";
  readonly min: number;
  readonly max: number;
  readonly meaning: string;
}

export interface BooleanSetting extends Named {
  readonly kind: "boolean";
  readonly meaning: string;
  /** What unsets it where its type is not nullable, as resetOnDelete sends. */
  readonly unsetAs?: boolean;
}

export type SettingFact = IntegerSetting | BooleanSetting;

export const PIPE_SETTINGS = {
  streamingMaxInsertWaitMs: {
    kind: "integer",
    wire: "streaming_max_insert_wait_ms",
    cloudWire: "streaming_max_insert_wait_ms",
    min: 500,
    max: 60_000,
    meaning: "maximum wait in milliseconds before data is inserted (streaming)",
  },
  objectStorageConcurrency: {
    kind: "integer",
    wire: "object_storage_concurrency",
    cloudWire: "object_storage_concurrency",
    min: 1,
    max: 35,
    meaning: "number of concurrent file-processing threads",
  },
  objectStoragePollingIntervalMs: {
    kind: "integer",
    wire: "object_storage_polling_interval_ms",
    cloudWire: "object_storage_polling_interval_ms",
    min: 100,
    max: 3_600_000,
    meaning: "refresh interval in milliseconds for checking object storage for new data in continuous ingest",
  },
  objectStorageMaxInsertBytes: {
    kind: "integer",
    wire: "object_storage_max_insert_bytes",
    cloudWire: "object_storage_max_insert_bytes",
    min: 10_485_760,
    max: 53_687_091_200,
    meaning: "bytes processed in one insert batch",
  },
  objectStorageMaxFileCount: {
    kind: "integer",
    wire: "object_storage_max_file_count",
    cloudWire: "object_storage_max_file_count",
    min: 1,
    max: 10_000,
    meaning: "maximum files processed in one insert batch",
  },
  dbMaxThreads: {
    kind: "integer",
    wire: "db_max_threads",
    cloudWire: "clickhouse_max_threads",
    min: 0,
    max: 64,
    meaning: "maximum concurrent threads for file processing",
  },
  dbMaxInsertThreads: {
    kind: "integer",
    wire: "db_max_insert_threads",
    cloudWire: "clickhouse_max_insert_threads",
    min: 0,
    max: 16,
    meaning: "maximum concurrent insert threads",
  },
  dbMinInsertBlockSizeBytes: {
    kind: "integer",
    wire: "db_min_insert_block_size_bytes",
    cloudWire: "clickhouse_min_insert_block_size_bytes",
    min: 0,
    max: 10_737_418_240,
    meaning: "minimum data block size for insert, in bytes",
  },
  dbMaxDownloadThreads: {
    kind: "integer",
    wire: "db_max_download_threads",
    cloudWire: "clickhouse_max_download_threads",
    min: 0,
    max: 32,
    meaning: "maximum concurrent download threads",
  },
  dbParallelDistributedInsertSelect: {
    kind: "integer",
    wire: "db_parallel_distributed_insert_select",
    cloudWire: "clickhouse_parallel_distributed_insert_select",
    min: 0,
    max: 2,
    meaning: "parallel distributed insert-select setting",
  },
  objectStorageUseClusterFunction: {
    kind: "boolean",
    wire: "object_storage_use_cluster_function",
    cloudWire: "object_storage_use_cluster_function",
    meaning: "whether the cluster function is used for distributed processing",
  },
  dbParallelViewProcessing: {
    kind: "boolean",
    wire: "db_parallel_view_processing",
    cloudWire: "clickhouse_parallel_view_processing",
    meaning: "whether pushing to attached views happens concurrently instead of sequentially",
  },
  // Not nullable (docs/design/cloud-api-2026.md): unset as false, Kafka's own default.
  kafkaReadCommitted: {
    kind: "boolean",
    wire: "kafka_read_committed",
    cloudWire: "kafka_read_committed",
    meaning: "whether Kafka consumers read only committed messages (Kafka pipes only)",
    unsetAs: false,
  },
} as const satisfies Record<string, SettingFact>;

export type SettingName = keyof typeof PIPE_SETTINGS;

export const SETTING_NAMES = Object.keys(PIPE_SETTINGS) as SettingName[];

/** A setting's value type; null means "unset". */
export type SettingValue<N extends SettingName> = (typeof PIPE_SETTINGS)[N] extends BooleanSetting
  ? boolean | null
  : number | null;

/** The setting's name on the wire of `dialect` (a CloudDialect, `cloudDialects.ts`; default the contract's). */
export function wireName(name: SettingName, dialect: "contract" | "clickhouse" = "contract"): string {
  const fact: SettingFact = PIPE_SETTINGS[name];
  return dialect === "clickhouse" ? fact.cloudWire : fact.wire;
}

/** Whether the service takes null to unset a setting; else `unsetAs` does. */
export function takesNull(name: SettingName): boolean {
  const fact: SettingFact = PIPE_SETTINGS[name];
  return fact.kind !== "boolean" || fact.unsetAs === undefined;
}

/** What a reset sends: null, or `unsetAs`. */
export function unsetValue(name: SettingName): boolean | null {
  const fact: SettingFact = PIPE_SETTINGS[name];
  return fact.kind === "boolean" && fact.unsetAs !== undefined ? fact.unsetAs : null;
}

/** What a setting accepts, in the words of every validation message. */
export function allowedValues(name: SettingName): string {
  const fact: SettingFact = PIPE_SETTINGS[name];
  if (fact.kind === "boolean") return takesNull(name) ? "true, false or null" : "true or false (no null)";
  return `an integer from ${fact.min} to ${fact.max} (inclusive) or null`;
}

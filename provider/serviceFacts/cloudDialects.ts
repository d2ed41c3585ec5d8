// How a cloud management API (area B) spells its paths and names: the seed contract's, or ClickHouse
// Cloud's (docs/design/cloud-api-clickhouse.md). The program's names are the same in both.

export const CLOUD_DIALECTS = ["contract", "clickhouse"] as const;

export type CloudDialect = (typeof CLOUD_DIALECTS)[number];

/** The dialect of a cloud URL whose dialect is not set: ClickHouse Cloud's own hosts speak theirs. */
export function cloudDialectOfHost(hostname: string): CloudDialect {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return host === "api.clickhouse.cloud" || host.endsWith(".clickhouse.cloud") ? "clickhouse" : "contract";
}

/** Where a pipe's settings are: `/pipes/{pipeId}` in the contract, `/clickpipes/{clickPipeId}` in the Cloud. */
export const PIPES_SEGMENT: Readonly<Record<CloudDialect, string>> = { contract: "pipes", clickhouse: "clickpipes" };

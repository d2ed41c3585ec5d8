// The Connection (self-hosted HyperDX), each property once. The password is never returned: kept
// secret, as the program set it, and sent on every write.

import type { CheckRules, ResourceDefinition } from "../protocol/definition";
import type { OutputRule } from "../protocol/outputRules";
import { takeOverId } from "../protocol/commonProperties";
import { SETTING_PREFIX } from "../serviceFacts/observability";

const STRING = { kind: "string" } as const;
const AS_ANSWERED: OutputRule = { nullMeans: "absent", whenAbsent: [] };
const FROM_STATE: OutputRule = { nullMeans: "absent", whenAbsent: ["stored"] };
const FROM_PROGRAM: OutputRule = { nullMeans: "absent", whenAbsent: ["program"] };

const text =
  (property: string) =>
  ({ z }: CheckRules) =>
    z.string({ error: `${property} is required: a string` });

export const CONNECTION = {
  name: "Connection",
  description:
    "A ClickHouse (or Prometheus) connection of a self-hosted HyperDX, which sources read through. The password is write-only on " +
    "the service: kept in the state as a secret, sent on every update, never read back; removing it from the program cannot clear " +
    "it on the service. Managed ClickStack has no connections route: its platform makes the connection.",
  notAnObject: "the connection's arguments must be an object",
  properties: {
    name: {
      type: STRING,
      description: "The connection's display name.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: text("name"),
    },
    host: {
      type: STRING,
      description:
        "The ClickHouse HTTP endpoint, e.g. https://clickhouse.example.com:8443 (the service stores it as given).",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: text("host"),
    },
    username: {
      type: STRING,
      description: "The ClickHouse user.",
      role: "both",
      required: true,
      whenAbsent: FROM_PROGRAM,
      check: text("username"),
    },
    password: {
      type: STRING,
      description:
        "The ClickHouse password. Secret and write-only: sent on every update, so a change of it shows as a change; the service " +
        "keeps its old password when none is sent, so removing it from the program does not clear it there.",
      role: "both",
      secret: true,
      whenAbsent: AS_ANSWERED,
      compared: (v) => (v === undefined || v === null ? "" : v),
      check: ({ z }) => z.string({ error: "password must be a string" }),
    },
    hyperdxSettingPrefix: {
      type: STRING,
      description:
        "A prefix for HyperDX's ClickHouse settings: letters, digits and underscores. Removed from the program, it is cleared " +
        "on the service.",
      role: "both",
      whenAbsent: AS_ANSWERED,
      check: ({ z }) =>
        z
          .string({ error: "hyperdxSettingPrefix must be a string" })
          .regex(SETTING_PREFIX, { error: "hyperdxSettingPrefix must be letters, digits and underscores only" }),
    },
    isPrometheusEndpoint: {
      type: { kind: "boolean" },
      description:
        "True when host is a Prometheus-compatible endpoint queried with PromQL. Removed from the program, it is no longer " +
        "managed: the service keeps its value.",
      role: "both",
      whenAbsent: AS_ANSWERED,
    },
    importId: takeOverId(
      "connection",
      "the program's whole connection with one PUT only when it differs or the program sets a password (never read back, so sent)",
    ),
    createdAt: {
      type: STRING,
      description: "When the connection was made (ISO 8601, set by the service).",
      role: "output",
      stable: true,
      whenAbsent: FROM_STATE,
    },
    updatedAt: {
      type: STRING,
      description: "When the connection last changed (ISO 8601, set by the service).",
      role: "output",
      whenAbsent: FROM_STATE,
    },
  },
} as const satisfies ResourceDefinition;

export const isWriteOnly = (name: string): boolean => name === "password";

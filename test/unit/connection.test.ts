// Where the provider finds its services and credentials: the stack config given to `configure`
// first, then the environment, read each time a method runs; missing or unsafe settings are
// refused with an error that names the config key and the env var, and never a value.

import { describe, expect, it } from "vitest";
import {
  CONNECTION_SETTINGS,
  configure,
  connectionFailures,
  connectionFor,
  type ConnectionSettingName,
} from "../../provider/runtime/connection";
import { noConnectionPerTest } from "../support/mockApi";
import { ConfigError } from "../../provider/errors";

/** A self-hosted alerting API: managed ClickStack's ids are connection.managed.test.ts's. */
type SelfHostedSetting = Exclude<ConnectionSettingName, "clickstackOrganizationId" | "clickstackServiceId">;

const VALUES: Record<SelfHostedSetting, string> = {
  alertingUrl: "https://alerts.example.test",
  alertingToken: "tok-CANARY-conn",
  cloudUrl: "https://cloud.example.test",
  cloudKeyId: "KEYID-CANARY-conn",
  cloudKeySecret: "secret-CANARY-conn",
  alertingRateLimit: "100/60",
  cloudRateLimit: "10/10",
  alertingDialect: "2026",
  cloudDialect: "",
  wakeIdleServices: "false",
};

function setEnv(values: Partial<Record<ConnectionSettingName, string>>): void {
  for (const [name, value] of Object.entries(values))
    process.env[CONNECTION_SETTINGS[name as ConnectionSettingName].envVar] = value;
}

function stackConfig(values: Partial<Record<ConnectionSettingName, string>>) {
  const byKey = new Map(
    Object.entries(values).map(([name, v]) => [
      CONNECTION_SETTINGS[name as ConnectionSettingName].configKey as string,
      v,
    ]),
  );
  return { get: (key: string) => byKey.get(key) };
}

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

noConnectionPerTest();

describe("where settings come from", () => {
  it("the stack config wins over the environment", () => {
    setEnv({ ...VALUES, cloudUrl: "https://env.example.test", cloudKeyId: "env-key", cloudKeySecret: "env-secret" });
    configure(
      stackConfig({ cloudUrl: "https://config.example.test", cloudKeyId: "cfg-key", cloudKeySecret: "cfg-secret" }),
    );
    const conn = connectionFor("cloud");
    expect(conn.baseUrl).toBe("https://config.example.test");
    expect(conn.authorization).toBe(`Basic ${Buffer.from("cfg-key:cfg-secret").toString("base64")}`);
  });

  it("a setting missing from the stack config falls back to its environment variable", () => {
    setEnv({ alertingToken: "env-token" });
    configure(stackConfig({ alertingUrl: "https://alerts.example.test" }));
    expect(connectionFor("alerting").authorization).toBe("Bearer env-token");
  });

  it("an empty stack config value counts as unset", () => {
    setEnv({ alertingUrl: "https://env.example.test", alertingToken: "t0ken" });
    configure(stackConfig({ alertingUrl: "" }));
    expect(connectionFor("alerting").baseUrl).toBe("https://env.example.test");
  });

  it("the environment alone is enough when configure was never called", () => {
    setEnv(VALUES);
    expect(connectionFor("cloud").baseUrl).toBe(VALUES.cloudUrl);
  });

  it("is read when a method runs, not when the module was loaded", () => {
    setEnv(VALUES);
    expect(connectionFor("alerting").authorization).toBe(`Bearer ${VALUES.alertingToken}`);
    process.env.ALERTPIPE_ALERTING_TOKEN = "rotated-token";
    expect(connectionFor("alerting").authorization).toBe("Bearer rotated-token");
  });

  it("follows a new stack config after a first connection was made", () => {
    setEnv(VALUES);
    configure(stackConfig({ cloudUrl: "https://first.example.test" }));
    expect(connectionFor("cloud").baseUrl).toBe("https://first.example.test");
    configure(stackConfig({ cloudUrl: "https://second.example.test" }));
    expect(connectionFor("cloud").baseUrl).toBe("https://second.example.test");
  });

  it("reads the full namespaced keys, e.g. alertpipe:cloudKeyId", () => {
    const asked: string[] = [];
    configure({ get: (key) => (asked.push(key), undefined) });
    setEnv(VALUES);
    connectionFor("cloud");
    expect(asked).toEqual(
      expect.arrayContaining([
        "alertpipe:cloudUrl",
        "alertpipe:cloudKeyId",
        "alertpipe:cloudKeySecret",
        "alertpipe:cloudRateLimit",
      ]),
    );
  });
});

describe("a missing setting", () => {
  const required: [SelfHostedSetting, "alerting" | "cloud"][] = [
    ["alertingUrl", "alerting"],
    ["alertingToken", "alerting"],
    ["cloudUrl", "cloud"],
    ["cloudKeyId", "cloud"],
    ["cloudKeySecret", "cloud"],
  ];
  for (const [name, area] of required) {
    it(`${name} is a ConfigError naming ${CONNECTION_SETTINGS[name].configKey} and ${CONNECTION_SETTINGS[name].envVar}`, () => {
      const { [name]: _missing, ...rest } = VALUES;
      setEnv(rest);
      const err = thrown(() => connectionFor(area));
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).setting).toBe(name);
      expect(err.message).toContain(CONNECTION_SETTINGS[name].configKey);
      expect(err.message).toContain(CONNECTION_SETTINGS[name].envVar);
      for (const secret of [VALUES.alertingToken, VALUES.cloudKeySecret]) expect(err.message).not.toContain(secret);
    });
  }
});

describe("the base URL", () => {
  function cloudUrl(url: string): () => string {
    setEnv({ ...VALUES, cloudUrl: url });
    return () => connectionFor("cloud").baseUrl;
  }

  it("over https is accepted, without a trailing slash", () => {
    expect(cloudUrl("https://cloud.example.test/")()).toBe("https://cloud.example.test");
    expect(cloudUrl("https://cloud.example.test/prefix/")()).toBe("https://cloud.example.test/prefix");
  });

  it("over plain http is refused for a host that is not loopback, naming the key and env var", () => {
    const err = thrown(cloudUrl("http://cloud.example.test"));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain("must use https");
    expect(err.message).toContain("alertpipe:cloudUrl");
    expect(err.message).toContain("ALERTPIPE_CLOUD_URL");
  });

  it("over plain http is refused for an address that only looks local", () => {
    expect(thrown(cloudUrl("http://127.0.0.1.example.test"))).toBeInstanceOf(ConfigError);
    expect(thrown(cloudUrl("http://10.0.0.1:8080"))).toBeInstanceOf(ConfigError);
    expect(thrown(cloudUrl("http://localhost.example.test"))).toBeInstanceOf(ConfigError);
  });

  for (const url of [
    "http://127.0.0.1:8080",
    "http://localhost:8080",
    "http://LOCALHOST:1",
    "http://[::1]:8080",
    "http://127.0.0.2",
  ]) {
    it(`over plain http is allowed for the loopback host of ${url}`, () => {
      expect(cloudUrl(url)()).toBe(url.replace("LOCALHOST", "localhost"));
    });
  }

  it("over any other scheme is refused", () => {
    expect(thrown(cloudUrl("ftp://cloud.example.test"))).toBeInstanceOf(ConfigError);
  });

  it("that is not a URL is refused without repeating the value", () => {
    const err = thrown(cloudUrl("secret-CANARY-pasted-here"));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain("is not a URL");
    expect(err.message).not.toContain("secret-CANARY-pasted-here");
  });

  it("carrying a user name or password is refused without repeating them", () => {
    const err = thrown(cloudUrl("https://user:pa55word@cloud.example.test"));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).not.toContain("pa55word");
  });

  it("with a query or fragment is refused", () => {
    expect(thrown(cloudUrl("https://cloud.example.test/?x=1"))).toBeInstanceOf(ConfigError);
    expect(thrown(cloudUrl("https://cloud.example.test/#x"))).toBeInstanceOf(ConfigError);
  });
});

describe("credentials", () => {
  it("area A authorizes with Bearer <token>", () => {
    setEnv(VALUES);
    expect(connectionFor("alerting").authorization).toBe(`Bearer ${VALUES.alertingToken}`);
  });

  it("area B authorizes with Basic base64(keyId:keySecret)", () => {
    setEnv(VALUES);
    expect(connectionFor("cloud").authorization).toBe(
      `Basic ${Buffer.from(`${VALUES.cloudKeyId}:${VALUES.cloudKeySecret}`, "utf8").toString("base64")}`,
    );
  });

  it("are listed for scrubbing in every form: header, base64, id:secret, secret, token; the key ID alone is no secret", () => {
    setEnv(VALUES);
    const cloud = connectionFor("cloud");
    expect(cloud.secrets).toEqual(
      expect.arrayContaining([
        cloud.authorization,
        `${VALUES.cloudKeyId}:${VALUES.cloudKeySecret}`,
        VALUES.cloudKeySecret,
        cloud.authorization.slice("Basic ".length),
      ]),
    );
    expect(cloud.secrets).not.toContain(VALUES.cloudKeyId);
    expect(connectionFor("alerting").secrets).toEqual(
      expect.arrayContaining([`Bearer ${VALUES.alertingToken}`, VALUES.alertingToken]),
    );
  });

  it("are named for limiters by a fingerprint that holds none of them", () => {
    setEnv(VALUES);
    const id = connectionFor("cloud").credentialId;
    expect(id).toMatch(/^key:[0-9a-f]{16}$/);
    for (const s of connectionFor("cloud").secrets) expect(id).not.toContain(s);
  });

  it("give different fingerprints to different keys, the same to the same key", () => {
    setEnv(VALUES);
    const a = connectionFor("cloud").credentialId;
    expect(connectionFor("cloud").credentialId).toBe(a);
    process.env.ALERTPIPE_CLOUD_KEY_ID = "other-key";
    expect(connectionFor("cloud").credentialId).not.toBe(a);
  });

  it("give one fingerprint to one key at one origin, whatever the area or base path: one budget per key", () => {
    setEnv({ ...VALUES, cloudUrl: "https://cloud.example.test/v1" });
    const cloud = connectionFor("cloud").credentialId;
    process.env.ALERTPIPE_CLOUD_URL = "https://cloud.example.test";
    expect(connectionFor("cloud").credentialId).toBe(cloud);
    process.env.ALERTPIPE_CLOUD_URL = "https://other.example.test";
    expect(connectionFor("cloud").credentialId).not.toBe(cloud);
  });
});

describe("the cloud URL", () => {
  for (const url of [
    "https://api.clickhouse.cloud",
    "https://api.clickhouse.cloud/",
    "https://api.clickhouse.cloud/v1",
    "https://api.clickhouse.cloud/v1/",
  ]) {
    it(`"${url}" is taken as the base the /v1 paths go under, so no /v1/v1 is ever sent`, () => {
      setEnv({ ...VALUES, cloudUrl: url });
      expect(connectionFor("cloud").baseUrl).toBe("https://api.clickhouse.cloud");
    });
  }

  it("keeps a path before /v1 (a gateway's prefix)", () => {
    setEnv({ ...VALUES, cloudUrl: "https://gateway.example.test/clickhouse/v1" });
    expect(connectionFor("cloud").baseUrl).toBe("https://gateway.example.test/clickhouse");
  });

  it("the alerting URL keeps its path as given", () => {
    setEnv({ ...VALUES, alertingUrl: "https://alerts.example.test/v1" });
    expect(connectionFor("alerting").baseUrl).toBe("https://alerts.example.test/v1");
  });
});

describe("the cloud dialect", () => {
  const hosts: [string, "contract" | "clickhouse"][] = [
    ["https://api.clickhouse.cloud", "clickhouse"],
    ["https://API.ClickHouse.Cloud./v1", "clickhouse"],
    ["https://api.eu.clickhouse.cloud", "clickhouse"],
    ["https://cloud.example.test", "contract"],
    ["https://clickhouse.cloud.example.test", "contract"],
    ["https://notclickhouse.cloud", "contract"],
    ["http://127.0.0.1:4100", "contract"],
  ];
  for (const [url, dialect] of hosts) {
    it(`unset, is "${dialect}" for ${url}`, () => {
      setEnv({ ...VALUES, cloudUrl: url });
      expect(connectionFor("cloud").cloudDialect).toBe(dialect);
    });
  }

  it("set, wins over the host, from the stack config before the environment", () => {
    setEnv({ ...VALUES, cloudUrl: "https://api.clickhouse.cloud", cloudDialect: "clickhouse" });
    configure(stackConfig({ cloudDialect: "contract" }));
    expect(connectionFor("cloud").cloudDialect).toBe("contract");
    configure(stackConfig({ cloudUrl: "http://127.0.0.1:4100", cloudDialect: "clickhouse" }));
    expect(connectionFor("cloud").cloudDialect).toBe("clickhouse");
  });

  it("anything else fails the cloud check naming the key, its variable and the allowed values", () => {
    setEnv({ ...VALUES, cloudDialect: "hyperdx-cloud" });
    const failures = connectionFailures("cloud").map((f) => f.reason);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('alertpipe:cloudDialect must be one of "contract", "clickhouse"');
    expect(failures[0]).toContain("ALERTPIPE_CLOUD_DIALECT");
    expect(failures[0]).not.toContain("hyperdx-cloud");
    expect(connectionFailures("alerting")).toEqual([]);
    expect(thrown(() => connectionFor("cloud"))).toBeInstanceOf(ConfigError);
  });
});

describe("rate-limit settings", () => {
  function cloudLimit(value: string | undefined) {
    setEnv(VALUES);
    if (value === undefined) delete process.env.ALERTPIPE_CLOUD_RATE_LIMIT;
    else process.env.ALERTPIPE_CLOUD_RATE_LIMIT = value;
    return () => connectionFor("cloud").rateLimit;
  }

  it("default to the published limits: area B 10 per 10 s, area A 100 per 60 s", () => {
    setEnv({ ...VALUES, cloudRateLimit: "", alertingRateLimit: "" });
    expect(connectionFor("cloud").rateLimit).toEqual({ requests: 10, perSeconds: 10 });
    expect(connectionFor("alerting").rateLimit).toEqual({ requests: 100, perSeconds: 60 });
  });

  it('read "requests/seconds", spaces and fractions of a second allowed', () => {
    expect(cloudLimit("5/2")()).toEqual({ requests: 5, perSeconds: 2 });
    expect(cloudLimit(" 10 / 0.5 ")()).toEqual({ requests: 10, perSeconds: 0.5 });
  });

  it('"off" (any case) disables pacing', () => {
    expect(cloudLimit("off")()).toBeUndefined();
    expect(cloudLimit("OFF")()).toBeUndefined();
  });

  it("come from the stack config before the environment", () => {
    setEnv({ ...VALUES, alertingRateLimit: "off" });
    configure(stackConfig({ alertingRateLimit: "7/3" }));
    expect(connectionFor("alerting").rateLimit).toEqual({ requests: 7, perSeconds: 3 });
  });

  for (const bad of ["0/10", "10/0", "ten/10", "10", "1.5/10", "-1/10", "10/-1", "10/10/10", "on"]) {
    it(`"${bad}" is a ConfigError naming alertpipe:cloudRateLimit and ALERTPIPE_CLOUD_RATE_LIMIT`, () => {
      const err = thrown(cloudLimit(bad));
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toContain("alertpipe:cloudRateLimit");
      expect(err.message).toContain("ALERTPIPE_CLOUD_RATE_LIMIT");
      expect(err.message).toContain('"off"');
    });
  }
});

describe("the alerting dialect", () => {
  it("is unset by default, so the service is asked (alert/dialect.ts)", () => {
    setEnv({ ...VALUES, alertingDialect: "" });
    expect(connectionFor("alerting").dialect).toBeUndefined();
  });

  it('"contract" and "2026" are taken from the stack config before the environment', () => {
    setEnv({ ...VALUES, alertingDialect: "contract" });
    configure(stackConfig({ alertingDialect: "2026" }));
    expect(connectionFor("alerting").dialect).toBe("2026");
  });

  it("anything else fails the alerting check naming the key, its variable and the allowed values, and no request is made", () => {
    setEnv({ ...VALUES, alertingDialect: "hyperdx" });
    const failures = connectionFailures("alerting").map((f) => f.reason);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('alertpipe:alertingDialect must be one of "contract", "2026", or unset');
    expect(failures[0]).toContain("ALERTPIPE_ALERTING_DIALECT");
    expect(connectionFailures("cloud")).toEqual([]);
    expect(thrown(() => connectionFor("alerting"))).toBeInstanceOf(ConfigError);
  });
});

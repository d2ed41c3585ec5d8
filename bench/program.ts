// The throw-away program folder the benchmark's provider hosts run in, and the `__provider` texts
// they load. The packed package is installed there as a user's `npm install` would, and the texts
// come from Pulumi's real serializer (run under its mocks), so each host loads our provider exactly
// the way it would load it from a user's state.

import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { installPacked, workDir } from "../scripts/packedPackage";

export type Kind = "PipeSettings" | "Alert" | "ApiKey";
export const KINDS: readonly Kind[] = ["PipeSettings", "Alert", "ApiKey"];

/** Resource type tokens as the engine sends them (`pulumi-nodejs:dynamic/<module>:<name>`). */
export const TYPE_TOKENS: Record<Kind | Reference, string> = {
  PipeSettings: "pulumi-nodejs:dynamic/alertpipe:PipeSettings",
  Alert: "pulumi-nodejs:dynamic/alertpipe:Alert",
  ApiKey: "pulumi-nodejs:dynamic/alertpipe:ApiKey",
  Noop: "pulumi-nodejs:dynamic/bench:Noop",
  RawHttp: "pulumi-nodejs:dynamic/bench:RawHttp",
};

/**
 * Reference providers, serialized the same way, to show what the host and the HTTP round trip
 * cost without our code: `Noop` answers at once (or after `sleepMs` given in its inputs);
 * `RawHttp` creates an alert with one bare undici POST and nothing else (no checks, no mapping).
 */
export type Reference = "Noop" | "RawHttp";

export interface BenchProgram {
  /** Working directory of every host: node_modules/pulumi-alertpipe is the packed package. */
  readonly dir: string;
  /** The serialized `__provider` of each resource kind and of the reference providers. */
  readonly providers: Record<Kind | Reference, string>;
}

// Runs in the program folder. One resource of each kind under Pulumi's mocks (real serializer, no
// provider code), plus the reference providers. Prints {type: __provider}.
const SERIALIZE_SCRIPT = `"use strict";
const pulumi = require("@pulumi/pulumi");
const captured = {};
pulumi.runtime.setMocks(
  {
    newResource(args) {
      captured[args.type] = args.inputs.__provider;
      return { id: args.name + "-id", state: args.inputs };
    },
    call() {
      return {};
    },
  },
  "alertpipe-bench",
  "bench",
  false,
);
const alertpipe = require("pulumi-alertpipe");
const noopProvider = {
  async check(olds, news) {
    return { inputs: news };
  },
  async create(inputs) {
    if (inputs.sleepMs > 0) await new Promise((resolve) => setTimeout(resolve, inputs.sleepMs));
    return { id: "noop-" + Math.random().toString(36).slice(2), outs: inputs };
  },
};
const rawHttpProvider = {
  async configure(req) {
    this.url = req.config.get("alertpipe:alertingUrl");
    this.token = req.config.get("alertpipe:alertingToken");
  },
  async check(olds, news) {
    return { inputs: news };
  },
  async create(inputs) {
    const { request } = require("undici");
    const res = await request(this.url + "/api/v2/alerts", {
      method: "POST",
      headers: { authorization: "Bearer " + this.token, "content-type": "application/json" },
      body: JSON.stringify(inputs.body),
    });
    const body = JSON.parse(await res.body.text());
    if (res.statusCode >= 300) throw new Error("status " + res.statusCode);
    return { id: body.data.id, outs: inputs };
  },
};
class Reference extends pulumi.dynamic.Resource {
  constructor(provider, type, name, args) {
    super(provider, name, args, undefined, "bench", type);
  }
}
const org = "0f8fad5b-d9cb-469f-a165-70867728950e";
const resources = [
  new alertpipe.PipeSettings("pipe", {
    organizationId: org,
    serviceId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
    pipeId: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed",
    dbMaxThreads: 8,
  }),
  new alertpipe.Alert("alert", {
    threshold: 5,
    interval: "5m",
    source: "search",
    thresholdType: "above",
    channel: { type: "webhook", webhookId: "hook-1" },
  }),
  new alertpipe.ApiKey("key", { organizationId: org, roles: ["developer"] }),
  new Reference(noopProvider, "Noop", "noop", { value: 1 }),
  new Reference(rawHttpProvider, "RawHttp", "raw", { body: {} }),
];
Promise.all(resources.map((r) => new Promise((resolve) => r.urn.apply(resolve)))).then(() => {
  setTimeout(() => process.stdout.write(JSON.stringify(captured)), 50);
});
`;

export function prepareProgram(): BenchProgram {
  const dir = workDir("bench");
  installPacked(dir);
  writeFileSync(join(dir, "serialize.js"), SERIALIZE_SCRIPT);
  const out = execFileSync(process.execPath, ["serialize.js"], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const captured = JSON.parse(out) as Record<string, unknown>;
  const text = (kind: Kind | Reference): string => {
    const t = captured[TYPE_TOKENS[kind]];
    if (typeof t !== "string" || t === "") throw new Error(`the serializer produced no __provider for ${kind}`);
    return t;
  };
  return {
    dir,
    providers: { PipeSettings: text("PipeSettings"), Alert: text("Alert"), ApiKey: text("ApiKey"), Noop: text("Noop"), RawHttp: text("RawHttp") },
  };
}

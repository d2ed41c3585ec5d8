// The one-budget row's reference (issue 37): what a user without pulumi-alertpipe writes to create
// alerts on managed ClickStack and ClickPipe settings with one ClickHouse Cloud key. Plain CommonJS,
// as a published package ships, installed in the bench folder: one module of requests and pacing
// (`alertpipe-bench-cloud`), two dynamic providers over it (one per kind: a dynamic provider is not
// told its resource's type), and the native reference `pulumi-resource-benchpaced`
// (bench/nativeShells.ts) over the same module. So both doors' references send the same requests
// paced the same way, and one process's calls share one window, as ours share one limiter.
//
// The pacing is the simple window a user writes once the service's 10 requests per 10 s drew 429s:
// at most 10 calls in any 10 s, each counted from its answer (a call counted from its send can
// reach the service after the window it was counted in: a 429). No checks, no retries.

import { PIPE_SETTINGS, SETTING_NAMES } from "../provider/serviceFacts/pipeSettings";
import { DEFAULT_RATE_LIMITS } from "../provider/serviceFacts/rateLimits";
import {
  FETCH_KEY_ID_ENV,
  FETCH_KEY_SECRET_ENV,
  FETCH_ORGANIZATION_ENV,
  FETCH_SERVICE_ENV,
  FETCH_URL_ENV,
  HAND_WRITTEN_CLOUD_PACKAGE,
} from "./shellFacts";

/** The user's table of the six settings' Cloud names (one fact each: provider/serviceFacts/pipeSettings.ts). */
const CLOUD_NAMES = Object.fromEntries(SETTING_NAMES.map((n) => [n, PIPE_SETTINGS[n].cloudWire]));

const { requests: LIMIT, perSeconds } = DEFAULT_RATE_LIMITS.cloud;

export const HAND_WRITTEN_CLOUD = `"use strict";
// Alerts on managed ClickStack and ClickPipe settings through the ClickHouse Cloud API, one key.
const LIMIT = ${LIMIT};
const WINDOW_MS = ${perSeconds * 1000};
const NAMES = ${JSON.stringify(CLOUD_NAMES)};

// The answers of the last window; a call waits while they and the calls in flight make LIMIT.
const answered = [];
let inFlight = 0;
let turn = Promise.resolve();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function admitted() {
  const mine = turn.then(async () => {
    for (;;) {
      const now = Date.now();
      while (answered.length > 0 && now - answered[0] >= WINDOW_MS) answered.shift();
      if (answered.length + inFlight < LIMIT) {
        inFlight += 1;
        return;
      }
      await sleep(answered.length > 0 ? answered[0] + WINDOW_MS - now : 20);
    }
  });
  turn = mine;
  return mine;
}

async function call(method, path, body) {
  await admitted();
  try {
    const key = process.env.${FETCH_KEY_ID_ENV} + ":" + process.env.${FETCH_KEY_SECRET_ENV};
    const res = await fetch(process.env.${FETCH_URL_ENV} + path, {
      method,
      headers: { authorization: "Basic " + Buffer.from(key).toString("base64"), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (!res.ok) throw new Error(method + " " + path + " answered " + res.status + ": " + JSON.stringify(answer));
    return answer.result;
  } finally {
    inFlight -= 1;
    answered.push(Date.now());
  }
}

exports.createAlert = async (inputs) => {
  const { __provider, ...alert } = inputs;
  const org = process.env.${FETCH_ORGANIZATION_ENV};
  const svc = process.env.${FETCH_SERVICE_ENV};
  const result = await call("POST", "/v1/organizations/" + org + "/services/" + svc + "/clickstack/alerts", alert);
  return { id: String(result.id), outs: { ...alert, ...result } };
};

exports.createPipeSettings = async (inputs) => {
  const { __provider, ...pipe } = inputs;
  const settings = {};
  for (const [name, value] of Object.entries(pipe)) if (NAMES[name] !== undefined) settings[NAMES[name]] = value;
  const path =
    "/v1/organizations/" + pipe.organizationId + "/services/" + pipe.serviceId + "/clickpipes/" + pipe.pipeId + "/settings";
  const result = await call("PUT", path, settings);
  return { id: pipe.organizationId + "/" + pipe.serviceId + "/" + pipe.pipeId, outs: { ...pipe, ...result } };
};
`;

/** A dynamic provider of one kind over the shared module: its create alone, every other method the host's default. */
function dynamicProvider(create: "createAlert" | "createPipeSettings"): string {
  return `"use strict";
const cloud = require(${JSON.stringify(HAND_WRITTEN_CLOUD_PACKAGE)});
module.exports = {
  create: (inputs) => cloud.${create}(inputs),
};
`;
}

/** The two dynamic providers' packages and sources. */
export const HAND_WRITTEN_DYNAMIC = {
  Alert: { name: "alertpipe-bench-paced-alert", source: dynamicProvider("createAlert") },
  PipeSettings: { name: "alertpipe-bench-paced-pipe", source: dynamicProvider("createPipeSettings") },
} as const;

/** What the shared module exports, as the native reference calls it. */
export interface HandWrittenCloud {
  createAlert(inputs: Readonly<Record<string, unknown>>): Promise<{ id: string; outs: Record<string, unknown> }>;
  createPipeSettings(inputs: Readonly<Record<string, unknown>>): Promise<{ id: string; outs: Record<string, unknown> }>;
}

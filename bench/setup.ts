// What the scenarios share: an emulator and a provider host per scenario, the stack config a user
// would set, and a few statistics.

import type { RecordedRequest } from "../emulator";
import { startEmulatorProcess, type EmulatorProcess, type ProcessEmulatorOptions } from "./emulatorProcess";
import { HostDriver } from "./hostDriver";
import type { BenchProgram } from "./program";

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}

/** The stack config a user would set to point the provider at the emulator. */
export function stackConfig(emulator: Pick<EmulatorProcess, "url" | "token" | "keyId" | "keySecret">, pacing: { cloud: string; alerting: string }): Record<string, string> {
  return {
    "alertpipe:alertingUrl": emulator.url,
    "alertpipe:alertingToken": emulator.token,
    "alertpipe:cloudUrl": emulator.url,
    "alertpipe:cloudKeyId": emulator.keyId,
    "alertpipe:cloudKeySecret": emulator.keySecret,
    "alertpipe:cloudRateLimit": pacing.cloud,
    "alertpipe:alertingRateLimit": pacing.alerting,
  };
}

export const NO_PACING = { cloud: "off", alerting: "off" };
export const NO_LIMITS: ProcessEmulatorOptions["rateLimits"] = { cloud: false, alerting: false };

/** A fresh emulator and a fresh host, so no connection, limiter window or heap carries over. */
export async function withHost<T>(program: BenchProgram, emulatorOptions: ProcessEmulatorOptions, body: (host: HostDriver, emulator: EmulatorProcess) => Promise<T>): Promise<T> {
  const emulator = await startEmulatorProcess(emulatorOptions);
  try {
    const host = await HostDriver.start(program.dir);
    try {
      return await body(host, emulator);
    } finally {
      await host.close();
    }
  } finally {
    await emulator.close();
  }
}

export function statusCounts(requests: readonly RecordedRequest[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests) counts[String(r.status)] = (counts[String(r.status)] ?? 0) + 1;
  return counts;
}

/** The most requests that arrived within any span of `windowMs`. */
export function maxInAnyWindow(requests: readonly RecordedRequest[], windowMs: number): number {
  const at = requests.map((r) => r.at).sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < at.length; i++) {
    while ((at[i] as number) - (at[j] as number) >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

// Before the first project of a run: start the exchange log (emulator/exchangeLog.ts) with the
// run's stamp, and name it in ALERTPIPE_EXCHANGE_LOG, which every emulator of the run reads, in the
// test workers and in the processes they start. One file per run; the next run starts it afresh.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { EXCHANGE_LOG_ENV } from "../../emulator/exchangeLog";
import { currentStamp, exchangeLogFile } from "./exchangeLog";

const STARTED_BY = "ALERTPIPE_EXCHANGE_LOG_RUN";

export default function setup(): void {
  // Each project's global setup runs in vitest's one main process: the first starts the file.
  if (process.env[STARTED_BY] === String(process.pid)) return;
  const file = exchangeLogFile();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(currentStamp(process.argv.slice(2)))}\n`);
  process.env[EXCHANGE_LOG_ENV] = file;
  process.env[STARTED_BY] = String(process.pid);
}

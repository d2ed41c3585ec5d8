// Around each test: name it in ALERTPIPE_EXCHANGE_TAG, so each exchange the emulator logs says
// which test sent it (an emulator in a child process keeps the tag of the test that started it).

import { relative } from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { EXCHANGE_TAG_ENV } from "../../emulator/exchangeLog";
import { repoRoot } from "../../scripts/packedPackage";

beforeEach(() => {
  const { testPath, currentTestName } = expect.getState();
  process.env[EXCHANGE_TAG_ENV] =
    `${testPath === undefined ? "" : relative(repoRoot(), testPath)} > ${currentTestName ?? ""}`;
});

afterEach(() => {
  delete process.env[EXCHANGE_TAG_ENV];
});

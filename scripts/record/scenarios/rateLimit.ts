// The key's 101st request of a window: refused with 429 in plain text, Retry-After a whole window.
// It spends the recorder's key for up to a minute: the last scenario of a run.

import type { Scenario } from "../scenario";

export const rateLimit: Scenario = {
  name: "rate-limit",
  about: "The key's request after its window is spent: 429 in plain text, Retry-After a whole window.",
  async run(s) {
    await s.row("one more request once the key's window is spent", "GET", "/api/v2/alerts?limit=1", undefined, {
      spent: true,
      counted: true,
    });
  },
};

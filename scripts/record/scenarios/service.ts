// The facts the provider's pacing and dialect rely on: GET /api/v2 answers the version and the
// key's user; every answer under /api/v2/alerts, a 404 too, counts the key's requests in RateLimit-*;
// a key the server does not know is refused with 401, counted against that key.

import { randomBytes } from "node:crypto";
import type { Scenario } from "../scenario";
import { ALERTS, NOT_AN_ALERT } from "./rows";

export const service: Scenario = {
  name: "service",
  about:
    "GET /api/v2, the key's count in RateLimit-* on a list and a 404 in a row, and a key the server does not know.",
  async run(s) {
    await s.row("ask the API's version and the key's user", "GET", "/api/v2");
    await s.row("list the key's alerts", "GET", ALERTS, undefined, { counted: true });
    await s.row(
      "read an alert that is not there: counted like the list before it",
      "GET",
      `${ALERTS}/${NOT_AN_ALERT}`,
      undefined,
      {
        counted: true,
      },
    );
    await s.row("a key the server does not know: 401, counted against that key", "GET", ALERTS, undefined, {
      key: `not-a-key-${randomBytes(6).toString("hex")}`,
      deliberate: true,
    });
  },
};

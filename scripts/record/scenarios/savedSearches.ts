// What the SavedSearch resource sends (issue 29), and what its check refuses, sent anyway; a saved
// search whose delete takes its alerts with it.

import type { Refs } from "./referents";
import {
  ALERTS,
  NOT_AN_ALERT,
  SEARCHES,
  aGoneSearch,
  aSearch,
  aWatchedSearch,
  anAlertOfAGoneSearch,
  at,
  rowsScenario,
  type Request,
  type Row,
} from "./rows";

const create =
  (body: Record<string, unknown>) =>
  (r: Refs): Request => ({ method: "POST", path: SEARCHES, body: { sourceId: r.sourceId, ...body } });
const refused = (what: string, change: Record<string, unknown>): Row => ({
  what,
  make: create({ name: `refused ${what}`, where: "level:error", ...change }),
  words: true,
});

const ROWS: Row[] = [
  {
    what: "create a saved search, every field set",
    make: create({
      name: "slow queries",
      select: "Timestamp, Body",
      where: "Duration:>1000",
      whereLanguage: "lucene",
      orderBy: "Timestamp DESC",
      tags: ["perf"],
      filters: [{ type: "sql", condition: "ServiceName IN ('api', 'web')" }],
    }),
  },
  { what: "create a saved search of a name and a source (the defaults answered)", make: create({ name: "bare" }) },
  {
    what: "create a saved search in sql, a BETWEEN filter without a type",
    make: create({
      name: "sql errors",
      where: "SeverityText = 'error'",
      whereLanguage: "sql",
      filters: [{ condition: "Duration BETWEEN 1 AND 5" }],
    }),
  },
  { what: "read a saved search", needs: aSearch, make: at("GET", SEARCHES) },
  { what: "list a page of saved searches", make: () => ({ method: "GET", path: `${SEARCHES}?limit=1000&offset=0` }) },
  {
    what: "update a saved search with its whole body",
    needs: aSearch,
    make: (r, id) => ({
      method: "PUT",
      path: `${SEARCHES}/${id}`,
      body: { name: "renamed search", sourceId: r.sourceId, where: "level:warn", tags: ["a"] },
    }),
  },
  {
    what: "update a saved search that is gone",
    needs: aGoneSearch,
    make: (r, id) => ({ method: "PUT", path: `${SEARCHES}/${id}`, body: { name: "gone", sourceId: r.sourceId } }),
    words: true,
  },
  { what: "read a saved search that is gone", needs: aGoneSearch, make: at("GET", SEARCHES), words: true },
  { what: "delete a saved search", needs: aSearch, make: at("DELETE", SEARCHES) },
  { what: "delete a saved search an alert watches", needs: aWatchedSearch, make: at("DELETE", SEARCHES) },
  {
    what: "read an alert whose saved search was deleted (it went with it)",
    needs: anAlertOfAGoneSearch,
    make: (_r, id) => ({ method: "GET", path: `${ALERTS}/${id}` }),
  },
  { what: "delete a saved search already gone", needs: aGoneSearch, make: at("DELETE", SEARCHES), words: true },
  refused("a sourceId the team does not have", { sourceId: NOT_AN_ALERT }),
  refused("a sourceId that is not an ObjectId", { sourceId: "logs" }),
  refused("no sourceId", { sourceId: undefined }),
  refused("a whereLanguage other than lucene or sql", { whereLanguage: "kql" }),
  refused("a lucene filter", { filters: [{ type: "lucene", condition: "level:error" }] }),
  refused("an sql filter that is not IN or BETWEEN", { filters: [{ type: "sql", condition: "a = 1" }] }),
  refused("an sql_ast filter", { filters: [{ type: "sql_ast", operator: "=", left: "a", right: "1" }] }),
  refused("a blank name", { name: "  " }),
  refused("51 tags", { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }),
  refused("a tag of 33 characters", { tags: ["x".repeat(33)] }),
];

export const savedSearches = rowsScenario(
  "saved-searches",
  "What the SavedSearch resource sends, and what its check refuses, sent anyway; a saved search whose delete takes its alerts.",
  "searches",
  ROWS,
);

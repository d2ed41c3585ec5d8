// What the Connection resource sends (provider/connection/behaviour.ts: the whole body on every
// write, the password each time it is set, a removed prefix as null), and what the server does with
// it: the password never comes back, a PUT keeps what it is not sent, a delete never refuses.

import type { Scenario } from "../scenario";
import { CONNECTIONS, NOTHING, SOURCES, aConnection, aLogSource, made } from "./observability";

export const connections: Scenario = {
  name: "connections",
  about:
    "What the Connection resource sends, and the server's answers: the password never returned, a PUT keeping " +
    "what it is not sent, weak checks, a delete that neither refuses nor cascades.",
  async run(s) {
    await s.row("create the smallest connection (no password)", "POST", CONNECTIONS, aConnection("ch-small"));
    const full = {
      ...aConnection("ch-full"),
      password: "s3cret-pw-77",
      hyperdxSettingPrefix: "hdx_",
      isPrometheusEndpoint: false,
    };
    const id = s.id(
      await s.row("create a connection with every field (the password never returned)", "POST", CONNECTIONS, full),
    );
    s.name("connectionId", id);
    await s.row("read it (no password)", "GET", `${CONNECTIONS}/${id}`);
    await s.row("list connections (not paged, no password)", "GET", CONNECTIONS);
    await s.row("update it as the resource does (whole body, password sent again)", "PUT", `${CONNECTIONS}/${id}`, {
      ...full,
      name: "ch-full-2",
    });
    await s.row(
      "update it without password, prefix or isPrometheusEndpoint (all kept)",
      "PUT",
      `${CONNECTIONS}/${id}`,
      aConnection("ch-full-3"),
    );
    await s.row("update it with an empty password (the old one kept)", "PUT", `${CONNECTIONS}/${id}`, {
      ...aConnection("ch-full-3"),
      password: "",
    });
    await s.row("update it with the prefix removed, as null (cleared)", "PUT", `${CONNECTIONS}/${id}`, {
      ...aConnection("ch-full-3"),
      password: "s3cret-pw-77",
      hyperdxSettingPrefix: null,
    });
    await s.row("update it without host (refused)", "PUT", `${CONNECTIONS}/${id}`, {
      name: "ch-full-3",
      username: "default",
    });
    await s.row("create a connection with an empty name and a host that is no URL (accepted)", "POST", CONNECTIONS, {
      ...aConnection(""),
      host: "not a url",
    });
    await s.row("create a connection with a prefix of a dash (refused)", "POST", CONNECTIONS, {
      ...aConnection("ch-dash"),
      hyperdxSettingPrefix: "a-b",
    });
    await s.row("create a connection with an empty prefix (refused)", "POST", CONNECTIONS, {
      ...aConnection("ch-empty-prefix"),
      hyperdxSettingPrefix: "",
    });
    await s.row("read a connection that does not exist", "GET", `${CONNECTIONS}/${NOTHING}`, undefined, {
      words: true,
    });
    await s.row("update a connection that does not exist", "PUT", `${CONNECTIONS}/${NOTHING}`, aConnection("x"));
    await s.row("read a connection id that is no ObjectId", "GET", `${CONNECTIONS}/abc`, undefined, {
      deliberate: true,
    });
    // A delete while a source uses it: 200, and the source keeps pointing at it.
    const used = await made(s, "a connection for a source", CONNECTIONS, aConnection("ch-used"));
    const source = await made(s, "a log source on it", SOURCES, aLogSource(used, "Logs on ch-used"));
    await s.row("delete a connection a source uses (neither refused nor cascaded)", "DELETE", `${CONNECTIONS}/${used}`);
    await s.row("read the source (still names the gone connection)", "GET", `${SOURCES}/${source}`);
    await s.row("update the source on the gone connection (refused)", "PUT", `${SOURCES}/${source}`, {
      ...aLogSource(used, "Logs on ch-used"),
    });
    await s.row("delete a connection already gone", "DELETE", `${CONNECTIONS}/${used}`, undefined, { words: true });
  },
};

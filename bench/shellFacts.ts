// What the bench's references read from their environment, and the native references' names: shared
// by the bench, which sets them, and the references (benchFolder.ts, nativeShells.ts), which read them.

/** The do-nothing providers' create waits this many ms when set, so their inputs can be exactly ours. */
export const REFERENCE_SLEEP_ENV = "ALERTPIPE_BENCH_SLEEP_MS";

/** The list-reading reference's adoption file: our objects' ids and outputs by name (bench/listingReference.ts). */
export const ADOPT_FILE_ENV = "ALERTPIPE_BENCH_ADOPT_FILE";

/** Where the hand-written references send their POST, and with which token. */
export const FETCH_URL_ENV = "ALERTPIPE_BENCH_FETCH_URL";
export const FETCH_TOKEN_ENV = "ALERTPIPE_BENCH_FETCH_TOKEN";

/** What the hand-written Cloud references (bench/handWrittenCloud.ts) send with: the Cloud key, and ClickStack's service. */
export const FETCH_KEY_ID_ENV = "ALERTPIPE_BENCH_FETCH_KEY_ID";
export const FETCH_KEY_SECRET_ENV = "ALERTPIPE_BENCH_FETCH_KEY_SECRET";
export const FETCH_ORGANIZATION_ENV = "ALERTPIPE_BENCH_FETCH_ORGANIZATION";
export const FETCH_SERVICE_ENV = "ALERTPIPE_BENCH_FETCH_SERVICE";

export type ShellKind = "nothing" | "post" | "paced" | "listing";

/** The package each native reference serves, `<package>:index:<Kind>`; its plugin is `pulumi-resource-<package>`. */
export const SHELL_PACKAGES: Record<ShellKind, string> = {
  nothing: "benchnothing",
  post: "benchpost",
  paced: "benchpaced",
  listing: "benchlisting",
};

/** The hand-written Cloud requests and their pacing, installed in the bench folder (bench/handWrittenCloud.ts). */
export const HAND_WRITTEN_CLOUD_PACKAGE = "alertpipe-bench-cloud";

/** A directory: the thousand's provider processes are profiled into it (bench/profileHook.ts). */
export const PROFILE_ENV = "ALERTPIPE_BENCH_PROFILE";
/** Set by the bench for one operation: where its provider process writes (bench/profileHook.ts). */
export const PROFILE_TO_ENV = "ALERTPIPE_BENCH_PROFILE_TO";
/** What bench/profileHook.ts samples every 20 ms: [ms since start, rss, heapTotal, heapUsed, external], bytes. */
export type MemorySample = [number, number, number, number, number];

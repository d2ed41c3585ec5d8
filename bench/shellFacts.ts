// What the bench's references read from their environment, and the native references' names: shared
// by the bench, which sets them, and the references (benchFolder.ts, nativeShells.ts), which read them.

/** The do-nothing providers' create waits this many ms when set, so their inputs can be exactly ours. */
export const REFERENCE_SLEEP_ENV = "ALERTPIPE_BENCH_SLEEP_MS";

/** Where the hand-written references send their POST, and with which token. */
export const FETCH_URL_ENV = "ALERTPIPE_BENCH_FETCH_URL";
export const FETCH_TOKEN_ENV = "ALERTPIPE_BENCH_FETCH_TOKEN";

export type ShellKind = "nothing" | "post";

/** The package each native reference serves, `<package>:index:<Kind>`; its plugin is `pulumi-resource-<package>`. */
export const SHELL_PACKAGES: Record<ShellKind, string> = { nothing: "benchnothing", post: "benchpost" };

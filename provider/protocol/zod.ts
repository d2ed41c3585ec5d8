// The one zod provider/ loads (a test holds it). The build bundles it into one file without other
// languages (scripts/bundleZod.ts), for a short first Check; same messages.

export { z } from "zod";

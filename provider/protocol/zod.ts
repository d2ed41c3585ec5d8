// The one zod the provider's code loads at run time (a test holds provider/ to it). The build
// replaces the compiled file with zod bundled into one file without its other languages
// (scripts/bundleZod.ts), for a short first Check; same zod, same English messages.

export { z } from "zod";

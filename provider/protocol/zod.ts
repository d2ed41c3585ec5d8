// The one zod the provider's code loads at run time; every schema of provider/ imports `z` from
// here (a test holds provider/ to it). In the source, and so in the unit tests, it is zod itself.
// The build replaces the compiled file with zod bundled into one file, without its translations of
// messages into other languages (scripts/bundleZod.ts): zod's own entry points load 95 files, 64 of
// them locales none of our schemas use, and that loading was most of a provider host's first Check
// (bench: cold-start). Same zod, same English messages; the emulator keeps the package's zod.

export { z } from "zod";

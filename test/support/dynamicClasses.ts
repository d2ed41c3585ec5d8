// The dynamic classes loaded with Node's own require: a class loads its provider with a plain
// `require("../<kind>/shim")`, which vitest's module runner does not see. TypeScript is compiled on
// the fly; @pulumi/pulumi is then the one module instance the test's own import (and mocks) hold.

import { readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { join } from "node:path";
import ts from "typescript";

const extensions = (
  Module as unknown as {
    _extensions: Record<string, (m: { _compile(code: string, file: string): void }, file: string) => void>;
  }
)._extensions;
extensions[".ts"] ??= (m, file) => {
  const out = ts.transpileModule(readFileSync(file, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    fileName: file,
  });
  m._compile(out.outputText, file);
};

/** A module of provider/, by its path from the repository's root (e.g. "provider/index"). */
export const providerModule = createRequire(join(__dirname, "..", "..", "package.json"));

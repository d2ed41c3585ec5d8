// Lint: typescript-eslint's recommended type-checked rules over every TypeScript file the
// type checker sees (tsconfig.json). Formatting is Prettier's job, so no stylistic rules here.
import eslint from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    // Built output, installed packages, work folders, the example (its own package, checked by the
    // example's tsconfig), the plain-JS fixtures the serialization tests
    // run as they are, the generated SDKs (sdk/, written by Pulumi's code generators, compared byte
    // for byte) and the upgrade recordings (test/engine/recorded/, a release's program and what it left, kept as made).
    ignores: [
      "dist/**",
      "node_modules/**",
      ".alertpipe/**",
      "examples/**",
      "tools/**",
      "test/engine/fixtures/**",
      "test/engine/recorded/**",
      "sdk/**",
      "*.mjs",
      "*.mts",
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A `_`-named binding is how this code says "deliberately left out": the rest sibling of a
      // destructuring that drops one member, or a parameter an interface makes us accept.
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      // Off: provider methods implement pulumi.dynamic.ResourceProvider and Automation API
      // programs are PulumiFn, both Promise-returning interfaces; `async` makes a throw a
      // rejection, which is the contract, even where nothing is awaited.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: ["provider/**/*.ts"],
    rules: {
      // Off in provider/: require() is how the provider loads lazily. The shim requires the real
      // provider by package name in the provider host (serialization stores only that), and
      // rarely used modules (crypto, undici's internals) are required when first needed to keep
      // a cold start short.
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    files: [
      "provider/dynamic/alert.ts",
      "provider/dynamic/apiKey.ts",
      "provider/dynamic/pipeSettings.ts",
      "provider/dynamic/webhook.ts",
      "provider/dynamic/savedSearch.ts",
      "provider/dynamic/connection.ts",
      "provider/dynamic/source.ts",
      "provider/dynamic/dashboard.ts",
      "provider/dynamic/clickPipeCdcInfrastructure.ts",
      "provider/dynamic/clickPipe.ts",
    ],
    rules: {
      // Off in these files: each class's outputs are declared by merging the interface its
      // definition renders (dynamic/generated.ts) into the class. The constructor names every
      // output (dynamic/resource.ts), so no merged member goes unset.
      "@typescript-eslint/no-unsafe-declaration-merging": "off",
      "@typescript-eslint/no-empty-object-type": "off",
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: {
      // Off in tests alone: vitest's asymmetric matchers (expect.any, expect.stringContaining …)
      // are typed `any`, and pulumi.dynamic's result types carry `outs`/`props` as `any`; tests
      // put both straight into assertions. Product code keeps these rules.
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
    },
  },
);

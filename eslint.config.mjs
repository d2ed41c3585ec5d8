// Lint: typescript-eslint's recommended type-checked rules over every TypeScript file the
// type checker sees (tsconfig.json). Formatting is Prettier's job, so no stylistic rules here.
import eslint from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["dist/**", "node_modules/**", ".alertpipe/**", "examples/**", "tools/**", "test/fixtures/**", "*.mjs", "*.mts"],
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
  },
);

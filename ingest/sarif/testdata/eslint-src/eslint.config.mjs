// ESLint configuration of the ESLint SARIF fixture (see ../make.sh).
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";

export default [
  js.configs.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    files: ["**/*.js", "**/*.jsx"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      parserOptions: { ecmaFeatures: { jsx: true } },
      globals: { console: "readonly", document: "readonly" },
    },
    rules: {
      "no-eval": "error",
      complexity: ["warn", 3],
      eqeqeq: "warn",
      "no-console": "warn",
    },
  },
];

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.data/**', 'coverage/**', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No import cycles: a cycle hides which module needs which (and which code runs on which thread), and makes
    // module start-up order matter. Resolved as TypeScript does, workspace packages to their sources.
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
          conditionNames: ['types', '@productgen/source', 'import', 'require', 'default'],
          project: ['tsconfig.json', 'packages/*/tsconfig.json', 'shell/tsconfig.json', 'mfe-*/tsconfig.json'],
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // What tests share lives in packages/test-kit: a test reaching into another workspace's test folder ties the two
    // workspaces' tests together without either saying so.
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(services|packages|shell|mfe-[a-z]+)/[^/]+/test/|^(\\.\\./)+(shell|mfe-[a-z]+)/test/',
              message: "Share test code through packages/test-kit, not another workspace's test folder.",
            },
          ],
        },
      ],
    },
  },
);

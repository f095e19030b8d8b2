import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

/** What runs in production never depends on the development kit; src/cli/devkit.ts loads it when present. */
const noDevkit = {
  group: ['**/devkit/**'],
  message: 'src/ is what production runs: it must not import the development kit (devkit/).',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', '.data/', '.test-results/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'error',
      // Prettier's width, for the comments it leaves alone too. A string it cannot break is left to it, and so is
      // generated code.
      'max-len': [
        'error',
        {
          code: 110,
          ignoreUrls: true,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
        },
      ],
    },
  },
  {
    // Generated from the OpenAPI document (npm run docs): its descriptions are the document's, one line each.
    files: ['test/helpers/merchant-api-paths.ts'],
    rules: { 'max-len': 'off' },
  },
  {
    files: ['src/workflows/**/*.ts'],
    rules: {
      // Every line counts, comments included: a workflow file is read whole when its replay is in question. A
      // guard against a file that holds two jobs, not a size to pack code into: a file near it is split by job.
      'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }],
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message:
              'Workflows must stay deterministic: Node built-ins are not available in the workflow sandbox.',
          })),
          patterns: [
            {
              group: [
                '**/bank/client*',
                '**/bank/http*',
                '**/activities/**',
                '**/webhooks/**',
                '**/starter/**',
                'got',
                'pino',
              ],
              message: 'Workflows import only @temporalio/workflow, shared definitions and activity types.',
              allowTypeImports: true,
            },
            noDevkit,
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/workflows/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noDevkit] }] },
  },
  {
    // What callers share with the workflows is src/contract; workflow internals change without telling them.
    files: [
      'src/starter/**/*.ts',
      'src/webhooks/**/*.ts',
      'src/cli/**/*.ts',
      'src/activities/**/*.ts',
      'src/doctor/**/*.ts',
      'src/schedules/**/*.ts',
      'src/temporal/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            noDevkit,
            {
              group: ['**/workflows/**', '**/workflows'],
              message: 'Callers import what they share with the workflows from src/contract only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'devkit/cli/**/*.ts', 'scripts/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  // Browser scripts of the sandbox's hosted pages and of the reference checkout page.
  {
    files: ['devkit/sandbox/pages/**/*.js', 'devkit/checkout/public/**/*.js'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'history',
          'navigator',
          'screen',
          'localStorage',
          'crypto',
          'fetch',
          'atob',
          'btoa',
          'setTimeout',
          'URLSearchParams',
          'DOMException',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);

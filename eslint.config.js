// ESLint 9 flat config: JavaScript and typescript-eslint recommended rules, trimmed to what the
// code base follows, two type-aware rules (promises), the layer rules (eslint/layers.js), and the format (@stylistic: the layout
// the code is written in, checked, and applied by `npm run format`). `npm run lint`; runs in .ci/run.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import tseslint from 'typescript-eslint';
import layers from './eslint/layers.js';

const PURE = 'the domain knows nothing of storage, HTTP or pages; pass what it needs in';
const DOMAIN = 'the domain is called by the edges (HTTP, pages, operator, CLI, composition root), never calls them; pass what it needs in';
// The domain folders and the edges above them: the same lists as test/lint/layers-map.ts
// (test/lint/import-graph.test.ts checks the whole graph, loops included; test/lint/layers.test.ts
// plants a violation of each rule here).
const DOMAIN_FOLDERS = [
  'access', 'analysis', 'assessment', 'confirmations', 'connect', 'content', 'jobs', 'mail', 'monitoring',
  'people', 'personality', 'takers', 'users', 'webhooks', 'db', 'shared', 'config.ts', 'config-schema.ts',
];
const EDGES = ['src/http', 'src/pages', 'src/operator', 'src/cli', 'src/app.ts', 'src/context.ts', 'src/server.ts'];
// The models and the advice are pure: not even storage (src/db).
const PURE_FOLDERS = ['personality', 'content'];
const GROUPS = 'API groups share code through src/http/common only';
const apiGroup = (group, others) => ({ from: `src/http/${group}`, forbid: others.map((o) => `src/http/${o}`), because: GROUPS });
const API_GROUPS = ['enterprise', 'assessment', 'connect', 'web', 'ops-listener'];

export default tseslint.config(
  { ignores: ['dist/', 'test/lint/.planted/', 'coverage/', 'data/', '.tmp/', 'node_modules/', 'clients/typescript/dist/', 'clients/typescript/src/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', URLSearchParams: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
        setImmediate: 'readonly', clearImmediate: 'readonly', queueMicrotask: 'readonly', structuredClone: 'readonly',
        fetch: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly', FormData: 'readonly', Blob: 'readonly',
        AbortController: 'readonly', AbortSignal: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly',
        performance: 'readonly', crypto: 'readonly', globalThis: 'readonly', NodeJS: 'readonly',
      },
    },
    plugins: { layers, '@stylistic': stylistic },
    rules: {
      // The format: errors, so CI fails on them; `npm run format` fixes all but long lines.
      '@stylistic/indent': ['error', 2, { SwitchCase: 1 }],
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true }],
      '@stylistic/semi': ['error', 'always'],
      '@stylistic/comma-dangle': ['error', 'always-multiline'],
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/eol-last': 'error',
      '@stylistic/no-multiple-empty-lines': ['error', { max: 1, maxEOF: 0 }],
      '@stylistic/object-curly-spacing': ['error', 'always'],
      '@stylistic/arrow-parens': ['error', 'always'],
      '@stylistic/brace-style': ['error', '1tbs', { allowSingleLine: true }],
      '@stylistic/keyword-spacing': 'error',
      '@stylistic/space-infix-ops': 'error',
      '@stylistic/comma-spacing': 'error',
      '@stylistic/key-spacing': 'error',
      '@stylistic/space-before-blocks': 'error',
      '@stylistic/no-tabs': 'error',
      '@stylistic/linebreak-style': ['error', 'unix'],
      '@stylistic/max-len': ['error', { code: 200, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }],
      // The project forbids both (README, code habits).
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      // Sanitisers strip control characters on purpose (text cleaning, HTML escaping).
      'no-control-regex': 'off',
      // Tidiness, not correctness: reported as warnings, so code merged from parallel branches
      // does not fail CI on them; fix them when you see them.
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'prefer-const': 'warn',
      'no-useless-escape': 'warn',
      'no-empty': ['warn', { allowEmptyCatch: true }],
      'layers/boundaries': [
        'error',
        [
          ...PURE_FOLDERS.map((f) => ({ from: `src/${f}`, forbid: ['src/db'], because: PURE })),
          ...DOMAIN_FOLDERS.map((f) => ({ from: `src/${f}`, forbid: EDGES, because: DOMAIN })),
          ...API_GROUPS.map((g) => apiGroup(g, API_GROUPS.filter((o) => o !== g))),
        ],
      ],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its error (an unhandled rejection ends
    // the process) and its order. TypeScript's project service reads each file's tsconfig.json.
    files: ['**/*.ts', '**/*.mts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // The few scripts the web pages load: they run in the browser, not in Node.
    files: ['src/pages/assets/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', navigator: 'readonly', localStorage: 'readonly', CSS: 'readonly' },
    },
  },
);

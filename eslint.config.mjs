// ESLint: type-aware TypeScript rules everywhere, and the workflow determinism rules on
// workflows/** (no Node built-ins, no client/worker/activity packages, activities only as types).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

// Configuration is read through platform/config/ only. A later block's `no-restricted-properties`
// replaces an earlier one's options, so a block that adds restrictions lists this one again by
// name.
const processEnvRestriction = {
  object: 'process',
  property: 'env',
  message: 'Read configuration through platform/config/ (platform/config/schema.ts declares every variable).',
};

// Failures are made by domain/failures.ts (nonRetryable, retryable, stillWaiting), never by hand.
const failureFactoryRestrictions = ['nonRetryable', 'retryable', 'create'].map((property) => ({
  object: 'ApplicationFailure',
  property,
  message: 'Raise failures through domain/failures.ts (nonRetryable(type, reason), retryable, stillWaiting).',
}));

// Reading a variable out of the whole environment processEnv() hands on.
const processEnvPickSyntax = {
  selector: "MemberExpression[object.type='CallExpression'][object.callee.name='processEnv']",
  message:
    'Read a variable through platform/config/ (readConfiguration, readVariable): processEnv() is handed on whole.',
};

// One failure vocabulary: what crosses an activity boundary is a failure of a registered type
// (domain/failure-types.ts), and an error class of the client carries a registered `type`.
const unregisteredThrowSyntax = {
  selector: 'ThrowStatement > NewExpression',
  message:
    'Throw a failure of a registered type (domain/failures.ts: nonRetryable, retryable, stillWaiting), not a new error.',
};
const literalErrorTypeSyntax = {
  selector: "ClassDeclaration[superClass] PropertyDefinition[key.name='type'] > Literal",
  message: "An error's type is registered in domain/failure-types.ts (FailureTypes, ClientErrorTypes): name it there.",
};

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', '.artifacts/**', 'coverage/**', 'dist/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      'import-x/no-cycle': 'error',
      // One import statement per module: a type import goes inline (`import { type A, b }`).
      'import-x/no-duplicates': ['error', { 'prefer-inline': true }],
    },
  },
  {
    // Configuration comes from platform/config/: every variable is declared in
    // platform/config/schema.ts and checked at start, and a module takes its value parsed
    // (readConfiguration, or readVariable for one); the environment itself is reached through
    // platform/config/process-env.ts, to hand on whole, never to pick a variable from. Exceptions:
    // tests and tools/bench/ set up their own processes; tools/scripts/cluster/ hands its
    // environment to the Temporal and PostgreSQL processes it starts, which are not cardflow's
    // configuration; and workers/heap-limit.ts reads NODE_OPTIONS, Node's own start-up options
    // (whether the operator gave the process a heap limit), a fact of the runtime the process runs
    // in that Node itself has already applied, not a cardflow setting.
    files: ['**/*.ts'],
    ignores: ['platform/config/**', 'test/**', 'tools/bench/**', 'tools/scripts/cluster/**', 'workers/heap-limit.ts'],
    rules: {
      'no-restricted-properties': ['error', processEnvRestriction],
      'no-restricted-syntax': ['error', processEnvPickSyntax],
    },
  },
  {
    // Workflows and activities raise failures in one way: domain/failures.ts's `nonRetryable(type,
    // reason)`, `retryable`, `stillWaiting`, with a type registered in domain/failure-types.ts
    // (provider errors convert in activities/failures.ts).
    files: ['activities/**/*.ts', 'workflows/**/*.ts'],
    ignores: ['activities/failures.ts'],
    rules: {
      'no-restricted-properties': ['error', processEnvRestriction, ...failureFactoryRestrictions],
      'no-restricted-syntax': ['error', processEnvPickSyntax, unregisteredThrowSyntax],
    },
  },
  {
    // The errors the client package and the shared contract throw carry a registered type.
    files: ['client/**/*.ts', 'domain/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', processEnvPickSyntax, literalErrorTypeSyntax],
    },
  },
  {
    files: ['test/**/*.ts', 'tools/bench/**/*.ts'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Workflow code is replayed: it must be deterministic, and the bundler rejects Node APIs.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Workflows are deterministic and sandboxed: no Node built-ins.',
          })),
          patterns: [
            {
              group: [
                '@temporalio/client',
                '@temporalio/worker',
                '@temporalio/activity',
                '@temporalio/testing',
                'undici',
                'node-forge',
              ],
              message: 'Workflows import only @temporalio/workflow and shared definitions.',
            },
            {
              group: [
                '**/activities',
                '**/activities/**',
                '**/provider/client',
                '**/provider/http',
                '**/tools/**',
                '**/webhooks/**',
                '**/workers/**',
                '**/client/**',
                '**/platform/temporal/**',
              ],
              allowTypeImports: true,
              message: 'Workflows may import activity signatures as types only (import type).',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() in a loop, or a timer-free condition().' },
        { name: 'process', message: 'Workflows must not read the environment.' },
      ],
    },
  },
  {
    // The bundle's entry is CommonJS: it exports the workflows it finds, which no static export
    // list can name (workflows/index.ts).
    files: ['workflows/index.ts'],
    rules: { '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }] },
  },
  {
    // A comment a reader takes in at a glance: no comment line over 100 columns, as Prettier keeps
    // the code. Only comments are measured (code: a bound Prettier already keeps); a URL may run on.
    files: ['**/*.ts'],
    rules: {
      'max-len': [
        'error',
        { code: 1000, comments: 100, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true },
      ],
    },
  },
  {
    // A function a reader can follow: no production function over 100 lines, in every folder but
    // the tests. A table that must stay one literal says so where it is exempted.
    files: ['**/*.ts'],
    ignores: ['test/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
    },
  },
);

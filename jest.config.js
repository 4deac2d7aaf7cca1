// Three tiers: pure unit tests, component tests on local HTTP servers, and integration tests that
// run on the real Temporal dev server (started once by the global setup) against the sandbox.
const transform = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};

/** @type {import('jest').Config} */
module.exports = {
  // 'default' plus one plain closing line `jest: N passed, N failed, N skipped` for CI to count.
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      // Real local HTTP servers on port 0 (client transport, sandbox, webhook receiver); no
      // Temporal.
      displayName: 'component',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/component/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/component/support/timeouts.ts'],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/integration/support/timeouts.ts'],
    },
    {
      // The Helm chart (tools/deploy/helm/cardflow): linted and rendered by Helm, its environment
      // and probes held to the processes, applied to a real kube-apiserver (server-side dry run).
      // Needs the Go builds of tools/scripts/helm.sh and kube-apiserver.sh; no Temporal.
      displayName: 'kubernetes',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/kubernetes/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/kubernetes/support/timeouts.ts'],
    },
    {
      // The production topology: a Temporal cluster on PostgreSQL (several processes, started once
      // by the global setup), worker and receiver processes scaled out. Run on its own (`npm run
      // test:cluster`, in band: the fault test restarts parts of the shared cluster).
      displayName: 'cluster',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/cluster/**/*.test.ts'],
      globalSetup: '<rootDir>/test/cluster/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/cluster/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/cluster/support/timeouts.ts'],
    },
  ],
};

/**
 * Jest global setup of the integration tier: ONE real Temporal dev server for the whole run,
 * started from the CLI that `tools/scripts/temporal-cli.sh` finds or builds (never the SDK's
 * download, which needs the network), on a free port, with the project's search attributes
 * registered. Tests find it through `CARDFLOW_TEST_TEMPORAL_ADDRESS`
 * (`test/support/temporal-env.ts`).
 *
 * Set `CARDFLOW_TEST_TEMPORAL_ADDRESS` yourself to run the tier against a server you started (e.g.
 * `npm run dev-server -- start`); then nothing is started here.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { cardflowSearchAttributes } from '../../../domain/search-attributes';
import { resolveTemporalCli } from '../../../tools/scripts/lib/temporal-cli';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { addressEnv, codecKeysFileEnv, namespaceEnv } from './temporal-env';
import { issuedSecretsFileEnv } from './issued-secrets';

/**
 * Setup and teardown run in the jest parent process but may load this file through different
 * module registries, so the started environment is kept on `globalThis`.
 */
const stateKey = Symbol.for('cardflow.test.temporal-environment');
type Holder = typeof globalThis & { [stateKey]?: TestWorkflowEnvironment };

/** Takes the environment the setup started (once); undefined when none was started. */
export function takeStartedEnvironment(): TestWorkflowEnvironment | undefined {
  const holder = globalThis as Holder;
  const env = holder[stateKey];
  delete holder[stateKey];
  return env;
}

export default async function globalSetup(): Promise<void> {
  process.env[codecKeysFileEnv] ??= join(mkdtempSync(join(tmpdir(), 'cardflow-test-keys-')), 'codec-keys');
  // Beside the keys (and removed with them): the 3DS values the sandboxes issued, for the
  // teardown's scan.
  process.env[issuedSecretsFileEnv] ??= join(dirname(process.env[codecKeysFileEnv]), 'issued-3ds');
  if (process.env[addressEnv]) return;
  const cliPath = await resolveTemporalCli();
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cliPath },
      ip: '127.0.0.1',
      searchAttributes: [...cardflowSearchAttributes],
      log: { format: 'pretty', level: 'warn' },
    },
  });
  (globalThis as Holder)[stateKey] = env;
  process.env[addressEnv] = env.address;
  process.env[namespaceEnv] = env.namespace ?? 'default';
}

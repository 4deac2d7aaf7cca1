/**
 * `npm run codec-server` (compose's `codec-server`): `/encode` and `/decode` for the Web UI and
 * CLI with this environment's keys; `/healthz`, `/readyz` without a token; metrics with
 * `CARDFLOW_METRICS_ADDRESS`; a bad setting or key exits 2. `npm run -s codec-server --
 * --generate-key [id]` prints a fresh `id:base64key` for `CARDFLOW_CODEC_KEYS` to stdout only, for
 * redirecting into a secret file.
 */
import { readConfiguration } from '../config/schema';
import { exitCodeFor, failureMessage, loadConfiguration } from '../config/startup';
import { keysCheck } from '../health/checks';
import { healthRoutes } from '../health/routes';
import { createLogger } from '../logging/logger';
import { createProcessRegistry, startMetricsServer } from '../telemetry/metrics-server';
import { compiledBuildId } from '../telemetry/build-id';
import { cardflowVersion } from '../config/version';
import { codecServerOptions } from './config';
import { resolveKeyring } from './dev-keys';
import { generateKeyBase64 } from './keys';
import { codecServerMetrics } from './metrics';
import { startCodecServer } from './server';
import { entryPointArgs } from '../config/command-line';
import { processEnv } from '../config/process-env';

async function main(args: string[]): Promise<number> {
  if (args[0] === '--generate-key') {
    const id = args[1] ?? `k${new Date().toISOString().slice(0, 10).replace(/-/g, '')}`;
    process.stdout.write(`${id}:${generateKeyBase64()}\n`);
    return 0;
  }
  if (args.length > 0) {
    console.error('usage: npm run -s codec-server [-- --generate-key [id]]');
    return 2;
  }
  const { settings, metricsAddress, keyring, source } = loadConfiguration(() => {
    const config = readConfiguration(processEnv());
    return {
      settings: codecServerOptions(config),
      metricsAddress: config.CARDFLOW_METRICS_ADDRESS,
      ...resolveKeyring(config),
    };
  });
  const logger = createLogger({ base: { service: 'codec-server' } });
  const registry = metricsAddress
    ? createProcessRegistry({ buildId: compiledBuildId(), version: cardflowVersion() })
    : undefined;
  const server = await startCodecServer({
    ...settings,
    keyring,
    logger,
    health: healthRoutes([
      keysCheck('codec-keys', () => `current ${keyring.current.id}, ${keyring.ids.length} in all`),
    ]),
    ...(registry ? codecServerMetrics(registry) : {}),
  });
  const metricsServer = metricsAddress && registry ? await startMetricsServer(metricsAddress, registry) : undefined;
  logger.info('codec server listening', {
    url: server.url,
    keySource: source,
    currentKeyId: keyring.current.id,
    keyIds: keyring.ids,
    tokenlessAccess: settings.tokenlessAccess,
    tokenConfigured: settings.token !== undefined,
    allowedOrigins: settings.allowedOrigins,
    metrics: metricsServer?.url ?? 'off',
  });
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      logger.info('codec server stopping', { signal });
      Promise.all([server.stop(), metricsServer?.stop()]).then(() => resolve(), resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

if (require.main === module) {
  const { options } = entryPointArgs({
    name: 'npm run codec-server',
    summary: 'serves /encode and /decode for the Temporal Web UI and CLI with the payload keys of this environment',
    details: ['Exit codes: 2 a configuration problem (nothing started), 1 a failure after start-up.'],
    define: (command) =>
      command.option(
        '--generate-key [id]',
        'print a fresh id:base64key entry for CARDFLOW_CODEC_KEYS and exit (id: k<today> by default)',
      ),
  });
  const generate = options.generateKey;
  main(generate === undefined ? [] : ['--generate-key', ...(typeof generate === 'string' ? [generate] : [])]).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      // Key errors never carry key material (platform/codec/keys.ts), so the message is safe to
      // print.
      createLogger({ base: { service: 'codec-server' } }).error('codec server failed to start', {
        reason: failureMessage(error),
      });
      process.exitCode = exitCodeFor(error);
    },
  );
}

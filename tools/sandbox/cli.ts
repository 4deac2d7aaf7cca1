/**
 * `npm run sandbox -- [options]`: starts the provider sandbox for people (see
 * tools/sandbox/SERVER.md). Prints its base URL and the CARDFLOW_* environment that points cardflow
 * at it; stops cleanly on SIGINT / SIGTERM.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { parseFaultUpdate } from './server/faults';
import { parseJson } from '../../provider/json';
import { type FaultUpdate, scaledDelays, startSandbox } from './index';

export const CLI_DEFAULTS = { port: 8787, host: '127.0.0.1', keysDir: '.data/sandbox/keys', delayScale: 1 } as const;

const USAGE = `Usage: npm run sandbox -- [options]

  --port N            TCP port (default ${CLI_DEFAULTS.port}; 0 = any free port)
  --host ADDR         bind address (default ${CLI_DEFAULTS.host})
  --keys-dir DIR      keys directory, created with fresh keys on first start (default ${CLI_DEFAULTS.keysDir})
  --webhook-url URL   where webhooks are delivered (default: none, events are only logged)
  --seed N            seed of ids, outcomes and faults (default: a fresh random one, printed)
  --delay-scale X     multiplies the default delays (seconds; 0 = instant) (default ${CLI_DEFAULTS.delayScale})
  --clock MODE        real (default) or manual (time moves only via POST /sandbox/advanceClock)
  --faults JSON       initial fault settings, e.g. '{"errorRate":0.1,"latencyMs":200}'
  --help              this text
`;

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function numberOption(
  value: string | undefined,
  name: string,
  fallback: number,
  check: (n: number) => boolean,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !check(n)) fail(`--${name} ${value} is not valid`);
  return n;
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'keys-dir': { type: 'string' },
        'webhook-url': { type: 'string' },
        seed: { type: 'string' },
        'delay-scale': { type: 'string' },
        clock: { type: 'string' },
        faults: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const str = (name: string) => values[name] as string | undefined;
  const port = numberOption(str('port'), 'port', CLI_DEFAULTS.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
  const seed = str('seed') === undefined ? undefined : numberOption(str('seed'), 'seed', 0, Number.isSafeInteger);
  const delayScale = numberOption(str('delay-scale'), 'delay-scale', CLI_DEFAULTS.delayScale, (n) => n >= 0);
  const clock = str('clock') ?? 'real';
  if (clock !== 'real' && clock !== 'manual') fail(`--clock must be real or manual`);
  let faults: FaultUpdate | undefined;
  if (str('faults') !== undefined) {
    try {
      faults = parseFaultUpdate(parseJson(str('faults')!));
    } catch (err) {
      fail(
        err instanceof z.ZodError
          ? `--faults: ${err.issues.map((i) => `${i.path.join('.') || 'value'}: ${i.message}`).join('; ')}`
          : `--faults is not JSON: ${(err as Error).message}`,
      );
    }
  }
  const webhookUrl = str('webhook-url');
  const keysDir = str('keys-dir') ?? CLI_DEFAULTS.keysDir;

  const sandbox = await startSandbox({
    port,
    host: str('host') ?? CLI_DEFAULTS.host,
    keysDir,
    ...(seed === undefined ? {} : { seed }),
    clock,
    delays: scaledDelays(delayScale),
    ...(webhookUrl ? { webhookUrl } : {}),
    ...(faults ? { faults } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  });

  const env = Object.entries(sandbox.env)
    .map(([k, v]) => `  export ${k}=${v}`)
    .join('\n');
  process.stdout.write(
    `cardflow provider sandbox listening on ${sandbox.url}\n` +
      `keys: ${sandbox.keys.dir ?? '(in memory)'} (env file: ${sandbox.keys.dir ? `${sandbox.keys.dir}/.env` : 'none'})\n` +
      `webhooks: ${webhookUrl ?? 'none (set with POST /sandbox/webhooks/config)'}; clock: ${clock}; seed: ${sandbox.seed}; delay scale: ${delayScale}\n` +
      `environment for cardflow:\n${env}\n`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`sandbox: ${signal}, stopping\n`);
    sandbox.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`sandbox: error while stopping: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`sandbox: ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});

/**
 * The server processes of the image stop with exit code 2 and the name of what is missing
 * (config/startup.ts), and so does the image's entry point for a secret file it cannot read.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

// Spawning tsx is slow on a loaded machine.
jest.setTimeout(60_000);

/** Runs `file` with only the given environment (as a container starts), like `node dist/...`. */
function start(file: string, env: Record<string, string>) {
  const result = spawnSync(TSX, [file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), NODE_ENV: 'production', ...env },
    encoding: 'utf8',
    timeout: 45_000,
  });
  return { code: result.status, stderr: result.stderr };
}

describe('a server process with a setting missing exits 2 naming it', () => {
  it.each([
    ['workers/main.ts', { CARDFLOW_ENV: 'production' }, 'CARDFLOW_PROVIDER_BASE_URL'],
    ['webhooks/main.ts', { CARDFLOW_ENV: 'production' }, 'CARDFLOW_PLATFORM_PUBLIC_KEY'],
    ['codec/main.ts', { CARDFLOW_ENV: 'production' }, 'CARDFLOW_CODEC_KEYS'],
    ['deploy/setup-temporal.ts', { CARDFLOW_NAMESPACE_RETENTION_DAYS: '0' }, 'CARDFLOW_NAMESPACE_RETENTION_DAYS'],
  ])('%s with %j', (file, env, variable) => {
    const { code, stderr } = start(file, env);
    expect(stderr).toContain('configuration: ');
    expect(stderr).toContain(variable);
    expect(code).toBe(2);
  });

  it('every malformed variable is listed at once, an empty port included (config/schema.ts)', () => {
    const { code, stderr } = start('webhooks/main.ts', {
      CARDFLOW_WEBHOOK_PORT: '',
      CARDFLOW_PROBE_SLOTS: 'many',
      CARDFLOW_RECONCILE_INTERVAL: '10s',
    });
    expect(stderr).toContain('CARDFLOW_WEBHOOK_PORT: is set but empty');
    expect(stderr).toContain('CARDFLOW_PROBE_SLOTS: must be a whole number');
    expect(stderr).toContain('CARDFLOW_RECONCILE_INTERVAL: must be at least 1m');
    expect(code).toBe(2);
  });

  it('a key file that does not exist names its variable', () => {
    const { code, stderr } = start('webhooks/main.ts', {
      CARDFLOW_ENV: 'production',
      CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: '/nonexistent/platform_public_key',
    });
    expect(stderr).toContain('CARDFLOW_PLATFORM_PUBLIC_KEY_FILE');
    expect(code).toBe(2);
  });
});

describe('deploy/docker-entrypoint.sh', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-entrypoint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function entrypoint(
    env: Record<string, string>,
    command: string[] = ['sh', '-c', 'printf %s "$CARDFLOW_DATABASE_URL"'],
  ) {
    const result = spawnSync('sh', [join(ROOT, 'deploy/docker-entrypoint.sh'), ...command], {
      env: { PATH: process.env.PATH ?? '', CARDFLOW_ENV_FROM_FILE: 'CARDFLOW_DATABASE_URL', ...env },
      encoding: 'utf8',
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it('reads the secret file into the variable and runs the command', () => {
    const file = join(dir, 'database_url');
    writeFileSync(file, 'postgres://u:p@db/cardflow\n');
    expect(entrypoint({ CARDFLOW_DATABASE_URL_FILE: file })).toEqual({
      code: 0,
      stdout: 'postgres://u:p@db/cardflow',
      stderr: '',
    });
  });

  it.each([
    ['not set', {}, 'CARDFLOW_DATABASE_URL_FILE is not set'],
    ['absent', { CARDFLOW_DATABASE_URL_FILE: join(dir, 'absent') }, 'does not exist'],
    ['empty', { CARDFLOW_DATABASE_URL_FILE: join(dir, 'empty') }, 'is empty'],
  ])('exits 2 when the secret file is %s', (_what, env, message) => {
    writeFileSync(join(dir, 'empty'), '');
    const { code, stderr } = entrypoint(env);
    expect(stderr).toContain('configuration: ');
    expect(stderr).toContain(message);
    expect(code).toBe(2);
  });

  // root reads any file: the entry point runs as an unprivileged user (setpriv, util-linux), as root only can.
  (process.getuid?.() === 0 ? it : it.skip)('exits 2 when the secret file is unreadable to the process', () => {
    {
      const file = join(dir, 'locked');
      writeFileSync(file, 'secret');
      chmodSync(file, 0o600);
      chmodSync(dir, 0o755);
      const result = spawnSync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', 'sh', join(ROOT, 'deploy/docker-entrypoint.sh'), 'true'],
        {
          env: {
            PATH: process.env.PATH ?? '',
            CARDFLOW_ENV_FROM_FILE: 'CARDFLOW_DATABASE_URL',
            CARDFLOW_DATABASE_URL_FILE: file,
          },
          encoding: 'utf8',
        },
      );
      expect(result.stderr).toContain('is not readable by uid 65534');
      expect(result.status).toBe(2);
    }
  });
});

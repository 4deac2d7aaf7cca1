/**
 * The server processes of the image stop with exit code 2 and the name of what is missing
 * (platform/config/startup.ts), a secret file they cannot read (`NAME_FILE`) included.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../../..');
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
    ['platform/codec/main.ts', { CARDFLOW_ENV: 'production' }, 'CARDFLOW_CODEC_KEYS'],
    ['tools/deploy/setup-temporal.ts', { CARDFLOW_NAMESPACE_RETENTION_DAYS: '0' }, 'CARDFLOW_NAMESPACE_RETENTION_DAYS'],
  ])('%s with %j', (file, env, variable) => {
    const { code, stderr } = start(file, env);
    expect(stderr).toContain('configuration: ');
    expect(stderr).toContain(variable);
    expect(code).toBe(2);
  });

  it('every malformed variable is listed at once, an empty port included (platform/config/schema.ts)', () => {
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

describe('the secret files of the image are read by the processes themselves', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-secrets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['CARDFLOW_DATABASE_URL_FILE', 'cannot read the file (ENOENT)'],
    ['CARDFLOW_PROVIDER_API_KEY_FILE', 'cannot read the file (ENOENT)'],
    ['TEMPORAL_API_KEY_FILE', 'cannot read the file (ENOENT)'],
  ])('the worker exits 2 when %s names no file', (variable, message) => {
    const { code, stderr } = start('workers/main.ts', { [variable]: join(dir, 'absent') });
    expect(stderr).toContain(`${variable}=${join(dir, 'absent')}: ${message}`);
    expect(code).toBe(2);
  });

  // Root reads any file: the process keeps root's user (so it reaches the checkout wherever it
  // sits, a folder of mode 0700 included) but runs without the capabilities that override file
  // permissions (setpriv, util-linux), and the file belongs to another user.
  (process.getuid?.() === 0 ? it : it.skip)('the worker exits 2 when a secret file is unreadable to it', () => {
    const file = join(dir, 'locked');
    writeFileSync(file, 'postgres://u:p@db/cardflow');
    chownSync(file, 65534, 65534);
    chmodSync(file, 0o600);
    const withoutFileOverride = ['--inh-caps=-all', '--bounding-set=-dac_override,-dac_read_search', '--'];
    const result = spawnSync('setpriv', [...withoutFileOverride, TSX, 'workers/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), NODE_ENV: 'production', CARDFLOW_DATABASE_URL_FILE: file },
      encoding: 'utf8',
      timeout: 45_000,
    });
    expect(result.stderr).toContain(`CARDFLOW_DATABASE_URL_FILE=${file}: cannot read the file (EACCES)`);
    expect(result.status).toBe(2);
  });
});

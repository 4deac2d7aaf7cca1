/** The keys directory: created once with fixed file names, reused after, never half-overwritten. */
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerConfig } from '../../../../provider/config';
import { configured } from '../../../support/configured';
import { modulusBytes } from '../../../../provider/keys';
import { signBody, verifySignature } from '../../../../provider/signing';
import { KEY_FILES, SANDBOX_KEY_BITS, ensureSandboxKeys } from '../../../../tools/sandbox/keys';
import { startSandbox } from '../../../../tools/sandbox/index';

// Real servers and RSA keys: allow for a loaded machine (the project-level testTimeout does not
// reach here).
jest.setTimeout(30_000);

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'sandbox-keys-')), 'keys');
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

it('creates the documented files on first use, private ones mode 0600, 1024-bit keys', () => {
  const keys = ensureSandboxKeys(dir);
  for (const name of [
    KEY_FILES.merchantPrivate,
    KEY_FILES.merchantPublic,
    KEY_FILES.platformPrivate,
    KEY_FILES.platformPublic,
    KEY_FILES.apiKey,
  ]) {
    expect(statSync(join(dir, name)).isFile()).toBe(true);
  }
  expect(statSync(join(dir, KEY_FILES.merchantPrivate)).mode & 0o777).toBe(0o600);
  expect(statSync(join(dir, KEY_FILES.apiKey)).mode & 0o777).toBe(0o600);
  expect(readFileSync(join(dir, KEY_FILES.merchantPublic), 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  expect(readFileSync(join(dir, KEY_FILES.apiKey), 'utf8').trim()).toBe(keys.apiKey);
  expect(modulusBytes(keys.platform.publicKey) * 8).toBe(SANDBOX_KEY_BITS);
  expect(keys.dir).toBe(dir);
});

it('reuses the keys on later starts', () => {
  const first = ensureSandboxKeys(dir);
  const second = ensureSandboxKeys(dir);
  expect(second.apiKey).toBe(first.apiKey);
  expect(second.merchant.publicKeyPem).toBe(first.merchant.publicKeyPem);
  // A signature made with the first load verifies with the second.
  expect(verifySignature('{}', signBody('{}', first.platform.privateKey), second.platform.publicKey)).toBe(true);
});

it('refuses a directory missing some files instead of overwriting the rest', () => {
  ensureSandboxKeys(dir);
  unlinkSync(join(dir, KEY_FILES.platformPrivate));
  expect(() => ensureSandboxKeys(dir)).toThrow(/incomplete \(missing platform-private\.pem\)/);
});

it('writes .env on start; provider/ loads a working configuration from it', async () => {
  const sandbox = await startSandbox({ keysDir: dir });
  try {
    const text = readFileSync(join(dir, KEY_FILES.env), 'utf8');
    const env = Object.fromEntries(
      text
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(env).toEqual(sandbox.env);
    const config = providerConfig(configured(env));
    expect(config.baseUrl).toBe(sandbox.url);
    expect(config.apiKey).toBe(sandbox.keys.apiKey);
    expect(verifySignature('x', signBody('x', config.merchantPrivateKey), sandbox.keys.merchant.publicKey)).toBe(true);
  } finally {
    await sandbox.stop();
  }
});

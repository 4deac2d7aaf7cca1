import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderConfigError, providerConfig } from '../../../provider/config';
import { ConfigurationProblems } from '../../../platform/config/schema';
import { configured } from '../../support/configured';
import { generateRsaKeyPair } from '../../../provider/keys';
import { thrownBy } from '../../support/thrown';

const merchant = generateRsaKeyPair(1024);
const platform = generateRsaKeyPair(1024);

const valid = {
  CARDFLOW_PROVIDER_BASE_URL: 'https://provider.example',
  CARDFLOW_PROVIDER_API_KEY: 'api-key-1',
  CARDFLOW_MERCHANT_PRIVATE_KEY: merchant.privateKeyBase64Der,
  CARDFLOW_PLATFORM_PUBLIC_KEY: platform.publicKeyBase64Der,
};

const problemsOf = (env: Record<string, string | undefined>): readonly string[] =>
  thrownBy(() => providerConfig(configured(env)), ProviderConfigError).problems;

describe('providerConfig', () => {
  it('reads a complete environment with defaults', () => {
    const config = providerConfig(configured(valid));
    expect(config).toMatchObject({
      baseUrl: 'https://provider.example',
      apiKey: 'api-key-1',
      timeoutMs: 15000,
      verifyResponseSignatures: true,
    });
    expect(config.merchantPrivateKey.type).toBe('private');
    expect(config.platformPublicKey.type).toBe('public');
  });

  it('reads keys from files, a timeout and the verification switch', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cardflow-config-'));
    writeFileSync(join(dir, 'm.pem'), merchant.privateKeyPem);
    writeFileSync(join(dir, 'p.pem'), platform.publicKeyPem);
    const config = providerConfig(
      configured({
        ...valid,
        CARDFLOW_MERCHANT_PRIVATE_KEY: undefined,
        CARDFLOW_PLATFORM_PUBLIC_KEY: undefined,
        CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: join(dir, 'm.pem'),
        CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: join(dir, 'p.pem'),
        CARDFLOW_PROVIDER_TIMEOUT_MS: '2500',
        CARDFLOW_PROVIDER_CONNECTIONS: '64',
        CARDFLOW_VERIFY_RESPONSE_SIGNATURES: 'false',
      }),
    );
    expect(config.timeoutMs).toBe(2500);
    expect(config.connections).toBe(64);
    expect(config.verifyResponseSignatures).toBe(false);
  });

  it('lists every missing variable in one error', () => {
    expect(problemsOf({})).toEqual([
      'CARDFLOW_PROVIDER_BASE_URL: is required',
      'CARDFLOW_PROVIDER_API_KEY or CARDFLOW_PROVIDER_API_KEY_FILE: one is required',
      'CARDFLOW_MERCHANT_PRIVATE_KEY or CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: one is required',
      'CARDFLOW_PLATFORM_PUBLIC_KEY or CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: one is required',
    ]);
  });

  it('reads the API key from its file form too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cardflow-config-'));
    writeFileSync(join(dir, 'api-key'), 'api-key-from-file\n');
    const env = {
      ...valid,
      CARDFLOW_PROVIDER_API_KEY: undefined,
      CARDFLOW_PROVIDER_API_KEY_FILE: join(dir, 'api-key'),
    };
    expect(providerConfig(configured(env)).apiKey).toBe('api-key-from-file');
  });

  it('lists every malformed variable at once, without key material', () => {
    const env = {
      CARDFLOW_PROVIDER_BASE_URL: 'provider.example',
      CARDFLOW_PROVIDER_API_KEY: 'k',
      CARDFLOW_MERCHANT_PRIVATE_KEY: merchant.privateKeyBase64Der,
      CARDFLOW_PLATFORM_PUBLIC_KEY: platform.publicKeyPem,
      CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: '/etc/platform.pem',
      CARDFLOW_PROVIDER_TIMEOUT_MS: '15s',
      CARDFLOW_PROVIDER_CONNECTIONS: '0',
      CARDFLOW_VERIFY_RESPONSE_SIGNATURES: 'yes',
    };
    const error = thrownBy(() => configured(env), ConfigurationProblems);
    expect(error.problems).toHaveLength(5);
    expect(error.message).toMatch(/CARDFLOW_PROVIDER_BASE_URL: must be an http\(s\) URL/);
    expect(error.message).toMatch(/CARDFLOW_PROVIDER_TIMEOUT_MS: must be a positive whole number/);
    expect(error.message).toMatch(/CARDFLOW_PROVIDER_CONNECTIONS: must be a whole number from 1 to 9999/);
    expect(error.message).toMatch(/CARDFLOW_VERIFY_RESPONSE_SIGNATURES: must be true or false/);
    expect(error.message).toMatch(/CARDFLOW_PLATFORM_PUBLIC_KEY and CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: set only one/);
    expect(error.message).not.toContain(platform.publicKeyBase64Der.slice(30, 60));
  });

  it('names a key that does not parse, without its material', () => {
    const badKey = merchant.privateKeyBase64Der.slice(0, 120);
    const problems = problemsOf({ ...valid, CARDFLOW_MERCHANT_PRIVATE_KEY: badKey });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/CARDFLOW_MERCHANT_PRIVATE_KEY: could not be parsed/);
    expect(problems[0]).not.toContain(badKey.slice(30, 60));
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderConfigError, loadProviderConfig } from '../../../api/config';
import { generateRsaKeyPair } from '../../../api/keys';
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
  thrownBy(() => loadProviderConfig(env), ProviderConfigError).problems;

describe('loadProviderConfig', () => {
  it('reads a complete environment with defaults', () => {
    const config = loadProviderConfig(valid);
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
    const config = loadProviderConfig({
      ...valid,
      CARDFLOW_MERCHANT_PRIVATE_KEY: undefined,
      CARDFLOW_PLATFORM_PUBLIC_KEY: undefined,
      CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: join(dir, 'm.pem'),
      CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: join(dir, 'p.pem'),
      CARDFLOW_PROVIDER_TIMEOUT_MS: '2500',
      CARDFLOW_PROVIDER_CONNECTIONS: '64',
      CARDFLOW_VERIFY_RESPONSE_SIGNATURES: 'false',
    });
    expect(config.timeoutMs).toBe(2500);
    expect(config.connections).toBe(64);
    expect(config.verifyResponseSignatures).toBe(false);
  });

  it('lists every missing variable in one error', () => {
    expect(problemsOf({})).toEqual([
      'CARDFLOW_PROVIDER_BASE_URL: is required',
      'CARDFLOW_PROVIDER_API_KEY: is required',
      'CARDFLOW_MERCHANT_PRIVATE_KEY or CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: one is required',
      'CARDFLOW_PLATFORM_PUBLIC_KEY or CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: one is required',
    ]);
  });

  it('lists every malformed variable, without key material', () => {
    const badKey = merchant.privateKeyBase64Der.slice(0, 120);
    const env = {
      CARDFLOW_PROVIDER_BASE_URL: 'provider.example',
      CARDFLOW_PROVIDER_API_KEY: 'k',
      CARDFLOW_MERCHANT_PRIVATE_KEY: badKey,
      CARDFLOW_PLATFORM_PUBLIC_KEY: platform.publicKeyPem,
      CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: '/etc/platform.pem',
      CARDFLOW_PROVIDER_TIMEOUT_MS: '15s',
      CARDFLOW_PROVIDER_CONNECTIONS: '0',
      CARDFLOW_VERIFY_RESPONSE_SIGNATURES: 'yes',
    };
    const problems = problemsOf(env);
    expect(problems).toHaveLength(6);
    expect(problems.join('\n')).toMatch(/CARDFLOW_PROVIDER_BASE_URL: must be an http\(s\) URL/);
    expect(problems.join('\n')).toMatch(/CARDFLOW_PROVIDER_TIMEOUT_MS: must be a positive whole number/);
    expect(problems.join('\n')).toMatch(/CARDFLOW_PROVIDER_CONNECTIONS: must be a whole number from 1 to 9999/);
    expect(problems.join('\n')).toMatch(/CARDFLOW_VERIFY_RESPONSE_SIGNATURES: must be true or false/);
    expect(problems.join('\n')).toMatch(/CARDFLOW_MERCHANT_PRIVATE_KEY: could not be parsed/);
    expect(problems.join('\n')).toMatch(
      /CARDFLOW_PLATFORM_PUBLIC_KEY and CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: set only one/,
    );
    let message = '';
    try {
      loadProviderConfig(env);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).not.toContain(badKey.slice(30, 60));
    expect(message).not.toContain(platform.publicKeyBase64Der.slice(30, 60));
  });
});

/**
 * Provider client configuration from the parsed variables (platform/config/schema.ts checks their
 * rules): every missing variable and unreadable key is reported in one error; key material never
 * appears in a message.
 *
 * Its variables (`CARDFLOW_PROVIDER_*`, the merchant and platform keys,
 * `CARDFLOW_VERIFY_RESPONSE_SIGNATURES`), with their meanings, defaults and rules: README's
 * configuration table, generated from platform/config/schema.ts (`npm run config-table`). A call
 * waiting for one of the pool's connections waits inside its timeout.
 */
import type { KeyObject } from 'node:crypto';
import { configured, type ConfigurationSlice, schemaDefault } from '../platform/config/schema';
import type { Sourced } from '../platform/config/variable';
import { KeyFormatError, privateKeyFrom, publicKeyFrom } from './keys';

export interface ProviderConfig {
  baseUrl: string;
  apiKey: string;
  merchantPrivateKey: KeyObject;
  platformPublicKey: KeyObject;
  /** Whole-request timeout; default `CARDFLOW_PROVIDER_TIMEOUT_MS`'s. */
  timeoutMs: number;
  /** Size of the connection pool; default {@link DEFAULT_CONNECTIONS}. */
  connections?: number;
  /** Verify X-WSB-SIGNATURE on responses; default `CARDFLOW_VERIFY_RESPONSE_SIGNATURES`'s. */
  verifyResponseSignatures: boolean;
}

/** The pool's size when none is given (platform/config/schema.ts says why it is enough). */
export const DEFAULT_CONNECTIONS = schemaDefault('CARDFLOW_PROVIDER_CONNECTIONS');

/** The configuration is incomplete or wrong; `problems` lists every variable at fault. */
export class ProviderConfigError extends Error {
  readonly type = 'ProviderConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`provider configuration is invalid:\n- ${problems.join('\n- ')}`);
    this.name = 'ProviderConfigError';
  }
}

/** The variables the provider client reads (platform/config/schema.ts checks each one's rule). */
export type ProviderVariables = ConfigurationSlice<
  | 'CARDFLOW_PROVIDER_BASE_URL'
  | 'CARDFLOW_PROVIDER_API_KEY'
  | 'CARDFLOW_MERCHANT_PRIVATE_KEY'
  | 'CARDFLOW_PLATFORM_PUBLIC_KEY'
  | 'CARDFLOW_PROVIDER_TIMEOUT_MS'
  | 'CARDFLOW_PROVIDER_CONNECTIONS'
  | 'CARDFLOW_VERIFY_RESPONSE_SIGNATURES'
>;

function loadKey<T>(
  found: Sourced | undefined,
  name: string,
  problems: string[],
  fromText: (text: string, what: string) => T,
): T | undefined {
  if (!found) {
    problems.push(`${name} or ${name}_FILE: one is required`);
    return undefined;
  }
  try {
    return fromText(found.value, found.from);
  } catch (err) {
    // KeyFormatError messages name the variable and the problem, never the key.
    problems.push(err instanceof KeyFormatError ? err.message : `${name}: cannot be read`);
    return undefined;
  }
}

/**
 * The provider client's configuration from the parsed variables; throws one ProviderConfigError
 * listing every variable the provider needs that is missing, and every key that does not parse.
 */
export function providerConfig(config: ProviderVariables): ProviderConfig {
  const problems: string[] = [];
  const baseUrl = config.CARDFLOW_PROVIDER_BASE_URL;
  if (baseUrl === undefined) problems.push('CARDFLOW_PROVIDER_BASE_URL: is required');
  const apiKey = config.CARDFLOW_PROVIDER_API_KEY?.value;
  if (apiKey === undefined)
    problems.push('CARDFLOW_PROVIDER_API_KEY or CARDFLOW_PROVIDER_API_KEY_FILE: one is required');
  const merchantPrivateKey = loadKey(
    config.CARDFLOW_MERCHANT_PRIVATE_KEY,
    'CARDFLOW_MERCHANT_PRIVATE_KEY',
    problems,
    privateKeyFrom,
  );
  const platformPublicKey = loadKey(
    config.CARDFLOW_PLATFORM_PUBLIC_KEY,
    'CARDFLOW_PLATFORM_PUBLIC_KEY',
    problems,
    publicKeyFrom,
  );
  if (!baseUrl || !apiKey || !merchantPrivateKey || !platformPublicKey) throw new ProviderConfigError(problems);
  return {
    baseUrl,
    apiKey,
    merchantPrivateKey,
    platformPublicKey,
    timeoutMs: configured(config, 'CARDFLOW_PROVIDER_TIMEOUT_MS'),
    connections: configured(config, 'CARDFLOW_PROVIDER_CONNECTIONS'),
    verifyResponseSignatures: configured(config, 'CARDFLOW_VERIFY_RESPONSE_SIGNATURES'),
  };
}

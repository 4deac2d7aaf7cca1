/**
 * Provider client configuration, read from the environment through zod. Every missing or
 * malformed variable is reported in one error; key material never appears in a message.
 *
 * | variable | |
 * |---|---|
 * | CARDFLOW_PROVIDER_BASE_URL | http(s) URL, required |
 * | CARDFLOW_PROVIDER_API_KEY | required |
 * | CARDFLOW_MERCHANT_PRIVATE_KEY or CARDFLOW_MERCHANT_PRIVATE_KEY_FILE | exactly one; PEM or base64 PKCS#8 DER |
 * | CARDFLOW_PLATFORM_PUBLIC_KEY or CARDFLOW_PLATFORM_PUBLIC_KEY_FILE | exactly one; PEM or base64 X.509 DER |
 * | CARDFLOW_PROVIDER_TIMEOUT_MS | default 15000 |
 * | CARDFLOW_PROVIDER_CONNECTIONS | keep-alive connections to the provider, default 32 (a call waiting for a connection waits inside its timeout) |
 * | CARDFLOW_VERIFY_RESPONSE_SIGNATURES | default true; `false`/`0` turns response verification off |
 */
import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { secretText } from '../config/variable';
import { KeyFormatError, privateKeyFrom, publicKeyFrom } from './keys';
import { processEnv } from '../config/process-env';

export interface ProviderConfig {
  baseUrl: string;
  apiKey: string;
  merchantPrivateKey: KeyObject;
  platformPublicKey: KeyObject;
  /** Whole-request timeout; default 15000. */
  timeoutMs: number;
  /** Size of the connection pool; default {@link DEFAULT_CONNECTIONS}. */
  connections?: number;
  /** Verify X-WSB-SIGNATURE on responses; default true. */
  verifyResponseSignatures: boolean;
}

export const DEFAULT_TIMEOUT_MS = 15000;
/**
 * Enough for a worker's provider calls in flight at once (each activity holds a connection only
 * for the duration of one request); a provider hanging on every connection stalls the others.
 */
export const DEFAULT_CONNECTIONS = 32;

/** The configuration is incomplete or wrong; `problems` lists every variable at fault. */
export class ProviderConfigError extends Error {
  readonly type = 'ProviderConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`provider configuration is invalid:\n- ${problems.join('\n- ')}`);
    this.name = 'ProviderConfigError';
  }
}

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

const envSchema = z.object({
  CARDFLOW_PROVIDER_BASE_URL: z
    .string({ error: 'is required' })
    .trim()
    .min(1, { message: 'is required' })
    .refine((v) => /^https?:\/\/[^/]/.test(v) && URL.canParse(v), { message: 'must be an http(s) URL' }),
  CARDFLOW_PROVIDER_API_KEY: z.string({ error: 'is required' }).trim().min(1, { message: 'is required' }),
  CARDFLOW_MERCHANT_PRIVATE_KEY: optionalText,
  CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: optionalText,
  CARDFLOW_PLATFORM_PUBLIC_KEY: optionalText,
  CARDFLOW_PLATFORM_PUBLIC_KEY_FILE: optionalText,
  CARDFLOW_PROVIDER_TIMEOUT_MS: optionalText.pipe(
    z
      .string()
      .regex(/^[1-9]\d*$/, { message: 'must be a positive whole number of milliseconds' })
      .transform(Number)
      .optional(),
  ),
  CARDFLOW_PROVIDER_CONNECTIONS: optionalText.pipe(
    z
      .string()
      .regex(/^[1-9]\d{0,3}$/, { message: 'must be a whole number from 1 to 9999' })
      .transform(Number)
      .optional(),
  ),
  CARDFLOW_VERIFY_RESPONSE_SIGNATURES: optionalText.pipe(
    z
      .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
      .transform((v) => v === 'true' || v === '1')
      .optional(),
  ),
});

type Env = Record<string, string | undefined>;

function loadKey<T>(
  env: Env,
  name: string,
  problems: string[],
  fromText: (text: string, what: string) => T,
): T | undefined {
  let found: ReturnType<typeof secretText>;
  try {
    found = secretText(env, name);
  } catch (err) {
    problems.push((err as Error).message);
    return undefined;
  }
  if (!found) {
    problems.push(`${name} or ${name}_FILE: one is required`);
    return undefined;
  }
  try {
    return fromText(found.text, found.from);
  } catch (err) {
    // KeyFormatError messages name the variable and the problem, never the key.
    problems.push(err instanceof KeyFormatError ? err.message : `${name}: cannot be read`);
    return undefined;
  }
}

/** Reads the configuration from `env` (default processEnv()); throws one ProviderConfigError listing every problem. */
export function loadProviderConfig(env: Env = processEnv()): ProviderConfig {
  const problems: string[] = [];
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${issue.path.map(String).join('.')}: ${issue.message}`);
  }
  const merchantPrivateKey = loadKey(env, 'CARDFLOW_MERCHANT_PRIVATE_KEY', problems, privateKeyFrom);
  const platformPublicKey = loadKey(env, 'CARDFLOW_PLATFORM_PUBLIC_KEY', problems, publicKeyFrom);
  if (!parsed.success || !merchantPrivateKey || !platformPublicKey) throw new ProviderConfigError(problems);
  return {
    baseUrl: parsed.data.CARDFLOW_PROVIDER_BASE_URL,
    apiKey: parsed.data.CARDFLOW_PROVIDER_API_KEY,
    merchantPrivateKey,
    platformPublicKey,
    timeoutMs: parsed.data.CARDFLOW_PROVIDER_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS,
    connections: parsed.data.CARDFLOW_PROVIDER_CONNECTIONS ?? DEFAULT_CONNECTIONS,
    verifyResponseSignatures: parsed.data.CARDFLOW_VERIFY_RESPONSE_SIGNATURES ?? true,
  };
}

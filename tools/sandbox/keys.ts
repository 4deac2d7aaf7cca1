/**
 * The sandbox's credentials: what the provider dashboard hands a merchant (an API key, the
 * merchant's RSA key pair, the platform's public key) plus the platform private key the
 * sandbox signs responses and webhooks with (provider-notes, Requests).
 *
 * Keys are 1024-bit RSA, the size integrations see from the real provider: the sensitive-data
 * blocks are then exactly 117 plaintext / 128 ciphertext bytes, and a client that wrongly
 * refuses 1024-bit keys fails against the sandbox, not first in production.
 *
 * Files in the keys directory (fixed names, see SERVER.md):
 * `merchant-private.pem`, `merchant-public.pem`, `platform-private.pem`, `platform-public.pem`
 * (PKCS#8 / SPKI PEM), `api-key.txt`, `.env` with the CARDFLOW_* variables, and the marker
 * `.cardflow-sandbox` (platform/config/environment.ts).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SANDBOX_API_KEY_PREFIX, SANDBOX_MARKER_FILE } from '../../platform/config/environment';
import { type RsaKeyPair, generateRsaKeyPair, privateKeyFrom, publicKeyFrom, rsaKeyPairOf } from '../../provider/keys';

/** Modulus size of generated keys; the real provider's size (see the file comment). */
export const SANDBOX_KEY_BITS = 1024;

export const KEY_FILES = {
  merchantPrivate: 'merchant-private.pem',
  merchantPublic: 'merchant-public.pem',
  platformPrivate: 'platform-private.pem',
  platformPublic: 'platform-public.pem',
  apiKey: 'api-key.txt',
  env: '.env',
} as const;

export interface SandboxKeys {
  /** Value of X-WSB-API-KEY the sandbox accepts. */
  apiKey: string;
  /**
   * Signs requests (merchant side); the sandbox verifies with its public half and encrypts
   * sensitive data to it.
   */
  merchant: RsaKeyPair;
  /** Signs responses and webhooks (sandbox side); the merchant verifies with its public half. */
  platform: RsaKeyPair;
  /** Absolute keys directory, when the keys live on disk. */
  dir?: string;
}

/** Fresh in-memory keys (tests); nothing is written. */
export function generateSandboxKeys(): SandboxKeys {
  return {
    apiKey: `${SANDBOX_API_KEY_PREFIX}${randomBytes(16).toString('hex')}`,
    merchant: generateRsaKeyPair(SANDBOX_KEY_BITS),
    platform: generateRsaKeyPair(SANDBOX_KEY_BITS),
  };
}

function pairFromPem(privatePem: string, what: string): RsaKeyPair {
  const privateKey = privateKeyFrom(privatePem, `${what} private key`);
  return rsaKeyPairOf(privateKey, publicKeyFrom(privateKey, `${what} public key`));
}

const SECRET_FILES = [KEY_FILES.merchantPrivate, KEY_FILES.platformPrivate, KEY_FILES.apiKey] as const;
const ALL_KEY_FILES = [
  KEY_FILES.merchantPrivate,
  KEY_FILES.merchantPublic,
  KEY_FILES.platformPrivate,
  KEY_FILES.platformPublic,
  KEY_FILES.apiKey,
] as const;

/**
 * Returns the keys stored in `dir`, creating the directory and the keys on first use; later
 * calls reuse them. A directory holding only some of the files is refused (never overwrites
 * a user's keys). Private keys and the API key are written with mode 0600.
 */
export function ensureSandboxKeys(dir: string): SandboxKeys {
  const abs = resolve(dir);
  const present = ALL_KEY_FILES.filter((f) => existsSync(join(abs, f)));
  if (present.length === 0) {
    const keys = generateSandboxKeys();
    mkdirSync(abs, { recursive: true });
    const files: Record<string, string> = {
      [KEY_FILES.merchantPrivate]: keys.merchant.privateKeyPem,
      [KEY_FILES.merchantPublic]: keys.merchant.publicKeyPem,
      [KEY_FILES.platformPrivate]: keys.platform.privateKeyPem,
      [KEY_FILES.platformPublic]: keys.platform.publicKeyPem,
      [KEY_FILES.apiKey]: `${keys.apiKey}\n`,
    };
    for (const [name, text] of Object.entries(files)) {
      const secret = (SECRET_FILES as readonly string[]).includes(name);
      writeFileSync(join(abs, name), text, { mode: secret ? 0o600 : 0o644, flag: 'wx' });
    }
    markSandboxKeys(abs);
    return { ...keys, dir: abs };
  }
  const missing = ALL_KEY_FILES.filter((f) => !present.includes(f));
  if (missing.length > 0) {
    throw new Error(
      `sandbox keys directory ${abs} is incomplete (missing ${missing.join(', ')}); restore the files or use an empty directory`,
    );
  }
  // Folders generated before the marker existed get it on their next start.
  markSandboxKeys(abs);
  const read = (name: string) => readFileSync(join(abs, name), 'utf8');
  const apiKey = read(KEY_FILES.apiKey).trim();
  if (apiKey.length === 0) throw new Error(`sandbox keys directory ${abs}: ${KEY_FILES.apiKey} is empty`);
  const merchant = pairFromPem(read(KEY_FILES.merchantPrivate), 'merchant');
  const platform = pairFromPem(read(KEY_FILES.platformPrivate), 'platform');
  return { apiKey, merchant, platform, dir: abs };
}

/**
 * Marks `dir` as the sandbox's: a production process refuses key files from it
 * (platform/config/environment.ts).
 */
function markSandboxKeys(dir: string): void {
  const marker = join(dir, SANDBOX_MARKER_FILE);
  if (!existsSync(marker))
    writeFileSync(marker, 'Keys generated by the cardflow sandbox: never use them with CARDFLOW_ENV=production.\n');
}

/**
 * The environment a cardflow process needs to talk to this sandbox (names from provider/config.ts):
 * base URL, API key, the merchant private key and the platform public key (files when the keys
 * live in a directory, inline base64 DER otherwise).
 */
export function sandboxEnv(keys: SandboxKeys, baseUrl: string): Record<string, string> {
  const env: Record<string, string> = {
    CARDFLOW_PROVIDER_BASE_URL: baseUrl,
    CARDFLOW_PROVIDER_API_KEY: keys.apiKey,
  };
  if (keys.dir) {
    env.CARDFLOW_MERCHANT_PRIVATE_KEY_FILE = join(keys.dir, KEY_FILES.merchantPrivate);
    env.CARDFLOW_PLATFORM_PUBLIC_KEY_FILE = join(keys.dir, KEY_FILES.platformPublic);
  } else {
    // In-memory keys: inline, in the dashboard's base64 DER form.
    env.CARDFLOW_MERCHANT_PRIVATE_KEY = keys.merchant.privateKeyBase64Der;
    env.CARDFLOW_PLATFORM_PUBLIC_KEY = keys.platform.publicKeyBase64Der;
  }
  return env;
}

/**
 * Writes `<dir>/.env` for the running sandbox (rewritten on each start: the base URL may change).
 */
export function writeSandboxEnvFile(keys: SandboxKeys, baseUrl: string): string | undefined {
  if (!keys.dir) return undefined;
  const lines = Object.entries(sandboxEnv(keys, baseUrl)).map(([k, v]) => `${k}=${v}`);
  const path = join(keys.dir, KEY_FILES.env);
  writeFileSync(path, `# Written by the cardflow sandbox; points a cardflow process at it.\n${lines.join('\n')}\n`, {
    mode: 0o600,
  });
  chmodSync(path, 0o600);
  return path;
}

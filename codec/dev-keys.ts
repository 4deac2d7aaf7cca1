/**
 * The embedded (local) stack's key: created once under the git-ignored `.data/codec/`, reused on
 * every later start, so workflows written yesterday still decrypt today. Production never uses it:
 * {@link resolveKeyring} refuses dev keys when `NODE_ENV=production` (the Dockerfile sets it).
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type CodecKeyring,
  CodecKeyError,
  KEYS_ENV,
  KEYS_FILE_ENV,
  generateKeyBase64,
  keyringFromEnv,
  parseKeyFile,
} from './keys';

/** `<repo>/.data/codec` (this file lives in `codec/`). */
export const defaultDevKeyDir = path.resolve(__dirname, '..', '.data', 'codec');

/** The dev key file inside `dir`. */
export function devKeyFile(dir: string = defaultDevKeyDir): string {
  return path.join(dir, 'dev-keys.json');
}

/**
 * Reads the dev key file, creating it (mode 0600, one random key with id `dev-<hex>`) when absent.
 * Safe when several processes start at once: the file is written aside and linked into place, and a
 * process that loses the race reads the winner's file.
 */
export function loadOrCreateDevKeyring(dir: string = defaultDevKeyDir): CodecKeyring {
  const file = devKeyFile(dir);
  const existing = readIfPresent(file);
  if (existing !== undefined) return parseKeyFile(existing, file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const content = `${JSON.stringify({ keys: [{ id: `dev-${randomBytes(4).toString('hex')}`, key: generateKeyBase64() }] }, null, 2)}\n`;
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, content, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  return parseKeyFile(readFileSync(file, 'utf8'), file);
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export interface ResolveKeyringOptions {
  env?: NodeJS.ProcessEnv;
  /** Fall back to the dev key file when no key is configured. Default: `NODE_ENV !== 'production'`. */
  allowDevKeys?: boolean;
  /** Where the dev key file lives. Default {@link defaultDevKeyDir}. */
  devKeyDir?: string;
}

/** Where the keys in use came from, for a start-up log line (never the keys). */
export type KeySource = 'env' | 'dev-key-file';

/**
 * The keys every cardflow process uses: `CARDFLOW_CODEC_KEYS` / `CARDFLOW_CODEC_KEYS_FILE` when
 * set, else (outside production) the dev key file. Throws {@link CodecKeyError} when neither applies.
 */
export function resolveKeyring(options: ResolveKeyringOptions = {}): { keyring: CodecKeyring; source: KeySource } {
  const env = options.env ?? process.env;
  const fromEnv = keyringFromEnv(env);
  if (fromEnv) return { keyring: fromEnv, source: 'env' };
  const allowDevKeys = options.allowDevKeys ?? env.NODE_ENV !== 'production';
  if (!allowDevKeys) {
    throw new CodecKeyError(
      `no payload-encryption key configured: set ${KEYS_ENV}=id:base64key (32-byte key) or ${KEYS_FILE_ENV}=<path> ` +
        `(generate a key with: npm run codec-server -- --generate-key)`,
    );
  }
  return { keyring: loadOrCreateDevKeyring(options.devKeyDir), source: 'dev-key-file' };
}

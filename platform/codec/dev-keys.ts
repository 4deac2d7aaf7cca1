/**
 * The embedded (local) stack's key: created once under the git-ignored `.data/codec/`, reused on
 * every later start, so workflows written yesterday still decrypt today. Production never uses it:
 * {@link resolveKeyring} refuses dev keys when `NODE_ENV=production` (the Dockerfile sets it).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEV_CODEC_KEY_ID_PREFIX } from '../config/environment';
import {
  type CodecKeyring,
  CodecKeyError,
  KEYS_ENV,
  KEYS_FILE_ENV,
  generateKeyBase64,
  keyringFrom,
  parseKeyFile,
} from './keys';
import type { ConfigurationSlice } from '../config/schema';

/**
 * The folder of the nearest package.json above this file: the checkout, whether this runs as
 * `platform/codec/dev-keys.ts` or compiled as `dist/platform/codec/dev-keys.js`, so both use one
 * dev key.
 */
function packageRoot(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return path.resolve(from, '..');
}

/** `<checkout>/.data/codec`. */
export const defaultDevKeyDir = path.join(packageRoot(__dirname), '.data', 'codec');

/**
 * A copy installed under `node_modules` (a backend's dependency) has no checkout to keep a dev key
 * in, and a key it invented would not be the worker's: everything it wrote would be unreadable.
 * It asks for the stack's keys instead.
 */
export const installedAsDependency: boolean = defaultDevKeyDir.split(path.sep).includes('node_modules');

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
  const content = `${JSON.stringify({ keys: [{ id: `${DEV_CODEC_KEY_ID_PREFIX}${randomBytes(4).toString('hex')}`, key: generateKeyBase64() }] }, null, 2)}\n`;
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

/** The variables the keys are read from. */
export type KeyVariables = ConfigurationSlice<'CARDFLOW_CODEC_KEYS' | 'NODE_ENV'>;

export interface ResolveKeyringOptions {
  /**
   * Fall back to the dev key file when no key is configured. Default: `NODE_ENV !== 'production'`
   * in a checkout; never in an installed copy ({@link installedAsDependency}).
   */
  allowDevKeys?: boolean;
  /** Where the dev key file lives. Default {@link defaultDevKeyDir}. */
  devKeyDir?: string;
}

/** Where the keys in use came from, for a start-up log line (never the keys). */
export type KeySource = 'env' | 'dev-key-file';

/**
 * The keys every cardflow process uses: `CARDFLOW_CODEC_KEYS` / `CARDFLOW_CODEC_KEYS_FILE` when
 * set, else (outside production) the dev key file. Throws {@link CodecKeyError} when neither
 * applies.
 */
export function resolveKeyring(
  config: KeyVariables,
  options: ResolveKeyringOptions = {},
): { keyring: CodecKeyring; source: KeySource } {
  const configured = keyringFrom(config.CARDFLOW_CODEC_KEYS);
  if (configured) return { keyring: configured, source: 'env' };
  const allowDevKeys = options.allowDevKeys ?? (config.NODE_ENV !== 'production' && !installedAsDependency);
  if (!allowDevKeys) {
    throw new CodecKeyError(
      installedAsDependency
        ? `no payload-encryption key configured: set ${KEYS_ENV}=id:base64key,... or ${KEYS_FILE_ENV}=<path> ` +
            `to the keys of the cardflow worker you talk to (payloads are encrypted; a key of your own could not be read there)`
        : `no payload-encryption key configured: set ${KEYS_ENV}=id:base64key (32-byte key) or ${KEYS_FILE_ENV}=<path> ` +
            `(generate a key with: npm run -s codec-server -- --generate-key <id>)`,
    );
  }
  return { keyring: loadOrCreateDevKeyring(options.devKeyDir), source: 'dev-key-file' };
}

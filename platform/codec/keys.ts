/**
 * Payload-encryption keys: parsing, validation and loading from the environment.
 *
 * A key list is ordered: the first key is the current one (new payloads are encrypted with it),
 * the others only decrypt payloads written before a rotation (docs/production.md, "Key rotation").
 * Validation runs at start-up and fails with a message that names the entry and the rule but
 * never contains key material.
 */
import { randomBytes } from 'node:crypto';
import type { Sourced } from '../config/variable';

/** AES-256 keys are 32 bytes. */
export const KEY_BYTES = 32;

/**
 * Key ids travel in clear in payload metadata: short, printable, no separators of the list formats.
 */
const keyIdPattern = /^[A-Za-z0-9._-]{1,64}$/;
/** Standard or URL-safe base64, padding optional. */
const base64Pattern = /^[A-Za-z0-9+/_-]+={0,2}$/;

export interface CodecKey {
  /** Written in clear in each payload's `encryption-key-id` metadata. */
  readonly id: string;
  /** 32 bytes. */
  readonly material: Buffer;
}

/** An ordered, validated key list: `current` encrypts, every key in `byId` decrypts. */
export interface CodecKeyring {
  readonly current: CodecKey;
  readonly byId: ReadonlyMap<string, CodecKey>;
  /** Ids in list order, for messages. */
  readonly ids: readonly string[];
}

/** A key list that cannot be used; the message names the source and the entry, never key bytes. */
export class CodecKeyError extends Error {
  override readonly name = 'CodecKeyError';
}

/** One entry before validation: the id and the base64 text of its key. */
export interface RawKeyEntry {
  id: string;
  key: string;
}

/**
 * Validates entries and builds the keyring. Rules: at least one key; ids match
 * `[A-Za-z0-9._-]{1,64}`; ids are unique; each key is base64 of exactly 32 bytes.
 */
export function createKeyring(entries: readonly RawKeyEntry[], source = 'codec key list'): CodecKeyring {
  if (entries.length === 0) throw new CodecKeyError(`${source} is empty: give at least one key as id:base64key`);
  const byId = new Map<string, CodecKey>();
  entries.forEach((entry, index) => {
    const where = `${source}, entry ${index + 1}`;
    if (!keyIdPattern.test(entry.id)) {
      throw new CodecKeyError(
        `${where}: key id must be 1 to 64 characters of A-Z a-z 0-9 . _ - (got ${describeId(entry.id)})`,
      );
    }
    if (byId.has(entry.id)) throw new CodecKeyError(`${where}: key id "${entry.id}" appears twice; ids must be unique`);
    byId.set(entry.id, { id: entry.id, material: decodeKey(entry.key, `${where} (id "${entry.id}")`) });
  });
  const ids = [...byId.keys()];
  return { current: byId.get(ids[0]!)!, byId, ids };
}

function describeId(id: string): string {
  // An id that failed validation may be a pasted key; show only its length.
  return id === '' ? 'an empty id' : `${id.length} characters that do not match`;
}

function decodeKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  if (trimmed === '') throw new CodecKeyError(`${where}: key is empty`);
  if (!base64Pattern.test(trimmed)) throw new CodecKeyError(`${where}: key is not base64`);
  const material = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (material.length !== KEY_BYTES) {
    throw new CodecKeyError(
      `${where}: key must be ${KEY_BYTES} bytes (AES-256), base64-encoded; it decodes to ${material.length} bytes`,
    );
  }
  return material;
}

/**
 * Parses the list format `id1:base64key,id2:base64key` (commas or newlines between entries, `#`
 * comments and blank lines ignored), first entry current.
 */
export function parseKeyList(text: string, source = 'codec key list'): CodecKeyring {
  const entries: RawKeyEntry[] = [];
  const parts = text
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== '' && !part.startsWith('#'));
  parts.forEach((part, index) => {
    const colon = part.indexOf(':');
    // Never quote the entry: without a colon it may be a bare key.
    if (colon <= 0) throw new CodecKeyError(`${source}, entry ${index + 1}: expected id:base64key`);
    entries.push({ id: part.slice(0, colon).trim(), key: part.slice(colon + 1) });
  });
  return createKeyring(entries, source);
}

/**
 * Parses a key file: JSON `{"keys":[{"id":"k2","key":"<base64>"},...]}` (or a bare array of those),
 * or the list format of {@link parseKeyList}. First entry current.
 */
export function parseKeyFile(text: string, source: string): CodecKeyring {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return parseKeyList(trimmed, source);
  let parsed: unknown;
  try {
    // A local key file, not a provider body: plain JSON.parse is right here (no Long ids).
    parsed = JSON.parse(trimmed);
  } catch {
    throw new CodecKeyError(`${source}: not valid JSON`);
  }
  const list: unknown = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(list)) throw new CodecKeyError(`${source}: expected {"keys":[{"id":...,"key":...}]}`);
  const entries = list.map((item: unknown, index): RawKeyEntry => {
    const { id, key } = (item ?? {}) as { id?: unknown; key?: unknown };
    if (typeof id !== 'string' || typeof key !== 'string') {
      throw new CodecKeyError(`${source}, entry ${index + 1}: expected {"id": string, "key": base64 string}`);
    }
    return { id, key };
  });
  return createKeyring(entries, source);
}

/** The environment variables keys are read from. */
export const KEYS_ENV = 'CARDFLOW_CODEC_KEYS';
export const KEYS_FILE_ENV = 'CARDFLOW_CODEC_KEYS_FILE';

/**
 * Keys from `CARDFLOW_CODEC_KEYS` (the list format) or the file `CARDFLOW_CODEC_KEYS_FILE` names
 * (the list or a JSON key file), as the configuration read them; undefined when neither is set.
 */
export function keyringFrom(keys: Sourced | undefined): CodecKeyring | undefined {
  if (keys === undefined) return undefined;
  return keys.from === KEYS_ENV ? parseKeyList(keys.value, KEYS_ENV) : parseKeyFile(keys.value, keys.from);
}

/**
 * A fresh random key in the list format's base64, for `platform/codec/main.ts --generate-key` and
 * dev keys.
 */
export function generateKeyBase64(): string {
  return randomBytes(KEY_BYTES).toString('base64');
}

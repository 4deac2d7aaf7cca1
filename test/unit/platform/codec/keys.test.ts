import { configured } from '../../../support/configured';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadOrCreateDevKeyring, resolveKeyring } from '../../../../platform/codec/dev-keys';
import { CodecKeyError, keyringFrom, parseKeyFile, parseKeyList } from '../../../../platform/codec/keys';
import { thrownBy } from '../../../support/thrown';

const keyA = Buffer.alloc(32, 1).toString('base64');
const keyB = Buffer.alloc(32, 2).toString('base64');
const shortKey = Buffer.alloc(16, 3).toString('base64');

const errorOf = (fn: () => unknown): CodecKeyError => thrownBy(fn, CodecKeyError);

describe('key lists', () => {
  it('parses id:base64 entries, first one current, all of them for decryption', () => {
    const keyring = parseKeyList(`k2:${keyB}, k1:${keyA}`);
    expect(keyring.current.id).toBe('k2');
    expect(keyring.ids).toEqual(['k2', 'k1']);
    expect(keyring.byId.get('k1')!.material).toEqual(Buffer.alloc(32, 1));
  });

  it('reads JSON and line key files', () => {
    expect(
      parseKeyFile(
        JSON.stringify({
          keys: [
            { id: 'a', key: keyA },
            { id: 'b', key: keyB },
          ],
        }),
        'f',
      ).ids,
    ).toEqual(['a', 'b']);
    expect(parseKeyFile(`# rotated 2026-01\nb:${keyB}\n\na:${keyA}\n`, 'f').current.id).toBe('b');
  });

  it('refuses an empty list, a wrong key length, duplicate ids and malformed entries, without echoing key material', () => {
    const cases: [string, string][] = [
      ['', 'is empty'],
      [`k1:${shortKey}`, 'key must be 32 bytes (AES-256), base64-encoded; it decodes to 16 bytes'],
      [`k1:${keyA},k1:${keyB}`, 'key id "k1" appears twice'],
      [keyA, 'entry 1: expected id:base64key'],
      [`k1:not base64!`, 'key is not base64'],
      [`bad id:${keyA}`, 'key id must be 1 to 64 characters'],
    ];
    for (const [text, message] of cases) {
      const error = errorOf(() => parseKeyList(text, 'CARDFLOW_CODEC_KEYS'));
      expect(error.message).toContain(message);
      expect(error.message).toContain('CARDFLOW_CODEC_KEYS');
      for (const material of [keyA, keyB, shortKey]) expect(error.message).not.toContain(material);
    }
  });

  it('reads CARDFLOW_CODEC_KEYS or CARDFLOW_CODEC_KEYS_FILE, not both', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cardflow-keys-'));
    const file = path.join(dir, 'keys');
    writeFileSync(file, `f1:${keyA}\n`);
    const keyringOf = (env: Record<string, string>) => keyringFrom(configured(env).CARDFLOW_CODEC_KEYS);
    expect(keyringOf({ CARDFLOW_CODEC_KEYS: `e1:${keyA}` })!.current.id).toBe('e1');
    expect(keyringOf({ CARDFLOW_CODEC_KEYS_FILE: file })!.current.id).toBe('f1');
    expect(keyringOf({})).toBeUndefined();
    expect(() => keyringOf({ CARDFLOW_CODEC_KEYS: `e1:${keyA}`, CARDFLOW_CODEC_KEYS_FILE: file })).toThrow(
      'CARDFLOW_CODEC_KEYS and CARDFLOW_CODEC_KEYS_FILE: set only one',
    );
    expect(() => keyringOf({ CARDFLOW_CODEC_KEYS_FILE: path.join(dir, 'missing') })).toThrow(
      'cannot read the file (ENOENT)',
    );
  });
});

describe('dev keys', () => {
  it('creates a private key file once and reuses it', () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'cardflow-dev-keys-')), 'codec');
    const first = loadOrCreateDevKeyring(dir);
    const second = loadOrCreateDevKeyring(dir);
    expect(first.current.id).toMatch(/^dev-[0-9a-f]{8}$/);
    expect(second.current.id).toBe(first.current.id);
    expect(second.current.material).toEqual(first.current.material);
    const file = path.join(dir, 'dev-keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(first.current.id);
  });

  it('uses configured keys first, dev keys outside production, and refuses to start in production without keys', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cardflow-dev-keys-'));
    expect(resolveKeyring(configured({ CARDFLOW_CODEC_KEYS: `p1:${keyA}` }), { devKeyDir: dir }).source).toBe('env');
    expect(resolveKeyring({}, { devKeyDir: dir }).source).toBe('dev-key-file');
    expect(() => resolveKeyring({ NODE_ENV: 'production' }, { devKeyDir: dir })).toThrow(
      'no payload-encryption key configured: set CARDFLOW_CODEC_KEYS',
    );
  });

  it('suggests generating a key with npm -s, so a redirected key file holds the key alone', () => {
    // Without -s, npm prints its banner to stdout first and `> codec_keys` saves it into the file.
    expect(() => resolveKeyring({ NODE_ENV: 'production' }, { devKeyDir: tmpdir() })).toThrow(
      'generate a key with: npm run -s codec-server -- --generate-key',
    );
  });
});

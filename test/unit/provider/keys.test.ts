import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KeyFormatError,
  generateRsaKeyPair,
  modulusBytes,
  privateKeyFrom,
  privateKeyFromFile,
  publicKeyFrom,
  publicKeyFromFile,
} from '../../../provider/keys';
import { signBody, verifySignature } from '../../../provider/signing';

const pair = generateRsaKeyPair(1024);

function sameKey(a: ReturnType<typeof publicKeyFrom>, b: ReturnType<typeof publicKeyFrom>): boolean {
  return a.export({ format: 'der', type: 'spki' }).equals(b.export({ format: 'der', type: 'spki' }));
}

describe('keys', () => {
  it('generates 1024-bit pairs by default, in PEM and base64 DER forms', () => {
    expect(pair.privateKey.asymmetricKeyDetails?.modulusLength).toBe(1024);
    expect(modulusBytes(pair.publicKey)).toBe(128);
    expect(pair.privateKeyPem).toContain('-----BEGIN PRIVATE KEY-----');
    expect(pair.publicKeyPem).toContain('-----BEGIN PUBLIC KEY-----');
    expect(pair.privateKeyBase64Der).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });

  it.each([
    ['PKCS#8 PEM', pair.privateKeyPem],
    ['PKCS#1 PEM', pair.privateKey.export({ format: 'pem', type: 'pkcs1' }) as string],
    ['base64 PKCS#8 DER (the dashboard form)', pair.privateKeyBase64Der],
    ['base64 DER with line breaks', pair.privateKeyBase64Der.replace(/(.{64})/g, '$1\n')],
  ])('reads a private key as %s', (_form, text) => {
    const key = privateKeyFrom(text);
    expect(key.type).toBe('private');
    expect(verifySignature('{}', signBody('{}', key), pair.publicKey)).toBe(true);
  });

  it.each([
    ['SPKI PEM', pair.publicKeyPem],
    ['PKCS#1 PEM', pair.publicKey.export({ format: 'pem', type: 'pkcs1' }) as string],
    ['base64 X.509 SubjectPublicKeyInfo DER', pair.publicKeyBase64Der],
  ])('reads a public key as %s', (_form, text) => {
    expect(sameKey(publicKeyFrom(text), pair.publicKey)).toBe(true);
  });

  it('reads keys from files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cardflow-keys-'));
    writeFileSync(join(dir, 'merchant.key'), pair.privateKeyBase64Der);
    writeFileSync(join(dir, 'platform.pub'), pair.publicKeyPem);
    expect(privateKeyFromFile(join(dir, 'merchant.key')).type).toBe('private');
    expect(sameKey(publicKeyFromFile(join(dir, 'platform.pub')), pair.publicKey)).toBe(true);
    expect(() => privateKeyFromFile(join(dir, 'missing.key'))).toThrow(/cannot read file .*ENOENT/);
  });

  it('refuses garbage without echoing it', () => {
    const secretish = 'MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA';
    let error: unknown;
    try {
      privateKeyFrom(secretish, 'CARDFLOW_MERCHANT_PRIVATE_KEY');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(KeyFormatError);
    expect((error as Error).message).toMatch(/^CARDFLOW_MERCHANT_PRIVATE_KEY: /);
    expect((error as Error).message).not.toContain(secretish.slice(0, 12));
    expect(() => publicKeyFrom('not a key!')).toThrow(/not PEM and not base64 DER/);
  });

  it('refuses a public key where a private key is needed, and non-RSA keys', () => {
    expect(() => privateKeyFrom(pair.publicKey)).toThrow(KeyFormatError);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => publicKeyFrom(ec.publicKey)).toThrow(/not an RSA key/);
  });
});

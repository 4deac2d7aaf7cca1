/**
 * Sensitive card data (card number, CVV, expiry, activation link, 3DS values) arrives encrypted
 * with the merchant's public key: RSA PKCS#1 v1.5 blocks, concatenated, base64. Decryption uses
 * node-forge because Node's `privateDecrypt` refuses PKCS#1 v1.5 padding (its Marvin guard), and a
 * security-revert flag is no option; the Marvin concern is an oracle an attacker can query, while
 * here only what the provider sent is decrypted, on an explicit call, failures without detail.
 * Nothing decrypts automatically: callers call {@link decryptSensitive}, and never log the value.
 */
import { constants, publicEncrypt } from 'node:crypto';
import forge from 'node-forge';
import { isBase64 } from './base64';
import { type KeyInput, modulusBytes, privateKeyFrom, publicKeyFrom } from './keys';

/** A sensitive value that could not be decrypted; says nothing about the value or the key. */
export class SensitiveDataError extends Error {
  readonly type = 'SensitiveDataError';
  constructor(message: string) {
    super(message);
    this.name = 'SensitiveDataError';
  }
}

const forgeKeys = new WeakMap<object, forge.pki.rsa.PrivateKey>();

function forgePrivateKey(key: KeyInput): forge.pki.rsa.PrivateKey {
  const keyObject = privateKeyFrom(key, 'merchant private key');
  let forgeKey = forgeKeys.get(keyObject);
  if (!forgeKey) {
    forgeKey = forge.pki.privateKeyFromPem(keyObject.export({ format: 'pem', type: 'pkcs1' }) as string);
    forgeKeys.set(keyObject, forgeKey);
  }
  return forgeKey;
}

/**
 * Decrypts one provider-encrypted value (base64 of concatenated PKCS#1 v1.5 blocks) to UTF-8 text.
 */
export function decryptSensitive(cipherBase64: string, merchantPrivateKey: KeyInput): string {
  const compact = cipherBase64.replace(/\s+/g, '');
  if (!isBase64(compact)) throw new SensitiveDataError('encrypted value is not base64');
  const cipher = Buffer.from(compact, 'base64');
  const key = forgePrivateKey(merchantPrivateKey);
  const k = Math.ceil(key.n.bitLength() / 8);
  if (cipher.length === 0 || cipher.length % k !== 0) {
    throw new SensitiveDataError(
      `encrypted value is ${cipher.length} bytes, not a whole number of ${k}-byte blocks (wrong key size?)`,
    );
  }
  const parts: Buffer[] = [];
  for (let offset = 0; offset < cipher.length; offset += k) {
    const block = cipher.subarray(offset, offset + k).toString('binary');
    try {
      parts.push(Buffer.from(key.decrypt(block, 'RSAES-PKCS1-V1_5'), 'binary'));
    } catch {
      throw new SensitiveDataError(`block ${offset / k + 1} does not decrypt (tampered, or encrypted for another key)`);
    }
  }
  // Blocks split bytes, not characters: join the bytes before decoding UTF-8.
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Encrypts a value as the provider does (for the sandbox and tests). Node's public-key
 * encryption with PKCS#1 v1.5 is still allowed; only private decryption is refused.
 */
export function encryptSensitive(plaintext: string, merchantPublicKey: KeyInput): string {
  const key = publicKeyFrom(merchantPublicKey, 'merchant public key');
  const chunk = modulusBytes(key) - 11;
  const data = Buffer.from(plaintext, 'utf8');
  const blocks: Buffer[] = [];
  // An empty value still yields one block, so the ciphertext is never empty.
  const count = Math.max(1, Math.ceil(data.length / chunk));
  for (let i = 0; i < count; i += 1) {
    blocks.push(
      publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, data.subarray(i * chunk, (i + 1) * chunk)),
    );
  }
  return Buffer.concat(blocks).toString('base64');
}

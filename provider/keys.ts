/**
 * RSA key loading for the provider's keys.
 *
 * The provider dashboard hands out 1024-bit RSA keys as base64 DER without PEM armour
 * (private: PKCS#8, public: X.509 SubjectPublicKeyInfo); PEM (PKCS#8, PKCS#1, SPKI) is
 * accepted too (provider-notes, Requests). 1024-bit keys are accepted on purpose: an
 * integration that required 2048 bits rejected every real webhook. Error messages never
 * contain key material.
 */
import { type KeyObject, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isBase64 } from './base64';

/** A key given as a loaded KeyObject, PEM text, or base64 DER text. */
export type KeyInput = KeyObject | string;

/** A key that could not be read; the message names the problem, never the key. */
export class KeyFormatError extends Error {
  readonly type = 'KeyFormatError';
  constructor(message: string) {
    super(message);
    this.name = 'KeyFormatError';
  }
}

function derFromBase64(text: string, what: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (!isBase64(compact)) {
    throw new KeyFormatError(`${what}: not PEM and not base64 DER`);
  }
  return Buffer.from(compact, 'base64');
}

function requireRsa(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'rsa')
    throw new KeyFormatError(`${what}: not an RSA key (${key.asymmetricKeyType ?? 'unknown'})`);
  return key;
}

function firstThatParses(what: string, attempts: Array<() => KeyObject>): KeyObject {
  for (const attempt of attempts) {
    try {
      return requireRsa(attempt(), what);
    } catch (err) {
      if (err instanceof KeyFormatError) throw err;
    }
  }
  throw new KeyFormatError(`${what}: could not be parsed as an RSA key`);
}

interface TextForm<DerType extends string> {
  create(input: { key: string | Buffer; format: 'pem' | 'der'; type?: DerType }): KeyObject;
  derTypes: readonly DerType[];
}

/**
 * How a key of each kind is read from text: PEM (whatever its armour says), or base64 DER in the
 * form the provider dashboard uses (PKCS#8 private, X.509 SubjectPublicKeyInfo public), with
 * PKCS#1 as a fallback.
 */
const TEXT_FORMS: { private: TextForm<'pkcs8' | 'pkcs1'>; public: TextForm<'spki' | 'pkcs1'> } = {
  private: { create: createPrivateKey, derTypes: ['pkcs8', 'pkcs1'] },
  public: { create: createPublicKey, derTypes: ['spki', 'pkcs1'] },
};

function keyFromText<DerType extends string>(input: string, form: TextForm<DerType>, what: string): KeyObject {
  const text = input.trim();
  if (text.includes('-----BEGIN')) return firstThatParses(what, [() => form.create({ key: text, format: 'pem' })]);
  const der = derFromBase64(text, what);
  return firstThatParses(
    what,
    form.derTypes.map((type) => () => form.create({ key: der, format: 'der', type })),
  );
}

/**
 * Reads an RSA private key: PEM (PKCS#8 or PKCS#1) or base64 DER (PKCS#8, or PKCS#1 as a fallback).
 */
export function privateKeyFrom(input: KeyInput, what = 'private key'): KeyObject {
  if (typeof input === 'string') return keyFromText(input, TEXT_FORMS.private, what);
  if (input.type !== 'private') throw new KeyFormatError(`${what}: expected a private key, got a ${input.type} key`);
  return requireRsa(input, what);
}

/**
 * Reads an RSA public key: PEM (SPKI or PKCS#1) or base64 DER (X.509 SubjectPublicKeyInfo, or
 * PKCS#1 as a fallback).
 */
export function publicKeyFrom(input: KeyInput, what = 'public key'): KeyObject {
  if (typeof input === 'string') return keyFromText(input, TEXT_FORMS.public, what);
  // A private KeyObject also yields its public half, which is what a verifier needs.
  return requireRsa(input.type === 'public' ? input : createPublicKey(input), what);
}

function readKeyFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'read error';
    throw new KeyFormatError(`${what}: cannot read file ${path} (${code})`);
  }
}

/** Reads an RSA private key from a file holding PEM or base64 DER. */
export function privateKeyFromFile(path: string, what = 'private key'): KeyObject {
  return privateKeyFrom(readKeyFile(path, what), what);
}

/** Reads an RSA public key from a file holding PEM or base64 DER. */
export function publicKeyFromFile(path: string, what = 'public key'): KeyObject {
  return publicKeyFrom(readKeyFile(path, what), what);
}

/** A key pair in every form the provider, the sandbox and the tests use. */
export interface RsaKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** PKCS#8 PEM. */
  privateKeyPem: string;
  /** SPKI PEM. */
  publicKeyPem: string;
  /** base64 PKCS#8 DER without armour, as the provider dashboard shows it. */
  privateKeyBase64Der: string;
  /** base64 X.509 SubjectPublicKeyInfo DER without armour. */
  publicKeyBase64Der: string;
}

/** A key pair in every form, from its two keys. */
export function rsaKeyPairOf(privateKey: KeyObject, publicKey: KeyObject): RsaKeyPair {
  return {
    privateKey,
    publicKey,
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }) as string,
    privateKeyBase64Der: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKeyBase64Der: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
  };
}

/** Generates an RSA key pair (default 1024 bits, the provider's size) for the sandbox and tests. */
export function generateRsaKeyPair(bits = 1024): RsaKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits, publicExponent: 0x10001 });
  return rsaKeyPairOf(privateKey, publicKey);
}

/** Modulus size in bytes (k): the RSA block size for signatures and sensitive-data blocks. */
export function modulusBytes(key: KeyObject): number {
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (!bits) throw new KeyFormatError('key: modulus length unknown');
  return Math.ceil(bits / 8);
}

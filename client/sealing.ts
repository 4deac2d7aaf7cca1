/**
 * Sealing a clear PIN before it goes anywhere near Temporal: the client encrypts it with the
 * merchant's public key as the provider encrypts sensitive data (provider/sensitive.ts), and only
 * the worker's activity opens it. Key: CARDFLOW_MERCHANT_PUBLIC_KEY(_FILE); a backend holding
 * only the public key is the point, and for one-box setups (`npm start`) the public half of the
 * merchant private key serves when no public key is set.
 */
import type { KeyObject } from 'node:crypto';
import { KeyFormatError, type KeyInput, privateKeyFrom, publicKeyFrom } from '../provider/keys';
import { ClientErrorTypes } from '../domain/failure-types';
import { PIN_RE } from '../provider/rules';
import { encryptSensitive } from '../provider/sensitive';
import { InvalidInputError } from './validation';
import type { ConfigurationSlice } from '../platform/config/schema';

export const MERCHANT_PUBLIC_KEY_ENV = 'CARDFLOW_MERCHANT_PUBLIC_KEY';

/**
 * No usable merchant key in the environment; the message names the variables, never key material.
 */
export class MerchantKeyError extends Error {
  readonly type = ClientErrorTypes.merchantKeyUnusable;
  constructor(message: string) {
    super(message);
    this.name = 'MerchantKeyError';
  }
}

/**
 * The merchant public key the configuration names (see the file comment for the variables); a
 * backend reads it with `merchantPublicKeyFrom(readConfiguration(process.env))`.
 */
export function merchantPublicKeyFrom(
  config: ConfigurationSlice<'CARDFLOW_MERCHANT_PUBLIC_KEY' | 'CARDFLOW_MERCHANT_PRIVATE_KEY'>,
): KeyObject {
  try {
    const pub = config.CARDFLOW_MERCHANT_PUBLIC_KEY;
    if (pub) return publicKeyFrom(pub.value, pub.from);
    // Only without a public key is the private one used (one machine holding both).
    const priv = config.CARDFLOW_MERCHANT_PRIVATE_KEY;
    if (priv) return publicKeyFrom(privateKeyFrom(priv.value, priv.from));
  } catch (error) {
    if (error instanceof KeyFormatError) throw new MerchantKeyError(error.message);
    throw error;
  }
  throw new MerchantKeyError(`${MERCHANT_PUBLIC_KEY_ENV} or ${MERCHANT_PUBLIC_KEY_ENV}_FILE is required to seal a PIN`);
}

/** Stands for a PIN that will be sealed, while the domain's other rules are checked first. */
export const SEALED_PLACEHOLDER = 'to-be-sealed';

/**
 * The PIN rule as a field issue (spec: Limits, PIN: 6 digits), to report with the other rules at
 * once.
 */
export function pinIssues(pin: unknown, path = 'pin'): { path: string; message: string }[] {
  return pin === undefined || (typeof pin === 'string' && PIN_RE.test(pin))
    ? []
    : [{ path, message: 'must be exactly 6 digits' }];
}

/** A key, or a function that reads it (so a key is looked up only once a PIN passed its checks). */
export type MerchantKeySource = KeyInput | (() => KeyInput);

/**
 * Checks a clear PIN (6 digits, spec: Limits, PIN) and seals it with the merchant public key.
 * Errors name the field and the rule only; the clear PIN is not kept anywhere.
 */
export function sealPinForWorkflow(
  pin: unknown,
  merchantPublicKey: MerchantKeySource | undefined,
  field = 'pin',
): string {
  if (typeof pin !== 'string' || !PIN_RE.test(pin))
    throw new InvalidInputError(field, [`${field}: must be exactly 6 digits`]);
  if (merchantPublicKey === undefined)
    throw new InvalidInputError(field, [
      `${field}: needs the merchant public key to be sealed (${MERCHANT_PUBLIC_KEY_ENV}), or give sealedPin`,
    ]);
  return encryptSensitive(pin, typeof merchantPublicKey === 'function' ? merchantPublicKey() : merchantPublicKey);
}

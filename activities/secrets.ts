/**
 * Opening sealed secrets inside an activity, and nowhere else. A PIN reaches the workflow only
 * sealed with the merchant's RSA public key (the provider's own sensitive-data scheme,
 * provider/sensitive.ts); the activation code arrives encrypted by the provider. Both are opened
 * here with the merchant private key, used for one provider call, and never returned or logged.
 */
import type { KeyInput } from '../provider/keys';
import { decryptSensitive, encryptSensitive } from '../provider/sensitive';
import { FailureTypes } from '../domain/failure-types';
import { nonRetryable } from '../domain/failures';

/**
 * What a backend calls before starting a workflow that needs a PIN: seal it with the merchant
 * public key.
 */
export function sealPin(pin: string, merchantPublicKey: KeyInput): string {
  return encryptSensitive(pin, merchantPublicKey);
}

/**
 * Opens a sealed value; a wrong key or tampered value fails non-retryably, saying nothing of the
 * value.
 */
export function openSealed(sealed: string, merchantPrivateKey: KeyInput | undefined, what: string): string {
  if (merchantPrivateKey === undefined) {
    throw nonRetryable(
      FailureTypes.sealedSecretInvalid,
      `${what}: the worker has no merchant private key (ActivityDeps.merchantPrivateKey)`,
    );
  }
  try {
    return decryptSensitive(sealed, merchantPrivateKey);
  } catch {
    throw nonRetryable(FailureTypes.sealedSecretInvalid, `${what}: cannot be opened with the merchant private key`);
  }
}

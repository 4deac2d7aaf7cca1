/**
 * Sealed secrets: a PIN sealed with the merchant public key opens only with its private key, and
 * failures never show the value.
 */
import { ApplicationFailure } from '@temporalio/common';
import { generateRsaKeyPair } from '../../../provider/keys';
import { openSealed, sealPin } from '../../../activities/secrets';

const merchant = generateRsaKeyPair();
const other = generateRsaKeyPair();

it('round trip: the sealed PIN is not the PIN, and opens to it', () => {
  const sealed = sealPin('482915', merchant.publicKey);
  expect(sealed).not.toContain('482915');
  expect(openSealed(sealed, merchant.privateKey, 'sealedPin')).toBe('482915');
});

it('another key, a tampered value or no key fails non-retryably without the value', () => {
  const sealed = sealPin('482915', merchant.publicKey);
  for (const attempt of [
    () => openSealed(sealed, other.privateKey, 'sealedPin'),
    () => openSealed('!!', merchant.privateKey, 'sealedPin'),
    () => openSealed(sealed, undefined, 'sealedPin'),
  ]) {
    let error: unknown;
    try {
      attempt();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect(error).toMatchObject({ type: 'SealedSecretInvalid', nonRetryable: true });
    expect((error as Error).message).not.toContain('482915');
  }
});

import { configured } from '../../support/configured';
/**
 * The client seals a clear PIN with the merchant public key; only the private key opens it; errors
 * never carry the PIN or the key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateRsaKeyPair } from '../../../provider/keys';
import { decryptSensitive } from '../../../provider/sensitive';
import { MerchantKeyError, merchantPublicKeyFrom, sealPinForWorkflow } from '../../../client/sealing';
import { InvalidInputError } from '../../../client/validation';

const merchant = generateRsaKeyPair(1024);

it('seals a 6-digit PIN so that the merchant private key opens it, and the sealed form is not the PIN', () => {
  const sealed = sealPinForWorkflow('482915', merchant.publicKeyPem);
  expect(sealed).not.toContain('482915');
  expect(decryptSensitive(sealed, merchant.privateKey)).toBe('482915');
  expect(sealPinForWorkflow('482915', () => merchant.publicKey)).not.toBe(sealed); // PKCS#1 v1.5 padding is random
});

it.each(['12345', '1234567', '12345a', 123456, undefined])('refuses %p naming the rule only', (pin) => {
  const attempt = () => sealPinForWorkflow(pin, merchant.publicKeyPem);
  expect(attempt).toThrow(InvalidInputError);
  expect(attempt).toThrow('pin: must be exactly 6 digits');
  try {
    attempt();
  } catch (error) {
    if (typeof pin === 'string') expect((error as Error).message).not.toContain(pin);
  }
});

it('without a key the PIN is refused, and a key source is called only for a PIN that passed its checks', () => {
  expect(() => sealPinForWorkflow('482915', undefined)).toThrow(
    /pin: needs the merchant public key to be sealed \(CARDFLOW_MERCHANT_PUBLIC_KEY\)/,
  );
  const source = jest.fn(() => merchant.publicKey);
  expect(() => sealPinForWorkflow('48', source)).toThrow(InvalidInputError);
  expect(source).not.toHaveBeenCalled();
});

describe('merchantPublicKeyFrom', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cardflow-keys-'));
    writeFileSync(path.join(dir, 'public.pem'), merchant.publicKeyPem);
    writeFileSync(path.join(dir, 'private.pem'), merchant.privateKeyPem);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const opens = (env: Record<string, string>) =>
    decryptSensitive(sealPinForWorkflow('135790', merchantPublicKeyFrom(configured(env))), merchant.privateKey) ===
    '135790';

  it('reads CARDFLOW_MERCHANT_PUBLIC_KEY (PEM or base64 DER) or _FILE, else the public half of the private key', () => {
    expect(opens({ CARDFLOW_MERCHANT_PUBLIC_KEY: merchant.publicKeyPem })).toBe(true);
    expect(opens({ CARDFLOW_MERCHANT_PUBLIC_KEY_FILE: path.join(dir, 'public.pem') })).toBe(true);
    expect(opens({ CARDFLOW_MERCHANT_PRIVATE_KEY_FILE: path.join(dir, 'private.pem') })).toBe(true);
    expect(opens({ CARDFLOW_MERCHANT_PRIVATE_KEY: merchant.privateKeyPem })).toBe(true);
  });

  it('names the variables at fault, never key material', () => {
    expect(() => merchantPublicKeyFrom(configured({}))).toThrow(
      /CARDFLOW_MERCHANT_PUBLIC_KEY or CARDFLOW_MERCHANT_PUBLIC_KEY_FILE is required/,
    );
    expect(() =>
      merchantPublicKeyFrom(configured({ CARDFLOW_MERCHANT_PUBLIC_KEY: 'x', CARDFLOW_MERCHANT_PUBLIC_KEY_FILE: 'y' })),
    ).toThrow(/set only one/);
    expect(() =>
      merchantPublicKeyFrom(configured({ CARDFLOW_MERCHANT_PUBLIC_KEY_FILE: path.join(dir, 'absent.pem') })),
    ).toThrow(/CARDFLOW_MERCHANT_PUBLIC_KEY_FILE=.*: cannot read the file \(ENOENT\)/);
    const garbage = 'QUJDREVGR0hJSktMTU5PUA==';
    try {
      merchantPublicKeyFrom(configured({ CARDFLOW_MERCHANT_PUBLIC_KEY: garbage }));
      throw new Error('expected a MerchantKeyError');
    } catch (error) {
      expect(error).toBeInstanceOf(MerchantKeyError);
      expect((error as Error).message).toMatch(/^CARDFLOW_MERCHANT_PUBLIC_KEY: /);
      expect((error as Error).message).not.toContain(garbage);
    }
  });
});

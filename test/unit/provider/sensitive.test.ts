import { generateRsaKeyPair } from '../../../provider/keys';
import { SensitiveDataError, decryptSensitive, encryptSensitive } from '../../../provider/sensitive';

const k1024 = generateRsaKeyPair(1024);
const k2048 = generateRsaKeyPair(2048);

describe.each([
  ['1024-bit', k1024, 128, 117],
  ['2048-bit', k2048, 256, 245],
])('sensitive data with a %s key', (_bits, pair, k, chunk) => {
  it.each([
    ['a card number', '4000123412341234'],
    ['a cvv', '123'],
    ['an empty value', ''],
    ['exactly one block', 'x'.repeat(chunk)],
    ['one byte over a block', 'y'.repeat(chunk + 1)],
    ['several blocks', 'https://activate.example/gift?token=' + 'abc123'.repeat(60)],
    ['multi-byte characters across a block boundary', 'é'.repeat(chunk)],
  ])('round-trips %s', (_what, plain) => {
    const cipher = encryptSensitive(plain, pair.publicKeyBase64Der);
    const bytes = Buffer.from(cipher, 'base64');
    expect(bytes.length).toBe(Math.max(1, Math.ceil(Buffer.byteLength(plain) / chunk)) * k);
    expect(decryptSensitive(cipher, pair.privateKeyBase64Der)).toBe(plain);
  });

  it('fails cleanly on a tampered block, naming the block but not the value', () => {
    const plain = 'z'.repeat(chunk * 2);
    const bytes = Buffer.from(encryptSensitive(plain, pair.publicKey), 'base64');
    bytes[k + 5] = (bytes[k + 5]! ^ 0xff) & 0xff;
    // A changed ciphertext decrypts to noise whose PKCS#1 v1.5 padding is wrong.
    expect(() => decryptSensitive(bytes.toString('base64'), pair.privateKey)).toThrow(/block 2 does not decrypt/);
  });

  it('fails cleanly on a ciphertext that is not whole blocks, or not base64', () => {
    const bytes = Buffer.from(encryptSensitive('4000123412341234', pair.publicKey), 'base64');
    expect(() => decryptSensitive(bytes.subarray(1).toString('base64'), pair.privateKey)).toThrow(SensitiveDataError);
    expect(() => decryptSensitive('***', pair.privateKey)).toThrow(/not base64/);
  });
});

it('fails cleanly with the wrong private key', () => {
  const other = generateRsaKeyPair(1024);
  const cipher = encryptSensitive('4000123412341234', k1024.publicKey);
  expect(() => decryptSensitive(cipher, other.privateKey)).toThrow(SensitiveDataError);
});

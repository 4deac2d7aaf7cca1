/**
 * docs/other-languages.md writes the codec's format down for backends in other languages; its test
 * vector is read straight from the page, so the page cannot drift from the codec.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { createKeyring } from '../../../../platform/codec/keys';
import { AesGcmPayloadCodec } from '../../../../platform/codec/payload-codec';

interface Vector {
  keyId: string;
  key: string;
  iv: string;
  aad: string;
  payload: { metadata: Record<string, string>; data: string };
  payloadProtobufHex: string;
  encrypted: { metadata: Record<string, string>; data: string };
}

const page = readFileSync(path.join(__dirname, '../../../../docs/other-languages.md'), 'utf8');
const block = /```json codec-test-vector\n([\s\S]*?)```/.exec(page)?.[1];
if (block === undefined) throw new Error('docs/other-languages.md has no ```json codec-test-vector block');
const vector = JSON.parse(block) as Vector;

const bytes = (text: string) => Buffer.from(text, 'utf8');
const asPayload = (p: { metadata: Record<string, string> }, data: Buffer) => ({
  metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, bytes(v)])),
  data,
});
const asText = (payload: { metadata?: Record<string, Uint8Array> | null; data?: Uint8Array | null }) => ({
  metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString()])),
  data: Buffer.from(payload.data ?? new Uint8Array()),
});

const key = Buffer.from(vector.key, 'base64');
const codec = new AesGcmPayloadCodec(createKeyring([{ id: vector.keyId, key: vector.key }]));
const plainPayload = asPayload(vector.payload, bytes(vector.payload.data));

describe('the codec test vector of docs/other-languages.md', () => {
  it('step 1: the payload protobuf is the documented bytes', () => {
    expect(Buffer.from(temporal.api.common.v1.Payload.encode(plainPayload).finish()).toString('hex')).toBe(
      vector.payloadProtobufHex,
    );
  });

  it('steps 2-5, done as the page says with plain AES-GCM, give the documented encrypted payload', () => {
    const iv = Buffer.from(vector.iv, 'hex');
    expect(vector.aad).toBe(`cardflow-payload-v1|AES-256-GCM|${vector.keyId}`);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
    cipher.setAAD(bytes(vector.aad));
    const plain = Buffer.from(vector.payloadProtobufHex, 'hex');
    const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    expect(data.toString('base64')).toBe(vector.encrypted.data);
  });

  it("cardflow's codec decrypts the documented payload to the documented plaintext", async () => {
    const [decoded] = await codec.decode([asPayload(vector.encrypted, Buffer.from(vector.encrypted.data, 'base64'))]);
    expect(asText(decoded!)).toEqual({ metadata: vector.payload.metadata, data: bytes(vector.payload.data) });
  });

  it("cardflow's codec writes the documented layout, which the page's decryption recipe reads", async () => {
    const [encoded] = await codec.encode([plainPayload]);
    const { metadata, data } = asText(encoded!);
    expect(metadata).toEqual(vector.encrypted.metadata);
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12), { authTagLength: 16 });
    decipher.setAAD(bytes(vector.aad));
    decipher.setAuthTag(data.subarray(data.length - 16));
    const plain = Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]);
    expect(plain.toString('hex')).toBe(vector.payloadProtobufHex);
  });

  it('a payload whose key id metadata was edited fails to decrypt (the key id is authenticated)', async () => {
    const edited = asPayload(
      { metadata: { ...vector.encrypted.metadata, 'encryption-key-id': 'k-other' } },
      Buffer.from(vector.encrypted.data, 'base64'),
    );
    const both = new AesGcmPayloadCodec(
      createKeyring([
        { id: vector.keyId, key: vector.key },
        { id: 'k-other', key: vector.key },
      ]),
    );
    await expect(both.decode([edited])).rejects.toThrow(/failed authentication/);
  });
});

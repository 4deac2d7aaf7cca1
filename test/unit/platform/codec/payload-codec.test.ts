import { ApplicationFailure, type Payload, defaultPayloadConverter } from '@temporalio/common';
import {
  decodeFromPayloadsAtIndex,
  decodeOptionalFailureToOptionalError,
  encodeErrorToFailure,
  encodeToPayloads,
  loadDataConverter,
} from '@temporalio/common/lib/internal-non-workflow';
import { temporal } from '@temporalio/proto';
import { createDataConverter } from '../../../../platform/codec/data-converter';
import { parseKeyList } from '../../../../platform/codec/keys';
import {
  AesGcmPayloadCodec,
  ENCODING_ENCRYPTED,
  METADATA_KEY_ID,
  PayloadDecryptionError,
} from '../../../../platform/codec/payload-codec';

const oldKey = Buffer.alloc(32, 7).toString('base64');
const newKey = Buffer.alloc(32, 9).toString('base64');
const holder = { firstName: 'Zoltana', email: 'zoltana.q@example.org', idNumber: 'P99887766', pin: '924681' };

const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString('utf8');
const allBytes = (payloads: Payload[]) =>
  Buffer.concat(payloads.map((p) => temporal.api.common.v1.Payload.encode(p).finish()));

describe('AesGcmPayloadCodec', () => {
  const codec = new AesGcmPayloadCodec(parseKeyList(`old:${oldKey}`));

  it('round-trips payloads and leaves no personal value in the encoded bytes', async () => {
    const plain = [defaultPayloadConverter.toPayload(holder), defaultPayloadConverter.toPayload(undefined)];
    const encoded = await codec.encode(plain);
    expect(encoded.map((p) => text(p.metadata?.encoding))).toEqual([ENCODING_ENCRYPTED, ENCODING_ENCRYPTED]);
    expect(text(encoded[0]!.metadata?.[METADATA_KEY_ID])).toBe('old');
    const bytes = allBytes(encoded).toString('latin1');
    for (const value of Object.values(holder)) expect(bytes).not.toContain(value);
    const decoded = await codec.decode(encoded);
    expect(defaultPayloadConverter.fromPayload(decoded[0]!)).toEqual(holder);
    expect(text(decoded[1]!.metadata?.encoding)).toBe('binary/null');
  });

  it('uses a fresh IV per payload', async () => {
    const payload = defaultPayloadConverter.toPayload(holder);
    const [a, b] = await codec.encode([payload, payload]);
    expect(Buffer.from(a!.data!).equals(Buffer.from(b!.data!))).toBe(false);
  });

  it('after a rotation, encrypts with the new key and still decrypts payloads written with the old one', async () => {
    const written = await codec.encode([defaultPayloadConverter.toPayload(holder)]);
    const rotated = new AesGcmPayloadCodec(parseKeyList(`new:${newKey},old:${oldKey}`));
    expect(defaultPayloadConverter.fromPayload((await rotated.decode(written))[0]!)).toEqual(holder);
    const rewritten = await rotated.encode([defaultPayloadConverter.toPayload(holder)]);
    expect(text(rewritten[0]!.metadata?.[METADATA_KEY_ID])).toBe('new');
  });

  it('refuses a tampered ciphertext', async () => {
    const [encoded] = await codec.encode([defaultPayloadConverter.toPayload(holder)]);
    const data = Buffer.from(encoded!.data!);
    data[20] = data[20]! ^ 0x01;
    await expect(codec.decode([{ ...encoded, data }])).rejects.toThrow(
      /failed authentication: its ciphertext or metadata was altered/,
    );
  });

  it('refuses a payload whose key id metadata was switched to another known key', async () => {
    const both = new AesGcmPayloadCodec(parseKeyList(`new:${newKey},old:${oldKey}`));
    const [encoded] = await both.encode([defaultPayloadConverter.toPayload(holder)]);
    const relabelled = { ...encoded, metadata: { ...encoded!.metadata, [METADATA_KEY_ID]: Buffer.from('old') } };
    await expect(both.decode([relabelled])).rejects.toBeInstanceOf(PayloadDecryptionError);
  });

  it('names an unknown key id and the known ones', async () => {
    const [encoded] = await new AesGcmPayloadCodec(parseKeyList(`new:${newKey}`)).encode([
      defaultPayloadConverter.toPayload(holder),
    ]);
    await expect(codec.decode([encoded!])).rejects.toThrow(
      'payload was encrypted with key id "new", which is not in this process\'s key list (old)',
    );
  });

  it('passes unencrypted payloads through (histories written before encryption)', async () => {
    const plain = defaultPayloadConverter.toPayload({ cardTypeId: '111' });
    expect(await codec.decode([plain])).toEqual([plain]);
  });
});

describe('createDataConverter', () => {
  const converter = loadDataConverter(createDataConverter(parseKeyList(`k1:${newKey}`)));

  it('encodes values through the codec', async () => {
    const payloads = (await encodeToPayloads(converter, holder))!;
    expect(text(payloads[0]!.metadata?.encoding)).toBe(ENCODING_ENCRYPTED);
    expect(await decodeFromPayloadsAtIndex(converter, 0, payloads)).toEqual(holder);
  });

  it('encodes failure messages and stack traces: none of the rejected values is in clear in the failure', async () => {
    const error = ApplicationFailure.create({
      type: 'HolderRejected',
      message: `cardholder ${holder.firstName} <${holder.email}> rejected: id ${holder.idNumber}`,
      details: [{ pin: holder.pin }],
      nonRetryable: true,
    });
    const failure = await encodeErrorToFailure(converter, error);
    expect(failure.message).toBe('Encoded failure');
    expect(failure.stackTrace).toBe('');
    const wire = Buffer.from(temporal.api.failure.v1.Failure.encode(failure).finish()).toString('latin1');
    for (const value of Object.values(holder)) expect(wire).not.toContain(value);
    expect(wire).toContain('HolderRejected');

    const back = (await decodeOptionalFailureToOptionalError(converter, failure)) as ApplicationFailure;
    expect(back.message).toBe(error.message);
    expect(back.type).toBe('HolderRejected');
    expect(back.details).toEqual([{ pin: holder.pin }]);
  });
});

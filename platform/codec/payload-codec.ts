/**
 * AES-256-GCM payload encryption: what keeps card and personal data out of Temporal's histories,
 * visibility and backups. Each payload is encrypted whole with the current key and a random IV
 * (`binary/encrypted`, with the cipher and key id in metadata, bound as additional authenticated
 * data so edited metadata fails to decrypt); any key of the ring decrypts, for rotation. Not
 * compressed: before encryption that would let length reveal repeats of attacker-chosen text.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { CodecKeyring } from './keys';

/** `encoding` metadata of an encrypted payload (the value the Temporal samples and UI know). */
export const ENCODING_ENCRYPTED = 'binary/encrypted';
/** Metadata key naming the key that encrypted the payload. */
export const METADATA_KEY_ID = 'encryption-key-id';
/** Metadata key naming the cipher, so a future format can live next to this one. */
export const METADATA_CIPHER = 'encryption-cipher';
export const CIPHER = 'AES-256-GCM';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A payload this process cannot decrypt; the message names the key id, never key bytes. */
export class PayloadDecryptionError extends Error {
  override readonly name = 'PayloadDecryptionError';
}

const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const text = (bytes: Uint8Array | null | undefined): string | undefined =>
  bytes === null || bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8');

function additionalData(keyId: string): Buffer {
  return Buffer.from(`cardflow-payload-v1|${CIPHER}|${keyId}`, 'utf8');
}

/**
 * The {@link PayloadCodec} every cardflow client, worker and the codec server share. Build it
 * through `createDataConverter` (`platform/codec/data-converter.ts`) rather than directly.
 */
export class AesGcmPayloadCodec implements PayloadCodec {
  constructor(private readonly keyring: CodecKeyring) {}

  /** Id of the key new payloads are encrypted with. */
  get currentKeyId(): string {
    return this.keyring.current.id;
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.encryptOne(payload));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.decryptOne(payload));
  }

  private encryptOne(payload: Payload): Payload {
    const { id, material } = this.keyring.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', material, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(id));
    const plain = temporal.api.common.v1.Payload.encode(payload).finish();
    const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return {
      metadata: {
        [METADATA_ENCODING_KEY]: utf8(ENCODING_ENCRYPTED),
        [METADATA_CIPHER]: utf8(CIPHER),
        [METADATA_KEY_ID]: utf8(id),
      },
      data,
    };
  }

  private decryptOne(payload: Payload): Payload {
    // Payloads written before encryption was switched on pass through (Temporal's codec guidance).
    if (text(payload.metadata?.[METADATA_ENCODING_KEY]) !== ENCODING_ENCRYPTED) return payload;
    const cipherName = text(payload.metadata?.[METADATA_CIPHER]) ?? CIPHER;
    if (cipherName !== CIPHER)
      throw new PayloadDecryptionError(
        `encrypted payload uses cipher "${cipherName}"; this codec reads ${CIPHER} only`,
      );
    const keyId = text(payload.metadata?.[METADATA_KEY_ID]);
    if (keyId === undefined) throw new PayloadDecryptionError(`encrypted payload has no ${METADATA_KEY_ID} metadata`);
    const key = this.keyring.byId.get(keyId);
    if (!key) {
      throw new PayloadDecryptionError(
        `payload was encrypted with key id "${keyId}", which is not in this process's key list (${this.keyring.ids.join(', ')}); ` +
          'add that key (as a non-current entry) to CARDFLOW_CODEC_KEYS',
      );
    }
    const data = Buffer.from(payload.data ?? new Uint8Array());
    if (data.length < IV_BYTES + TAG_BYTES)
      throw new PayloadDecryptionError(`encrypted payload (key id "${keyId}") is truncated`);
    const decipher = createDecipheriv('aes-256-gcm', key.material, data.subarray(0, IV_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(additionalData(keyId));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    let plain: Buffer;
    try {
      plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new PayloadDecryptionError(
        `encrypted payload (key id "${keyId}") failed authentication: its ciphertext or metadata was altered, or key "${keyId}" is not the key it was written with`,
      );
    }
    return temporal.api.common.v1.Payload.decode(plain);
  }
}

/**
 * Supporting files (ID photos, delivery notes: personal data) encrypted at rest with the codec
 * keys, by the very codec Temporal's payloads use, so key rotation covers files too (keep a
 * retired key while files written with it are kept). Bytes without the marker line were stored
 * before encryption and are returned as they are. The content reference stays the hash of the
 * clear content, which is what makes a second put of the same file harmless.
 */
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { CodecKeyring } from '../codec/keys';
import { AesGcmPayloadCodec } from '../codec/payload-codec';

/** Turns a file's content into what a store keeps, and back. */
export interface FileSealer {
  seal(data: Uint8Array): Promise<Uint8Array>;
  open(stored: Uint8Array): Promise<Uint8Array>;
}

const MARKER = Buffer.from('cardflow-sealed-file-v1\n', 'utf8');

export function codecFileSealer(keyring: CodecKeyring): FileSealer {
  const codec = new AesGcmPayloadCodec(keyring);
  return {
    async seal(data) {
      const [sealed] = await codec.encode([{ metadata: {}, data }]);
      return Buffer.concat([MARKER, temporal.api.common.v1.Payload.encode(sealed!).finish()]);
    },
    async open(stored) {
      const bytes = Buffer.from(stored);
      if (bytes.length < MARKER.length || !bytes.subarray(0, MARKER.length).equals(MARKER)) return stored;
      const payload = temporal.api.common.v1.Payload.decode(bytes.subarray(MARKER.length)) as Payload;
      const [opened] = await codec.decode([payload]);
      return opened!.data ?? new Uint8Array();
    },
  };
}

/** Keeps files as they are: for tests of a store's own behaviour. */
export const CLEAR_FILES: FileSealer = {
  seal: async (data) => data,
  open: async (stored) => stored,
};

/**
 * Payload encryption for any cardflow process or backend: the data converter every client and
 * worker shares, the AES-GCM codec under it, and the key list it reads (docs/other-languages.md
 * writes the format down for other languages).
 */
export { createDataConverter, dataConverterFor, failureConverterPath } from './data-converter';
export { resolveKeyring, type KeySource, type KeyVariables, type ResolveKeyringOptions } from './dev-keys';
export {
  CodecKeyError,
  createKeyring,
  generateKeyBase64,
  keyringFrom,
  KEYS_ENV,
  KEYS_FILE_ENV,
  parseKeyFile,
  parseKeyList,
  type CodecKey,
  type CodecKeyring,
} from './keys';
export {
  AesGcmPayloadCodec,
  CIPHER,
  ENCODING_ENCRYPTED,
  METADATA_CIPHER,
  METADATA_KEY_ID,
  PayloadDecryptionError,
} from './payload-codec';

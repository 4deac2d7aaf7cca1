/**
 * The one data converter of cardflow: every `Client`, `Worker`, `MockActivityEnvironment` and the
 * codec server build theirs here, so what one process encrypts every other can read.
 *
 * ```ts
 * const { dataConverter } = dataConverterFor(readConfiguration(env)); // or
 * createDataConverter(keyring) new Client({ connection, dataConverter }); await Worker.create({
 * ..., dataConverter });
 * ```
 */
import type { DataConverter } from '@temporalio/common';
import { type KeySource, type KeyVariables, type ResolveKeyringOptions, resolveKeyring } from './dev-keys';
import type { CodecKeyring } from './keys';
import { AesGcmPayloadCodec } from './payload-codec';

/**
 * Path of `platform/codec/failure-converter` (the `.ts` source under tsx and jest). SDK 1.24's
 * `DataConverter` takes the failure converter by path, not by value: the worker bundles it into
 * the workflow sandbox.
 */
/** Thrown when no usable payload key is configured (a configuration error, exit 2 in the CLI). */
export { CodecKeyError } from './keys';

export const failureConverterPath: string = require.resolve('./failure-converter');

/**
 * Payloads encrypted with the keyring's current key (decrypted with any of its keys), failure
 * messages and stack traces encoded too (`platform/codec/failure-converter.ts`).
 */
export function createDataConverter(keyring: CodecKeyring): DataConverter {
  return {
    payloadCodecs: [new AesGcmPayloadCodec(keyring)],
    failureConverterPath,
  };
}

/**
 * {@link createDataConverter} over the keys of {@link resolveKeyring}: `CARDFLOW_CODEC_KEYS` /
 * `CARDFLOW_CODEC_KEYS_FILE`, else (outside production) the dev key file under `.data/codec/`.
 * Returns where the keys came from and the current key id, for a start-up log line.
 */
export function dataConverterFor(
  config: KeyVariables,
  options: ResolveKeyringOptions = {},
): {
  dataConverter: DataConverter;
  keySource: KeySource;
  currentKeyId: string;
} {
  const { keyring, source } = resolveKeyring(config, options);
  return { dataConverter: createDataConverter(keyring), keySource: source, currentKeyId: keyring.current.id };
}

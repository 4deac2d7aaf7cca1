/**
 * The size of a workflow's input as Temporal receives it (converted to JSON and encrypted by the
 * client's data converter), checked before the start. The server refuses a start whose input
 * passes its blob size limit with "Blob data size exceeds limit", naming no field; this check
 * refuses it first, as invalid input, naming the largest fields. Every text field has its own
 * limit (provider/rules.ts), so only many long fields together (a long list) come near it.
 */
import type { Client } from '@temporalio/client';
import { encodeToPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { InvalidInputError } from './validation';

/** The Temporal server's default blob size limit (limit.blobSize.error). */
export const PAYLOAD_LIMIT_BYTES = 2 * 1024 * 1024;
/** The server's default warning level (limit.blobSize.warn): the start succeeds, history grows. */
export const PAYLOAD_WARN_BYTES = 512 * 1024;

const KIB = 1024;
const describeBytes = (bytes: number): string =>
  bytes >= KIB * KIB ? `${(bytes / KIB / KIB).toFixed(1)} MiB` : `${Math.ceil(bytes / KIB)} KiB`;

/** Bytes of the encoded payloads (data and metadata), as the server measures a request's input. */
async function encodedBytes(client: Client, value: unknown): Promise<number> {
  const payloads = (await encodeToPayloads(client.options.loadedDataConverter, value)) ?? [];
  let total = 0;
  for (const payload of payloads) {
    total += payload.data?.length ?? 0;
    for (const [key, meta] of Object.entries(payload.metadata ?? {})) total += key.length + meta.length;
  }
  return total;
}

/**
 * Top-level fields by their JSON size, largest first: what to shorten (names only, never values).
 */
function largestFields(input: object): string[] {
  return Object.entries(input)
    .map(([field, value]) => ({ field, size: JSON.stringify(value ?? null).length }))
    .sort((a, b) => b.size - a.size)
    .slice(0, 3)
    .map(({ field, size }) => `${field} (${describeBytes(size)})`);
}

/**
 * Throws {@link InvalidInputError} when `input`, encoded as the client sends it, passes Temporal's
 * payload limit; emits a process warning (`CardflowPayloadSize`) above the server's warning level.
 * Returns the encoded size in bytes.
 */
export async function checkPayloadSize(
  client: Client,
  what: string,
  input: object,
  limits: { limitBytes?: number; warnBytes?: number } = {},
): Promise<number> {
  const limit = limits.limitBytes ?? PAYLOAD_LIMIT_BYTES;
  const warn = limits.warnBytes ?? PAYLOAD_WARN_BYTES;
  const bytes = await encodedBytes(client, input);
  if (bytes > limit) {
    throw new InvalidInputError(what, [
      `input: ${describeBytes(bytes)} once encoded, above Temporal's payload limit of ${describeBytes(limit)}; largest fields: ${largestFields(input).join(', ')}`,
    ]);
  }
  if (bytes > warn) {
    process.emitWarning(
      `${what}: input of ${describeBytes(bytes)} once encoded, above Temporal's warning level of ${describeBytes(warn)}`,
      'CardflowPayloadSize',
    );
  }
  return bytes;
}

/**
 * Retrying through a Temporal restart: while a history host or its PostgreSQL restarts, Temporal
 * answers UNAVAILABLE, refuses connections or says "Namespace not found" for a few seconds. Start
 * functions and the CLI retry such calls for a bounded time ({@link DEFAULT_UNAVAILABLE_RETRY_MS}),
 * saying once what they wait for, then fail with {@link TemporalUnavailableError} (the CLI exits
 * 4). A start is idempotent by workflow id, so a retry never starts twice. This is the layer above
 * the SDK's own short gRPC retry.
 */
import { NamespaceNotFoundError } from '@temporalio/common';
import { schemaDefault } from '../config/schema';

/** How long a start or a CLI command waits for Temporal to come back, by default. */
export const DEFAULT_UNAVAILABLE_RETRY_MS = schemaDefault('CARDFLOW_TEMPORAL_RIDE_OUT_MS');

/** gRPC status codes of a server that is not (yet) serving. */
const UNAVAILABLE = 14;
const NOT_FOUND = 5;

export interface UnavailableRetry {
  /** How long to keep retrying (ms); 0 tries once. @default {@link DEFAULT_UNAVAILABLE_RETRY_MS} */
  limitMs?: number;
  /**
   * Told once, when the first try met an unavailable Temporal, what is awaited and where.
   * @default a warning on stderr (`console.warn`)
   */
  onWait?: (message: string) => void;
}

/** Temporal did not come back within the retry window. */
export class TemporalUnavailableError extends Error {
  override readonly name = 'TemporalUnavailableError';
  constructor(
    readonly address: string,
    readonly waitedMs: number,
    cause: unknown,
  ) {
    super(
      `Temporal at ${address} unavailable for ${Math.round(waitedMs / 1000)} s (last: ${messageOf(cause)}); ` +
        'is the server running and its namespace created?',
      { cause },
    );
  }
}

function messageOf(error: unknown): string {
  let current: unknown = error;
  let text = error instanceof Error ? error.message : String(error);
  // A ServiceError says "Failed to start Workflow"; the gRPC error under it says why.
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    text = current.message;
    if (typeof (current as { code?: unknown }).code === 'number' || current instanceof NamespaceNotFoundError) break;
    current = current.cause;
  }
  return text;
}

/**
 * Whether `error` says Temporal is not serving right now (worth retrying), along its cause
 * chain: gRPC UNAVAILABLE, a refused or failed connection, or "Namespace not found" (NOT_FOUND
 * from a server whose namespace cache is still loading; a namespace that really does not exist
 * ends the retry window with the same words, after it).
 */
export function isTemporalUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof NamespaceNotFoundError) return true;
    const code = (current as { code?: unknown }).code;
    if (code === UNAVAILABLE) return true;
    if (code === NOT_FOUND && /namespace .*not found/i.test(current.message)) return true;
    if (/ECONNREFUSED|Failed to connect before the deadline/.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/** Pause before try `n` (from 1): 0.5 s doubling to 5 s. */
export function unavailableRetryDelayMs(n: number): number {
  return Math.min(5_000, 500 * 2 ** Math.max(0, n - 1));
}

/**
 * Runs `call`, retrying while Temporal at `address` is unavailable, for up to `limitMs`. `call`
 * gets the try number (1, 2, ...), so a start can tell a retry's answer from a first one.
 */
export async function retryWhileUnavailable<T>(
  address: string,
  call: (attempt: number) => Promise<T>,
  opts: UnavailableRetry = {},
): Promise<T> {
  const limitMs = opts.limitMs ?? DEFAULT_UNAVAILABLE_RETRY_MS;
  const started = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call(attempt);
    } catch (error) {
      if (!isTemporalUnavailable(error)) throw error;
      const waited = Date.now() - started;
      const pause = unavailableRetryDelayMs(attempt);
      if (waited + pause > limitMs) throw new TemporalUnavailableError(address, waited, error);
      if (attempt === 1)
        (opts.onWait ?? ((m: string) => console.warn(m)))(
          `Temporal at ${address} unavailable (${messageOf(error)}), retrying for up to ${Math.round(limitMs / 1000)} s`,
        );
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** The address a client's connection goes to (for the messages). */
export function addressOf(client: { connection: unknown }): string {
  const options = (client.connection as { options?: { address?: unknown } } | undefined)?.options;
  return typeof options?.address === 'string' ? options.address : 'the configured address';
}

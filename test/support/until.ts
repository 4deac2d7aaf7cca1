/**
 * Polls `read` until `ok` holds, tolerating errors on the way (a workflow may not answer queries
 * before a worker has run its first task, a server may be restarting); after `timeoutMs` throws
 * with the last value or error seen, and whatever `context()` adds (a process's output).
 */
export interface UntilOptions {
  timeoutMs?: number;
  pollMs?: number;
  context?: () => string;
}

export async function until<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  { timeoutMs = 120_000, pollMs = 250, context }: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await read();
      if (ok(value)) return value;
      last = value;
    } catch (error) {
      last = error instanceof Error ? error.message : error;
    }
    if (Date.now() > deadline)
      throw new Error(`condition not reached in time; last: ${JSON.stringify(last)}${context ? `\n${context()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

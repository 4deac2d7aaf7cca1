/**
 * One signed POST of one notification to the merchant's backend (CARDFLOW_NOTIFY_URL). Signed at
 * each attempt with the time of that attempt, as Stripe does: a redelivery hours later is fresh to
 * the backend's tolerance, and its id says it is the same event. No retries here: the Temporal
 * retry policy of the delivery activity owns them (two retry layers would multiply each other's
 * attempts).
 */
import { notificationHeaders, type NotificationFormat } from './signature';

export interface NotificationTarget {
  url: string;
  /** The signing secrets: the current one, then, during a rotation, the previous one. */
  secrets: readonly string[];
  format: NotificationFormat;
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
}

/**
 * The backend did not take the notification: its status (0 when it could not be reached) and
 * why. The delivery activity raises it as the failure type NotificationNotDelivered.
 */
export class NotificationPostError extends Error {
  override readonly name = 'NotificationPostError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Sends `body` (the event's JSON, signed as it is, with its id `id`) and resolves on a 2xx.
 * Anything else throws a {@link NotificationPostError}; the response body is not read into the
 * message (a backend's error page may hold anything).
 */
export async function postNotification(
  target: NotificationTarget,
  { id, body }: { id: string; body: string },
  opts: { signal?: AbortSignal; now?: () => number } = {},
): Promise<{ status: number }> {
  const timestamp = Math.floor((opts.now ?? Date.now)() / 1000);
  const signals = [AbortSignal.timeout(target.timeoutMs ?? 10_000), ...(opts.signal ? [opts.signal] : [])];
  let response: Response;
  try {
    response = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'cardflow-notifications',
        ...notificationHeaders(target.format, target.secrets, { id, timestamp, body }),
      },
      body,
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new NotificationPostError(0, `${target.url} could not be reached (${cause})`);
  }
  // Drain the body so the connection is reused.
  await response.arrayBuffer().catch(() => undefined);
  if (response.status < 200 || response.status > 299)
    throw new NotificationPostError(response.status, `${target.url} answered ${response.status}`);
  return { status: response.status };
}

/**
 * For the merchant's backend: turning a notification cardflow sent into a typed event, after its
 * signature and age are checked (docs/notifications.md has the recipe and the catalogue). Like
 * stripe-node's `webhooks.constructEvent`: give it the raw body exactly as received.
 */
import { NotificationEventSchema, type NotificationEvent } from '../domain/notifications';
import {
  notificationHeaders,
  NotificationSignatureError,
  signatureHeader,
  verifySignature,
  type NotificationFormat,
  type NotificationHeaders,
  type VerifyOptions,
} from '../platform/notifications/signature';

export {
  DEFAULT_TOLERANCE_SECONDS,
  NotificationSignatureError,
  SIGNATURE_HEADER,
  STANDARD_WEBHOOK_HEADERS,
  type NotificationFormat,
  type NotificationHeaders,
  type VerifyOptions,
} from '../platform/notifications/signature';
export {
  NotificationTypes,
  type NotificationData,
  type NotificationEvent,
  type NotificationType,
} from '../domain/notifications';

/**
 * Verifies `rawBody` (constant time, timestamp within `toleranceSeconds`, default 300) and returns
 * the event, typed by its `type`. `headers` is the `Cardflow-Signature` value or the request's
 * headers, in either format; `secret` may be two during a rotation. Throws a
 * {@link NotificationSignatureError} whose `reason` is `no_header`, `malformed_header`,
 * `no_secret`, `mismatch`, `too_old` (a replay) or `bad_payload`. Delivery is at least once:
 * de-duplicate on `event.id`.
 */
export function constructEvent(
  rawBody: string | Uint8Array,
  headers: NotificationHeaders,
  secret: string | readonly string[],
  opts: VerifyOptions = {},
): NotificationEvent {
  verifySignature(rawBody, headers, secret, opts);
  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new NotificationSignatureError('bad_payload', 'the signed body is not JSON');
  }
  const parsed = NotificationEventSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new NotificationSignatureError(
      'bad_payload',
      `the signed body is not a cardflow event: ${issue ? `${issue.path.join('.') || 'body'} ${issue.message}` : 'invalid'} (a newer cardflow? update the client)`,
    );
  }
  return parsed.data;
}

/** A signed `Cardflow-Signature` value for `rawBody`, for a backend's own tests of its endpoint. */
export function testSignatureHeader(
  rawBody: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return signatureHeader(secret, timestamp, rawBody);
}

/** The signed headers of `rawBody` (event id `id`) in `format`, for a backend's own tests. */
export function testNotificationHeaders(
  rawBody: string,
  opts: { id: string; secret: string; format: NotificationFormat; timestamp?: number },
): Record<string, string> {
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  return notificationHeaders(opts.format, [opts.secret], { id: opts.id, timestamp, body: rawBody });
}

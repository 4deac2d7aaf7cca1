/**
 * The backend's side of a notification: `constructEvent` returns the typed event of a body signed
 * with the shared secret, and refuses a changed body, another secret, a replay past the tolerance,
 * a missing or malformed header, and a signed body that is not an event of the catalogue, each
 * with its own reason.
 */
import { Webhook } from 'standardwebhooks';
import {
  constructEvent,
  NotificationSignatureError,
  testNotificationHeaders,
  testSignatureHeader,
} from '../../../../client';
import { NotificationTypes, type NotificationEvent } from '../../../../domain/notifications';
import { signatureHeader } from '../../../../platform/notifications/signature';
import { thrownBy } from '../../../support/thrown';

const SECRET = 'whsec_test_0123456789abcdef0123456789abcdef';
const NOW = 1_780_000_000;

const event: NotificationEvent = {
  id: 'evt_0f1e2d3c4b5a69788796a5b4c3d2e1f0_1',
  type: NotificationTypes.transferCompleted,
  created: '2026-05-28T20:00:00.000Z',
  workflowId: 'transfer-acme-1',
  data: {
    customerRef: 'acme-1',
    type: 'TRANSFER',
    merchantOrderNo: 'CFabc',
    amount: '10.50',
    currency: 'USD',
    payerAccountId: '1989887271659823105',
    payeeAccountId: '1989887271659823106',
  },
};
const body = JSON.stringify(event);

function refusal(run: () => unknown): NotificationSignatureError {
  return thrownBy(run, NotificationSignatureError);
}

it('returns the typed event of a body signed with the secret, within the tolerance', () => {
  const parsed = constructEvent(body, signatureHeader(SECRET, NOW - 100, body), SECRET, { now: NOW });
  expect(parsed).toEqual(event);
  if (parsed.type === NotificationTypes.transferCompleted) expect(parsed.data.amount).toBe('10.50');
  // Raw bytes as a framework hands them, and the header as an array.
  expect(constructEvent(Buffer.from(body), [signatureHeader(SECRET, NOW, body)], SECRET, { now: NOW }).id).toBe(
    event.id,
  );
  // The helper for a backend's own tests signs with the clock.
  expect(constructEvent(body, testSignatureHeader(body, SECRET), SECRET).id).toBe(event.id);
});

it('refuses a tampered body and another secret (mismatch)', () => {
  const header = signatureHeader(SECRET, NOW, body);
  const tampered = body.replace('"10.50"', '"1050.00"');
  expect(refusal(() => constructEvent(tampered, header, SECRET, { now: NOW })).reason).toBe('mismatch');
  expect(refusal(() => constructEvent(body, header, `${SECRET}x`, { now: NOW })).reason).toBe('mismatch');
  // A signature of the body at another timestamp does not pass for this one.
  const otherTime = header.replace(`t=${NOW}`, `t=${NOW - 1}`);
  expect(refusal(() => constructEvent(body, otherTime, SECRET, { now: NOW })).reason).toBe('mismatch');
});

it('refuses a replay: a valid signature older than the tolerance (or far in the future)', () => {
  const old = signatureHeader(SECRET, NOW - 301, body);
  const error = refusal(() => constructEvent(body, old, SECRET, { now: NOW }));
  expect(error.reason).toBe('too_old');
  expect(error.message).toMatch(/signed 301 s ago, outside the 300 s tolerance/);
  expect(
    refusal(() => constructEvent(body, signatureHeader(SECRET, NOW + 400, body), SECRET, { now: NOW })).reason,
  ).toBe('too_old');
  // A wider tolerance takes it.
  expect(constructEvent(body, old, SECRET, { now: NOW, toleranceSeconds: 600 }).id).toBe(event.id);
});

it('names a missing or malformed header and a missing secret', () => {
  expect(refusal(() => constructEvent(body, undefined, SECRET)).reason).toBe('no_header');
  expect(refusal(() => constructEvent(body, 'v1=abc', SECRET)).reason).toBe('malformed_header');
  expect(refusal(() => constructEvent(body, `t=${NOW},v0=${'a'.repeat(64)}`, SECRET)).reason).toBe('malformed_header');
  expect(refusal(() => constructEvent(body, signatureHeader(SECRET, NOW, body), '')).reason).toBe('no_secret');
});

it('refuses a signed body that is not an event of the catalogue', () => {
  const unknown = JSON.stringify({ ...event, type: 'card.teleported' });
  expect(
    refusal(() => constructEvent(unknown, signatureHeader(SECRET, NOW, unknown), SECRET, { now: NOW })).reason,
  ).toBe('bad_payload');
  const numberAmount = JSON.stringify({ ...event, data: { ...event.data, amount: 10.5 } });
  const error = refusal(() =>
    constructEvent(numberAmount, signatureHeader(SECRET, NOW, numberAmount), SECRET, { now: NOW }),
  );
  expect(error.message).toMatch(/data\.amount/);
});

describe('the Standard Webhooks format', () => {
  const whsec = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  const other = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
  const at = new Date(NOW * 1000);

  it('accepts what the specification’s own library signs, and the library accepts what cardflow signs', () => {
    const headers = {
      'webhook-id': event.id,
      'webhook-timestamp': String(NOW),
      'webhook-signature': new Webhook(whsec).sign(event.id, at, body),
    };
    expect(constructEvent(body, headers, whsec, { now: NOW })).toEqual(event);
    const ours = testNotificationHeaders(body, {
      id: event.id,
      secret: whsec,
      format: 'standard-webhooks',
      timestamp: NOW,
    });
    expect(ours).toEqual(headers);
    // Fetch's Headers too, in the case a framework hands them.
    expect(constructEvent(body, new Headers(ours), whsec, { now: NOW })).toEqual(event);
  });

  it('refuses another secret, a changed id, and a secret that is not whsec_ base64', () => {
    const headers = testNotificationHeaders(body, {
      id: event.id,
      secret: whsec,
      format: 'standard-webhooks',
      timestamp: NOW,
    });
    expect(refusal(() => constructEvent(body, headers, other, { now: NOW })).reason).toBe('mismatch');
    expect(
      refusal(() => constructEvent(body, { ...headers, 'webhook-id': 'evt_other' }, whsec, { now: NOW })).reason,
    ).toBe('mismatch');
    expect(refusal(() => constructEvent(body, headers, SECRET, { now: NOW })).reason).toBe('no_secret');
    expect(refusal(() => constructEvent(body, headers, whsec, { now: NOW + 301 })).reason).toBe('too_old');
  });
});

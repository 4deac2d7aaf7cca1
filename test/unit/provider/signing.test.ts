import { sign } from 'node:crypto';
import { isLosslessNumber } from '../../../provider/json';
import { generateRsaKeyPair } from '../../../provider/keys';
import {
  EMPTY_BODY,
  WebhookSignatureError,
  buildSignedWebhook,
  signBody,
  verifySignature,
  verifyWebhook,
} from '../../../provider/signing';
import { thrownBy } from '../../support/thrown';

const merchant = generateRsaKeyPair(1024);
const platform = generateRsaKeyPair(1024);
const other = generateRsaKeyPair(1024);

const body = '{"merchantOrderNo":"cf-000000000000001","cardTypeId":1989887271659823105,"amount":10.50}';

const webhookError = (fn: () => unknown): WebhookSignatureError => thrownBy(fn, WebhookSignatureError);

describe('signBody / verifySignature', () => {
  it('round-trips over the exact bytes, with the base64-DER key forms of the dashboard', () => {
    const signature = signBody(body, merchant.privateKeyBase64Der);
    expect(verifySignature(body, signature, merchant.publicKeyBase64Der)).toBe(true);
    expect(verifySignature(Buffer.from(body), signature, merchant.publicKeyPem)).toBe(true);
  });

  it('is SHA256withRSA PKCS#1 v1.5, as an independent signer computes it', () => {
    const expected = sign('sha256', Buffer.from(body), merchant.privateKey).toString('base64');
    expect(signBody(body, merchant.privateKey)).toBe(expected);
  });

  it('fails on a tampered body, a wrong key, or a reformatted body', () => {
    const signature = signBody(body, merchant.privateKey);
    expect(verifySignature(body.replace('10.50', '10.51'), signature, merchant.publicKey)).toBe(false);
    expect(verifySignature(body, signature, other.publicKey)).toBe(false);
    expect(verifySignature(body.replace(/,/g, ', '), signature, merchant.publicKey)).toBe(false);
  });

  it('signs {} for an empty body', () => {
    expect(verifySignature(EMPTY_BODY, signBody('', merchant.privateKey), merchant.publicKey)).toBe(true);
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['not base64', 'not base64 at all!'],
    ['url-safe base64', signBody(body, merchant.privateKey).replace(/\+/g, '-').replace(/\//g, '_') + '-_'],
    ['truncated', signBody(body, merchant.privateKey).slice(0, 40)],
    ['random bytes', Buffer.alloc(128, 7).toString('base64')],
  ])('returns false (never throws) for a %s signature', (_what, signature) => {
    expect(verifySignature(body, signature, merchant.publicKey)).toBe(false);
  });

  it('returns false for a garbage public key', () => {
    expect(verifySignature(body, signBody(body, merchant.privateKey), 'garbage')).toBe(false);
  });
});

describe('webhooks', () => {
  const payload = '{"cardNo":"4000123412341234","tradeNo":"T1","amount":12.30,"accountId":1989887271659823105}';
  const signed = buildSignedWebhook({
    body: payload,
    category: 'card_auth_transaction',
    platformPrivateKey: platform.privateKey,
    requestId: 'req-1',
  });

  it('builds headers as the provider sends them and verifies them', () => {
    expect(signed.headers).toMatchObject({
      'content-type': 'application/json',
      'x-wsb-category': 'card_auth_transaction',
      'x-wsb-request-id': 'req-1',
    });
    const verified = verifyWebhook({
      rawBody: Buffer.from(signed.body),
      headers: signed.headers,
      platformPublicKey: platform.publicKeyBase64Der,
    });
    expect(verified.category).toBe('card_auth_transaction');
    expect(verified.requestId).toBe('req-1');
    const record = verified.payload as Record<string, unknown>;
    expect(isLosslessNumber(record.accountId)).toBe(true);
    expect(String(record.accountId)).toBe('1989887271659823105');
  });

  it('reads headers case-insensitively, from a fetch Headers too', () => {
    const upper = Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(
      verifyWebhook({ rawBody: signed.body, headers: upper, platformPublicKey: platform.publicKey }).category,
    ).toBe('card_auth_transaction');
    expect(
      verifyWebhook({
        rawBody: signed.body,
        headers: new Headers(signed.headers),
        platformPublicKey: platform.publicKey,
      }).requestId,
    ).toBe('req-1');
  });

  it('says the header is missing', () => {
    const { 'x-wsb-signature': _omitted, ...headers } = signed.headers;
    const error = webhookError(() =>
      verifyWebhook({ rawBody: signed.body, headers, platformPublicKey: platform.publicKey }),
    );
    expect(error.problem).toBe('missing_header');
    expect(error.message).toMatch(/No X-WSB-SIGNATURE header/);
  });

  it('says the signature is not base64', () => {
    const headers = { ...signed.headers, 'x-wsb-signature': 'sig=v1,abc' };
    expect(
      webhookError(() => verifyWebhook({ rawBody: signed.body, headers, platformPublicKey: platform.publicKey }))
        .problem,
    ).toBe('bad_base64');
  });

  it('says the signature does not match a changed body or another key', () => {
    const changed = webhookError(() =>
      verifyWebhook({
        rawBody: signed.body.replace('12.30', '99.30'),
        headers: signed.headers,
        platformPublicKey: platform.publicKey,
      }),
    );
    expect(changed.problem).toBe('mismatch');
    expect(changed.message).toMatch(/platform public key.*raw, unmodified body/);
    const wrongKey = webhookError(() =>
      verifyWebhook({ rawBody: signed.body, headers: signed.headers, platformPublicKey: other.publicKey }),
    );
    expect(wrongKey.problem).toBe('mismatch');
  });

  it('says a signed body is not JSON', () => {
    const notJson = buildSignedWebhook({
      body: 'hello',
      category: 'work',
      platformPrivateKey: platform.privateKey,
      requestId: 'r',
    });
    expect(
      webhookError(() =>
        verifyWebhook({ rawBody: notJson.body, headers: notJson.headers, platformPublicKey: platform.publicKey }),
      ).problem,
    ).toBe('bad_json');
  });
});

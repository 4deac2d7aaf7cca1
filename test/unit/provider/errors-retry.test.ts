import {
  ProviderAbortedError,
  ProviderBusinessError,
  ProviderError,
  ProviderResponseError,
  ProviderServerError,
  ProviderSignatureError,
  ProviderTimeoutError,
  ProviderTransportError,
  ProviderValidationError,
} from '../../../provider/errors';
import { connectionErrorCode, shouldRetryTransport } from '../../../provider/retry';

const ctx = { operation: 'createCard', merchantOrderNo: 'cf-create-000000001', httpStatus: 200, requestId: 'rq-9' };

describe('error hierarchy', () => {
  it.each([
    [new ProviderTransportError('socket closed', { ...ctx, code: 'ECONNRESET' }), 'ProviderTransportError', true],
    [new ProviderTimeoutError(15000, ctx), 'ProviderTimeoutError', true],
    [new ProviderAbortedError(ctx), 'ProviderAbortedError', false],
    [new ProviderServerError({ ...ctx, httpStatus: 502 }), 'ProviderServerError', true],
    [
      new ProviderBusinessError({ ...ctx, code: 40002, msg: 'town is not a city code' }),
      'ProviderBusinessError',
      false,
    ],
    [new ProviderBusinessError({ ...ctx, code: 500, msg: 'system busy' }), 'ProviderBusinessError', true],
    [
      new ProviderValidationError([{ path: 'merchantOrderNo', message: 'length must be 15 to 65 characters' }], ctx),
      'ProviderValidationError',
      false,
    ],
    [new ProviderSignatureError('mismatch', ctx), 'ProviderSignatureError', false],
    [new ProviderResponseError('response data does not match the spec', [], ctx), 'ProviderResponseError', false],
  ])('%s has a stable type, retryable flag and the call context', (error, type, retryable) => {
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toBeInstanceOf(Error);
    expect(error.type).toBe(type);
    expect(error.retryable).toBe(retryable);
    expect(error.operation).toBe('createCard');
    expect(error.merchantOrderNo).toBe('cf-create-000000001');
    expect(error.requestId).toBe('rq-9');
    expect(error.message.startsWith('createCard: ')).toBe(true);
  });

  it('timeouts and aborts are transport errors (outcome unknown)', () => {
    expect(new ProviderTimeoutError(1, ctx)).toBeInstanceOf(ProviderTransportError);
    expect(new ProviderAbortedError(ctx)).toBeInstanceOf(ProviderTransportError);
  });

  it('names the field and the rule in validation messages', () => {
    const error = new ProviderValidationError(
      [{ path: 'merchantOrderNo', message: 'length must be 15 to 65 characters' }],
      { operation: 'createCard' },
    );
    expect(error.message).toBe('createCard: merchantOrderNo: length must be 15 to 65 characters');
    expect(error.issues).toEqual([{ path: 'merchantOrderNo', message: 'length must be 15 to 65 characters' }]);
  });

  it.each([
    [40003, 'anything', true],
    [40002, 'Duplicate order number', true],
    [10001, 'duplicate order number: cf-1', true],
    [40002, 'Parameter error', false],
  ])('isDuplicateOrder for code %s msg %j is %s', (code, msg, expected) => {
    expect(new ProviderBusinessError({ code, msg }).isDuplicateOrder).toBe(expected);
  });

  it('keeps signatureMissing on business errors', () => {
    expect(new ProviderBusinessError({ code: 40004, msg: 'not found', signatureMissing: true }).signatureMissing).toBe(
      true,
    );
    expect(new ProviderBusinessError({ code: 40004, msg: 'not found' }).signatureMissing).toBe(false);
  });
});

describe('shouldRetryTransport', () => {
  const transport = (code?: string) => new ProviderTransportError('failed', { code });

  it.each(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET'])('retries a %s once', (code) => {
    expect(shouldRetryTransport(transport(code), 0)).toBe(true);
    expect(shouldRetryTransport(transport(code), 1)).toBe(false);
  });

  it('never retries timeouts, aborts, unknown transport failures, statuses or envelopes', () => {
    expect(shouldRetryTransport(new ProviderTimeoutError(100), 0)).toBe(false);
    expect(shouldRetryTransport(new ProviderAbortedError(), 0)).toBe(false);
    expect(shouldRetryTransport(transport(undefined), 0)).toBe(false);
    expect(shouldRetryTransport(transport('ENOTFOUND'), 0)).toBe(false);
    expect(shouldRetryTransport(new ProviderServerError({ httpStatus: 503 }), 0)).toBe(false);
    expect(shouldRetryTransport(new ProviderBusinessError({ code: 500, msg: 'busy' }), 0)).toBe(false);
    expect(shouldRetryTransport(new ProviderValidationError([]), 0)).toBe(false);
    expect(shouldRetryTransport(Object.assign(new Error('raw'), { code: 'ECONNRESET' }), 0)).toBe(false);
  });

  it('finds connection codes along the cause chain', () => {
    const inner = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(connectionErrorCode(new Error('fetch failed', { cause: inner }))).toBe('ECONNRESET');
    expect(connectionErrorCode(new Error('other'))).toBeUndefined();
  });
});

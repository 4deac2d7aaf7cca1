import { z } from 'zod';
import { asEnvelope, interpretResponse } from '../../../provider/envelope';
import {
  ProviderBusinessError,
  ProviderResponseError,
  ProviderServerError,
  ProviderSignatureError,
} from '../../../provider/errors';
import type { RawResponse, SignatureStatus } from '../../../provider/http';
import { defineOperation } from '../../../provider/operation';
import { decimal, longId } from '../../../provider/schemas/primitives';

const Account = z.object({ accountId: longId, availableBalance: decimal });
const op = <S extends 'object' | 'one' | 'list' | 'page' | 'bareOrEnvelope'>(shape: S) =>
  defineOperation({
    name: `op_${shape}`,
    path: `/x/${shape}`,
    request: z.object({}),
    record: Account,
    shape,
    mutating: false,
    summary: 'test',
  });
const boolOp = defineOperation({
  name: 'transfer',
  path: '/x/t',
  request: z.object({}),
  record: z.literal(true),
  shape: 'boolean',
  mutating: true,
  summary: 'test',
});

function raw(body: string, status = 200, signature: SignatureStatus = 'valid'): RawResponse {
  return { status, body: Buffer.from(body), signature, requestId: 'rq-1' };
}

const record = '{"accountId":1989887271659823105,"availableBalance":0.30}';
const ok = (data: string, msg = 'Success') => `{"success":true,"code":200,"msg":"${msg}","data":${data}}`;
const expected = { accountId: '1989887271659823105', availableBalance: '0.30' };

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('interpretResponse: success shapes', () => {
  it.each(['Success', 'SUCCESS', 'success'])('accepts msg %s and keeps 19-digit ids and decimal digits', (msg) => {
    expect(interpretResponse(op('object'), raw(ok(record, msg)))).toEqual(expected);
  });

  it('reads `one` from an object or a List of one', () => {
    expect(interpretResponse(op('one'), raw(ok(record)))).toEqual(expected);
    expect(interpretResponse(op('one'), raw(ok(`[${record}]`)))).toEqual(expected);
    expect(caught(() => interpretResponse(op('one'), raw(ok(`[${record},${record}]`))))).toBeInstanceOf(
      ProviderResponseError,
    );
  });

  it('reads lists (null as empty) and pages', () => {
    expect(interpretResponse(op('list'), raw(ok(`[${record},${record}]`)))).toEqual([expected, expected]);
    expect(interpretResponse(op('list'), raw(ok('null')))).toEqual([]);
    expect(interpretResponse(op('page'), raw(ok(`{"total":12,"records":[${record}]}`)))).toEqual({
      total: '12',
      records: [expected],
    });
  });

  it('reads `bareOrEnvelope` bare or wrapped', () => {
    expect(interpretResponse(op('bareOrEnvelope'), raw(record))).toEqual(expected);
    expect(interpretResponse(op('bareOrEnvelope'), raw(ok(record)))).toEqual(expected);
    expect(caught(() => interpretResponse(op('object'), raw(record)))).toBeInstanceOf(ProviderResponseError);
  });

  it('reads boolean data', () => {
    expect(interpretResponse(boolOp, raw(ok('true')))).toBe(true);
  });

  it('reports data that breaks the schema by path, without values', () => {
    const error = caught(() =>
      interpretResponse(op('list'), raw(ok('[{"accountId":"x1","availableBalance":"1"}]'))),
    ) as ProviderResponseError;
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(error.retryable).toBe(false);
    expect(error.issues[0]?.path).toBe('data.0.accountId');
    expect(error.message).not.toContain('x1');
  });
});

describe('interpretResponse: failures and signatures', () => {
  const failure = '{"success":false,"code":40003,"msg":"Duplicate order number","data":null}';

  it('turns a failure envelope into a business error with the call context', () => {
    const error = caught(() =>
      interpretResponse(op('object'), raw(failure), { operation: 'createCard', merchantOrderNo: 'cf-1' }),
    ) as ProviderBusinessError;
    expect(error).toBeInstanceOf(ProviderBusinessError);
    expect(error).toMatchObject({
      code: 40003,
      msg: 'Duplicate order number',
      isDuplicateOrder: true,
      signatureMissing: false,
      requestId: 'rq-1',
      httpStatus: 200,
    });
    expect(error.envelope).toMatchObject({ success: false, msg: 'Duplicate order number' });
  });

  it('reports an unsigned failure envelope as a business error with signatureMissing', () => {
    const error = caught(() => interpretResponse(op('object'), raw(failure, 200, 'missing'))) as ProviderBusinessError;
    expect(error).toBeInstanceOf(ProviderBusinessError);
    expect(error.signatureMissing).toBe(true);
  });

  it('refuses an unsigned success and any bad signature', () => {
    expect(caught(() => interpretResponse(op('object'), raw(ok(record), 200, 'missing')))).toMatchObject({
      type: 'ProviderSignatureError',
      reason: 'missing',
    });
    expect(caught(() => interpretResponse(op('object'), raw(ok(record), 200, 'invalid')))).toMatchObject({
      reason: 'mismatch',
    });
    expect(caught(() => interpretResponse(op('object'), raw(failure, 200, 'invalid')))).toBeInstanceOf(
      ProviderSignatureError,
    );
  });

  it('accepts unchecked signatures when verification is off', () => {
    expect(interpretResponse(op('object'), raw(ok(record), 200, 'unchecked'))).toEqual(expected);
  });

  it('maps HTTP 5xx to a retryable server error, with or without an envelope', () => {
    const withEnvelope = caught(() =>
      interpretResponse(op('object'), raw('{"success":false,"code":500,"msg":"boom","data":null}', 500, 'missing')),
    ) as ProviderServerError;
    expect(withEnvelope).toBeInstanceOf(ProviderServerError);
    expect(withEnvelope).toMatchObject({ httpStatus: 500, code: 500, msg: 'boom', retryable: true });
    expect(
      caught(() => interpretResponse(op('object'), raw('<html>bad gateway</html>', 502, 'missing'))),
    ).toBeInstanceOf(ProviderServerError);
  });

  it('reports a non-JSON 200 as a response error', () => {
    expect(caught(() => interpretResponse(op('object'), raw('<html>', 200)))).toBeInstanceOf(ProviderResponseError);
  });
});

describe('asEnvelope', () => {
  it('treats success with a non-200 code as a failure', () => {
    expect(asEnvelope({ success: true, code: 40002, msg: 'x', data: null })?.success).toBe(false);
    expect(asEnvelope({ accountId: '1' })).toBeUndefined();
  });
});

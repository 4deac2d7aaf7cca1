/**
 * The client against a real local HTTP server on port 0 that signs its responses with the
 * platform key and records every request. Shapes are exercised with a small registry defined
 * here; validation and a real call go through the full registry (`createProviderClient`).
 */
import { getEventListeners } from 'node:events';
import { z } from 'zod';
import {
  type ProviderClientFor,
  createProviderClient,
  createProviderClientFor,
  paginate,
} from '../../../provider/client';
import type { ProviderConfig } from '../../../provider/config';
import {
  ProviderAbortedError,
  ProviderBusinessError,
  ProviderServerError,
  ProviderSignatureError,
  ProviderTimeoutError,
  ProviderTransportError,
  ProviderValidationError,
} from '../../../provider/errors';
import { parseJson } from '../../../provider/json';
import { generateRsaKeyPair } from '../../../provider/keys';
import { defineOperation } from '../../../provider/operation';
import { decimal, lengthBetween, longId, reqDecimal, reqInt, reqLong } from '../../../provider/schemas/primitives';
import { EMPTY_BODY, signBody, verifySignature } from '../../../provider/signing';
import {
  type Handler,
  type RecordedRequest,
  type Reply,
  type TestServer,
  startTestServer,
} from '../support/http-server';

const merchant = generateRsaKeyPair(1024);
const platform = generateRsaKeyPair(1024);
const stranger = generateRsaKeyPair(1024);

const Account = z.object({ accountId: longId, availableBalance: decimal });
const paging = { pageSize: reqInt.optional(), type: z.string().optional() };

const registry = {
  getAccount: defineOperation({
    name: 'getAccount',
    path: '/account/single/query',
    request: z.object({ accountId: reqLong }),
    record: Account,
    shape: 'one',
    mutating: false,
    summary: 'one',
  }),
  submitWork: defineOperation({
    name: 'submitWork',
    path: '/work/submit',
    request: z.object({}),
    record: Account,
    shape: 'bareOrEnvelope',
    mutating: true,
    summary: 'bare',
  }),
  createThing: defineOperation({
    name: 'createThing',
    path: '/thing/create',
    request: z.object({ merchantOrderNo: lengthBetween(15, 65), amount: reqDecimal }),
    record: Account,
    shape: 'object',
    mutating: true,
    summary: 'object',
  }),
  listAccounts: defineOperation({
    name: 'listAccounts',
    path: '/account/list',
    request: z.object({ pageNum: reqInt.optional(), ...paging }),
    record: Account,
    shape: 'page',
    pageField: 'pageNum',
    mutating: false,
    summary: 'page',
  }),
  listWork: defineOperation({
    name: 'listWork',
    path: '/work/list',
    request: z.object({ pageNo: reqInt.optional(), ...paging }),
    record: Account,
    shape: 'page',
    pageField: 'pageNo',
    mutating: false,
    summary: 'page by pageNo',
  }),
  upload: defineOperation({
    name: 'upload',
    path: '/file/upload',
    multipart: true,
    mutating: true,
    summary: 'multipart',
    shape: 'object',
    record: z.object({ fileId: z.string() }),
    request: z.object({
      category: z.literal('card'),
      file: z.object({ filename: z.string(), contentType: z.string(), data: z.instanceof(Uint8Array) }),
    }),
  }),
} as const;

const account = (id: string, balance = '0.30') => `{"accountId":${id},"availableBalance":${balance}}`;
const envelope = (data: string) => `{"success":true,"code":200,"msg":"SUCCESS","data":${data}}`;

/** A reply signed with the platform key, as the provider signs responses. */
function signed(body: string, status = 200, key = platform.privateKey): Reply {
  return { status, body, headers: { 'x-wsb-signature': signBody(body, key), 'x-wsb-request-id': 'rq-test' } };
}

function bodyOf(request: RecordedRequest): Record<string, unknown> {
  return parseJson(request.body.toString('utf8')) as Record<string, unknown>;
}

let server: TestServer | undefined;
let client: ProviderClientFor<typeof registry> | undefined;

function config(url: string, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return {
    baseUrl: `${url}/merchant`,
    apiKey: 'test-api-key',
    merchantPrivateKey: merchant.privateKey,
    platformPublicKey: platform.publicKey,
    timeoutMs: 5000,
    verifyResponseSignatures: true,
    ...overrides,
  };
}

async function start(handler: Handler, overrides: Partial<ProviderConfig> = {}) {
  server = await startTestServer(handler);
  client = createProviderClientFor(registry, config(server.url, overrides));
  return { server, client };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe('requests', () => {
  it('POSTs signed JSON with the API key, keeping 19-digit ids and decimals exact', async () => {
    const { server, client } = await start(() => signed(envelope(account('1989887271659823105'))));
    const result = await client.createThing({ merchantOrderNo: 'cf-create-0000000001', amount: '10.50' });
    expect(result).toEqual({ accountId: '1989887271659823105', availableBalance: '0.30' });

    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/merchant/thing/create');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-wsb-api-key']).toBe('test-api-key');
    expect(request?.body.toString()).toBe('{"merchantOrderNo":"cf-create-0000000001","amount":10.50}');
    expect(verifySignature(request!.body, request!.headers['x-wsb-signature'] as string, merchant.publicKey)).toBe(
      true,
    );

    await client.getAccount({ accountId: '1989887271659823105' });
    expect(server.requests[1]?.body.toString()).toBe('{"accountId":1989887271659823105}');
  });

  it('sends and signs {} for an operation without parameters', async () => {
    const { server, client } = await start(() => signed(account('1')));
    await client.submitWork();
    expect(server.requests[0]?.body.toString()).toBe(EMPTY_BODY);
    expect(
      verifySignature(EMPTY_BODY, server.requests[0]!.headers['x-wsb-signature'] as string, merchant.publicKey),
    ).toBe(true);
  });

  it('uploads multipart parts category and file, signing the literal {}', async () => {
    const { server, client } = await start(() => signed(envelope('{"fileId":"f-1"}')));
    const data = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]);
    expect(
      await client.upload({ category: 'card', file: { filename: 'id.pdf', contentType: 'application/pdf', data } }),
    ).toEqual({ fileId: 'f-1' });
    const [request] = server.requests;
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers['x-wsb-api-key']).toBe('test-api-key');
    expect(verifySignature(EMPTY_BODY, request!.headers['x-wsb-signature'] as string, merchant.publicKey)).toBe(true);
    const form = await new Response(request!.body, {
      headers: { 'content-type': request!.headers['content-type']! },
    }).formData();
    expect(form.get('category')).toBe('card');
    const file = form.get('file') as File;
    expect(file.name).toBe('id.pdf');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(data);
  });
});

describe('envelopes', () => {
  it('accepts a List of one and a plain object for a `one` operation', async () => {
    const replies = [envelope(`[${account('7')}]`), envelope(account('8'))];
    const { client } = await start((_r, i) => signed(replies[i]!));
    expect(await client.getAccount({ accountId: '7' })).toEqual({ accountId: '7', availableBalance: '0.30' });
    expect(await client.getAccount({ accountId: '8' })).toEqual({ accountId: '8', availableBalance: '0.30' });
  });

  it('accepts the bare record for a `bareOrEnvelope` operation', async () => {
    const { client } = await start(() => signed(account('9', '"12.345"')));
    expect(await client.submitWork({})).toEqual({ accountId: '9', availableBalance: '12.345' });
  });

  it('turns a signed failure envelope into a business error', async () => {
    const { client } = await start(() =>
      signed('{"success":false,"code":40003,"msg":"Duplicate order number","data":null}'),
    );
    const error = (await rejection(
      client.createThing({ merchantOrderNo: 'cf-create-0000000002', amount: '1' }),
    )) as ProviderBusinessError;
    expect(error).toBeInstanceOf(ProviderBusinessError);
    expect(error).toMatchObject({
      type: 'ProviderBusinessError',
      code: 40003,
      isDuplicateOrder: true,
      signatureMissing: false,
      retryable: false,
    });
    expect(error).toMatchObject({
      operation: 'createThing',
      merchantOrderNo: 'cf-create-0000000002',
      requestId: 'rq-test',
      httpStatus: 200,
    });
  });

  it('reports an unsigned failure envelope as a business error with signatureMissing', async () => {
    const { client } = await start(() => ({
      body: '{"success":false,"code":40002,"msg":"Parameter error","data":null}',
    }));
    const error = (await rejection(client.getAccount({ accountId: '1' }))) as ProviderBusinessError;
    expect(error).toBeInstanceOf(ProviderBusinessError);
    expect(error.signatureMissing).toBe(true);
    expect(error.code).toBe(40002);
  });
});

describe('signatures', () => {
  it('refuses a success signed with another key', async () => {
    const { client } = await start(() => signed(envelope(account('1')), 200, stranger.privateKey));
    expect(await rejection(client.getAccount({ accountId: '1' }))).toMatchObject({
      type: 'ProviderSignatureError',
      reason: 'mismatch',
      retryable: false,
    });
  });

  it('refuses an unsigned success, unless verification is turned off', async () => {
    const { client } = await start(() => ({ body: envelope(account('1')) }));
    expect(await rejection(client.getAccount({ accountId: '1' }))).toBeInstanceOf(ProviderSignatureError);
    const lenient = createProviderClientFor(registry, config(server!.url, { verifyResponseSignatures: false }));
    try {
      expect(await lenient.getAccount({ accountId: '1' })).toEqual({ accountId: '1', availableBalance: '0.30' });
    } finally {
      await lenient.close();
    }
  });
});

describe('failures', () => {
  it('maps HTTP 5xx, with or without an envelope, to a retryable server error', async () => {
    const replies: Reply[] = [
      { status: 500, body: '{"success":false,"code":500,"msg":"internal","data":null}' },
      { status: 503, body: 'unavailable' },
    ];
    const { server, client } = await start((_r, i) => replies[i]!);
    const first = (await rejection(client.getAccount({ accountId: '1' }))) as ProviderServerError;
    expect(first).toBeInstanceOf(ProviderServerError);
    expect(first).toMatchObject({ httpStatus: 500, code: 500, msg: 'internal', retryable: true });
    expect(await rejection(client.getAccount({ accountId: '1' }))).toMatchObject({
      type: 'ProviderServerError',
      httpStatus: 503,
    });
    expect(server.requests).toHaveLength(2); // no HTTP-level retry of a 5xx
  });

  it('times out a request that gets no answer, without retrying it', async () => {
    const { server, client } = await start(() => ({ hang: true }));
    const error = await rejection(client.getAccount({ accountId: '1' }, { timeoutMs: 150 }));
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error).toMatchObject({
      type: 'ProviderTimeoutError',
      retryable: true,
      timeoutMs: 150,
      operation: 'getAccount',
    });
    expect(server.requests).toHaveLength(1);
  });

  it("stops on the caller's AbortSignal", async () => {
    const { client } = await start(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = client.getAccount({ accountId: '1' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await rejection(pending)).toBeInstanceOf(ProviderAbortedError);
  });

  it("leaves no listener on the caller's AbortSignal once calls are answered (an activity's signal outlives many calls)", async () => {
    const { client } = await start(() => signed(envelope(account('5'))));
    const controller = new AbortController();
    for (let i = 0; i < 5; i++) await client.getAccount({ accountId: '5' }, { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('retries once on a reset connection, then succeeds', async () => {
    const { server, client } = await start((_r, i) => (i === 0 ? { reset: true } : signed(envelope(account('5')))));
    expect(await client.getAccount({ accountId: '5' })).toEqual({ accountId: '5', availableBalance: '0.30' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body.equals(server.requests[0]!.body)).toBe(true);
  });

  it('retries a read whose connection was reset, once', async () => {
    const { server, client } = await start(() => ({ reset: true }));
    const error = await rejection(client.getAccount({ accountId: '1' }));
    expect(error).toBeInstanceOf(ProviderTransportError);
    expect(error).toMatchObject({ type: 'ProviderTransportError', retryable: true });
    expect(server.requests).toHaveLength(2);
  });

  it('never resends a mutation whose connection was reset: the outcome is ambiguous and its activity resolves it', async () => {
    const { server, client } = await start(() => ({ reset: true }));
    const error = await rejection(client.createThing({ merchantOrderNo: 'cf-create-0000000003', amount: '1' }));
    expect(error).toBeInstanceOf(ProviderTransportError);
    expect(error).toMatchObject({
      type: 'ProviderTransportError',
      retryable: true,
      merchantOrderNo: 'cf-create-0000000003',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('reports a refused connection as a transport error', async () => {
    const { server: s } = await start(() => signed(envelope(account('1'))));
    const url = s.url;
    await s.close();
    server = undefined;
    const orphan = createProviderClientFor(registry, config(url));
    try {
      expect(await rejection(orphan.getAccount({ accountId: '1' }))).toMatchObject({
        type: 'ProviderTransportError',
        code: 'ECONNREFUSED',
      });
    } finally {
      await orphan.close();
    }
  });
});

describe('validation (full registry)', () => {
  it('rejects a bad request before any network call, naming the field and the rule', async () => {
    server = await startTestServer(() => signed(envelope('true')));
    const real = createProviderClient(config(server.url));
    try {
      const error = (await rejection(
        real.createCard({ merchantOrderNo: 'short', cardTypeId: '1', amount: '10' }),
      )) as ProviderValidationError;
      expect(error).toBeInstanceOf(ProviderValidationError);
      expect(error.message).toBe('createCard: merchantOrderNo: length must be 15 to 65 characters');
      expect(error.issues).toEqual([{ path: 'merchantOrderNo', message: 'length must be 15 to 65 characters' }]);
      expect(error.merchantOrderNo).toBe('short');
      // A JS number for an amount is refused too (it may already have lost digits).
      expect(
        await rejection(
          real.createCard({
            merchantOrderNo: 'cf-create-0000000004',
            cardTypeId: '1',
            amount: 10 as unknown as string,
          }),
        ),
      ).toBeInstanceOf(ProviderValidationError);
      expect(server.requests).toHaveLength(0);
    } finally {
      await real.close();
    }
  });
});

describe('pagination', () => {
  const all = ['11', '12', '13', '14', '15', '16', '17'];
  const pageReply = (page: number, size: number) =>
    signed(
      envelope(
        `{"total":${all.length},"records":[${all
          .slice((page - 1) * size, page * size)
          .map((id) => account(id))
          .join(',')}]}`,
      ),
    );

  it('walks every page by pageNum and stops at total', async () => {
    const { server, client } = await start((request) => pageReply(Number(String(bodyOf(request).pageNum)), 3));
    const ids: string[] = [];
    for await (const record of client.paginate.listAccounts({ pageSize: 3, type: 'WALLET' }))
      ids.push(record.accountId);
    expect(ids).toEqual(all);
    expect(server.requests.map((r) => r.body.toString())).toEqual([
      '{"pageNum":1,"pageSize":3,"type":"WALLET"}',
      '{"pageNum":2,"pageSize":3,"type":"WALLET"}',
      '{"pageNum":3,"pageSize":3,"type":"WALLET"}',
    ]);
  });

  it('honours pageField pageNo, through the paginate() helper', async () => {
    const { server, client } = await start((request) => pageReply(Number(String(bodyOf(request).pageNo)), 4));
    const ids: string[] = [];
    for await (const record of paginate(client, 'listWork', { pageSize: 4 })) ids.push(record.accountId);
    expect(ids).toEqual(all);
    expect(server.requests.map((r) => String(bodyOf(r).pageNo))).toEqual(['1', '2']);
  });
});

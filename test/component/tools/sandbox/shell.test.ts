/**
 * The sandbox's HTTP shell around a stand-in engine: authentication, envelopes, signatures,
 * bad input, multipart, helpers and request faults.
 */
import { connect } from 'node:net';
import { createProviderClient } from '../../../../provider/client';
import { ProviderServerError, ProviderTimeoutError, ProviderTransportError } from '../../../../provider/errors';
import { generateRsaKeyPair } from '../../../../provider/keys';
import { operations } from '../../../../provider/operations';
import { signBody, verifySignature } from '../../../../provider/signing';
import { SandboxErrorCode } from '../../../../tools/sandbox/contract';
import { type RunningSandbox, ZERO_DELAYS, startSandbox } from '../../../../tools/sandbox/index';
import { mulberry32 } from '../../../../tools/sandbox/random';
import { MULTIPART_BODY_LIMIT } from '../../../../tools/sandbox/server/body';
import { FaultInjector } from '../../../../tools/sandbox/server/faults';
import { buildRoutes } from '../../../../tools/sandbox/server/routes';
import { type RawResponse, StandInEngine, helperPost, plain, send, signedPost } from './support';

// Real servers and RSA keys: allow for a loaded machine (the project-level testTimeout does not
// reach here).
jest.setTimeout(30_000);

const TRANSFER = '/merchant/core/mcb/account/transfer';
const transferBody = (no: string) =>
  `{"type":"TRANSFER","merchantOrderNo":"${no}","amount":10.50,"payerAccountId":1989887271659823105,"payeeAccountId":2}`;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

let sandbox: RunningSandbox;
let engine: StandInEngine;

beforeAll(async () => {
  sandbox = await startSandbox({
    delays: ZERO_DELAYS,
    createEngine: (deps) => (engine = new StandInEngine(deps)),
  });
});
afterAll(() => sandbox.stop());
beforeEach(() => {
  sandbox.setFaults({ reset: true });
  engine.calls.length = 0;
  engine.transfers.clear();
});

function expectSignedFailure(res: RawResponse, code: number, msg: RegExp): void {
  expect(res.json).toMatchObject({ success: false, data: null });
  expect(String(res.json.code)).toBe(String(code));
  expect(String(res.json.msg)).toMatch(msg);
  expect(verifySignature(res.text, res.headers['x-wsb-signature'] as string, sandbox.keys.platform.publicKey)).toBe(
    true,
  );
}

describe('signed round trips through provider/ client', () => {
  it('answers a signed envelope whose data passes the schema, keeping 19-digit ids exact', async () => {
    const client = createProviderClient(sandbox.clientConfig());
    try {
      await expect(
        client.transferFunds({
          type: 'TRANSFER',
          merchantOrderNo: 'ORDER-0000000000000001',
          amount: '10.50',
          payerAccountId: '1989887271659823105',
          payeeAccountId: '2',
        }),
      ).resolves.toBe(true);
      const stored = engine.transfers.get('ORDER-0000000000000001')!;
      expect(String(stored.payerAccountId)).toBe('1989887271659823105');
      expect(String(stored.amount)).toBe('10.50');
      await expect(client.createWalletAddress({ coinKey: 'USDT_TRC20' })).resolves.toMatchObject({
        address: 'TXabc',
        coinKey: 'USDT_TRC20',
      });
    } finally {
      await client.close();
    }
  });

  it('uploads a multipart file: the signature covers {}, the engine gets the exact bytes', async () => {
    const client = createProviderClient(sandbox.clientConfig());
    try {
      const result = await client.uploadFile({
        category: 'card',
        file: { filename: 'front.png', contentType: 'image/png', data: new Uint8Array(PNG) },
      });
      expect(result.fileId).toMatch(/^file-\d+$/);
      const upload = engine.uploads.at(-1)!;
      expect(upload.request).toEqual({ category: 'card' });
      expect(upload.file).toMatchObject({ filename: 'front.png', contentType: 'image/png' });
      expect(Buffer.from(upload.file!.data).equals(PNG)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('refuses an upload whose file part is missing or whose category is wrong (40002)', async () => {
    const boundary = 'XyZ';
    const multipart = (parts: string) => Buffer.from(`${parts}--${boundary}--\r\n`);
    const headers = {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'x-wsb-api-key': sandbox.keys.apiKey,
      'x-wsb-signature': signBody('{}', sandbox.keys.merchant.privateKey),
    };
    const noFile = await send(
      sandbox.url,
      '/merchant/core/mcb/common/file/upload',
      multipart(`--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\ncard\r\n`),
      headers,
    );
    expectSignedFailure(noFile, SandboxErrorCode.parameter, /^file: is required/);
    const wrongCategory = await send(
      sandbox.url,
      '/merchant/core/mcb/common/file/upload',
      multipart(
        `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nselfie\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${PNG.toString('latin1')}\r\n`,
      ),
      headers,
    );
    expectSignedFailure(wrongCategory, SandboxErrorCode.parameter, /^category: /);
    const garbage = await send(
      sandbox.url,
      '/merchant/core/mcb/common/file/upload',
      Buffer.from('not multipart'),
      headers,
    );
    expectSignedFailure(garbage, SandboxErrorCode.badRequest, /malformed multipart body/);
    expect(engine.calls).toEqual([]);
  });
});

describe('authentication (a failure envelope, and nothing changes)', () => {
  const body = transferBody('ORDER-AUTH-00000000001');
  const sign = (text: string) => signBody(text, sandbox.keys.merchant.privateKey);

  it.each([
    [
      'a missing API key',
      () => ({ 'x-wsb-signature': sign(body) }),
      SandboxErrorCode.unauthorized,
      /X-WSB-API-KEY header is missing/,
    ],
    [
      'an unknown API key',
      () => ({ 'x-wsb-api-key': 'sandbox_nope', 'x-wsb-signature': sign(body) }),
      SandboxErrorCode.unauthorized,
      /not a known API key/,
    ],
    [
      'a missing signature',
      () => ({ 'x-wsb-api-key': sandbox.keys.apiKey }),
      SandboxErrorCode.badSignature,
      /X-WSB-SIGNATURE header is missing/,
    ],
    [
      'a signature over other bytes',
      () => ({ 'x-wsb-api-key': sandbox.keys.apiKey, 'x-wsb-signature': sign(body.replace('10.50', '10.5')) }),
      SandboxErrorCode.badSignature,
      /does not verify/,
    ],
    [
      'a signature by another key',
      () => ({
        'x-wsb-api-key': sandbox.keys.apiKey,
        'x-wsb-signature': signBody(body, generateRsaKeyPair().privateKey),
      }),
      SandboxErrorCode.badSignature,
      /does not verify/,
    ],
    [
      'a signature that is not base64',
      () => ({ 'x-wsb-api-key': sandbox.keys.apiKey, 'x-wsb-signature': '%%%' }),
      SandboxErrorCode.badSignature,
      /does not verify/,
    ],
  ])('%s', async (_label, headers, code, msg) => {
    const res = await send(sandbox.url, TRANSFER, body, { 'content-type': 'application/json', ...headers() });
    expect(res.status).toBe(200);
    expectSignedFailure(res, code, msg);
    expect(engine.calls).toEqual([]);
    expect(engine.transfers.size).toBe(0);
  });

  it('the same request correctly signed goes through', async () => {
    const res = await signedPost(sandbox, TRANSFER, body);
    expect(res.json).toMatchObject({ success: true, msg: 'Success', data: true });
    expect(String(res.json.code)).toBe('200');
    expect(engine.transfers.size).toBe(1);
  });
});

describe('bad input: a failure envelope with a clear msg, and the server keeps serving', () => {
  it.each([
    ['malformed JSON', () => signedPost(sandbox, TRANSFER, '{"type": "TRANSFER",'), /malformed JSON body/],
    ['a JSON array', () => signedPost(sandbox, TRANSFER, '[1,2]'), /must be an object/],
    [
      'a non-JSON content type',
      () => signedPost(sandbox, TRANSFER, transferBody('ORDER-CT-000000000001'), { 'content-type': 'text/plain' }),
      /Content-Type must be application\/json/,
    ],
    [
      'an unknown path',
      () => signedPost(sandbox, '/merchant/core/mcb/card/v9/nothing', '{}'),
      /no operation at path \/merchant\/core\/mcb\/card\/v9\/nothing/,
    ],
    [
      'a GET',
      () => send(sandbox.url, TRANSFER, '', { 'x-wsb-api-key': sandbox.keys.apiKey }, 'GET'),
      /method GET not allowed/,
    ],
    [
      'a PUT with a body',
      () => send(sandbox.url, TRANSFER, '{"a":1}', { 'x-wsb-api-key': sandbox.keys.apiKey }, 'PUT'),
      /method PUT not allowed/,
    ],
    [
      'a body over 1 MiB',
      () => signedPost(sandbox, TRANSFER, `{"remark":"${'x'.repeat(1024 * 1024)}"}`),
      /request body too large: \d+ bytes, the limit is 1048576/,
    ],
  ])('%s', async (_label, call, msg) => {
    const res = await call();
    expect(res.status).toBe(200);
    expectSignedFailure(res, SandboxErrorCode.badRequest, msg);
    expect(engine.calls).toEqual([]);
    const after = await signedPost(sandbox, '/merchant/core/mcb/wallet/v2/coins', '{}');
    expect(after.json).toMatchObject({ success: true, data: [] });
  });

  it('a multipart upload over 2.5 MiB is refused before its parts are read', async () => {
    const uploads = engine.uploads.length;
    const res = await send(
      sandbox.url,
      '/merchant/core/mcb/common/file/upload',
      Buffer.alloc(MULTIPART_BODY_LIMIT + 1, 0x41),
      {
        'content-type': 'multipart/form-data; boundary=B',
        'x-wsb-api-key': sandbox.keys.apiKey,
        'x-wsb-signature': signBody('{}', sandbox.keys.merchant.privateKey),
      },
    );
    expectSignedFailure(
      res,
      SandboxErrorCode.badRequest,
      /request body too large: 2621441 bytes, the limit is 2621440/,
    );
    expect(engine.uploads).toHaveLength(uploads);
  });

  it('malformed HTTP gets a bare 400, and the server keeps serving', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(sandbox.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect((await signedPost(sandbox, '/merchant/core/mcb/wallet/v2/coins', '{}')).json.success).toBe(true);
  });

  it('wrong types and rule breaks are 40002 naming the field and the rule', async () => {
    const res = await signedPost(
      sandbox,
      TRANSFER,
      '{"type":"TRANSFER","merchantOrderNo":"short","amount":"x","payerAccountId":1,"payeeAccountId":2}',
    );
    expectSignedFailure(res, SandboxErrorCode.parameter, /merchantOrderNo: length must be 20 to 40 characters/);
    expect(String(res.json.msg)).toMatch(/amount: /);
    const missing = await signedPost(sandbox, TRANSFER, '{}');
    expect(String(missing.json.msg)).toMatch(/merchantOrderNo: is required/);
    expect(engine.calls).toEqual([]);
  });

  it('an empty body counts as {} for an operation without parameters (signed as {})', async () => {
    const res = await send(sandbox.url, '/merchant/core/mcb/wallet/v2/coins', '', {
      'content-type': 'application/json',
      'x-wsb-api-key': sandbox.keys.apiKey,
      'x-wsb-signature': signBody('{}', sandbox.keys.merchant.privateKey),
    });
    expect(res.json).toMatchObject({ success: true, data: [] });
  });

  it('engine rule violations become their failure envelope; engine bugs HTTP 500, and serving continues', async () => {
    const notFound = await signedPost(sandbox, '/merchant/core/mcb/card/info', '{"cardNo":"C1"}');
    expectSignedFailure(notFound, SandboxErrorCode.notFound, /does not implement getCardInfo/);
    const bug = await signedPost(sandbox, '/merchant/core/mcb/account/info', '{}');
    expect(bug.status).toBe(500);
    expectSignedFailure(bug, SandboxErrorCode.internal, /internal sandbox error: engine bug/);
    expect((await signedPost(sandbox, '/merchant/core/mcb/wallet/v2/coins', '{}')).json.success).toBe(true);
  });
});

describe('test helper endpoints', () => {
  it('need the API key but no signature', async () => {
    const res = await helperPost(sandbox, 'echo', { a: 1 });
    expect(plain(res.json)).toMatchObject({ success: true, data: { a: 1 } });
    const anonymous = await send(sandbox.url, '/sandbox/echo', '{}', { 'content-type': 'application/json' });
    expectSignedFailure(anonymous, SandboxErrorCode.unauthorized, /X-WSB-API-KEY/);
  });

  it('an unknown helper lists the known ones; a failing helper answers 500', async () => {
    const unknown = await helperPost(sandbox, 'nope');
    expectSignedFailure(
      unknown,
      SandboxErrorCode.badRequest,
      /no sandbox helper \/sandbox\/nope; known: .*clock.*echo.*faults.*webhooks\/config.*webhooks\/log/,
    );
    expectSignedFailure(
      await helperPost(sandbox, 'constructor'),
      SandboxErrorCode.badRequest,
      /no sandbox helper \/sandbox\/constructor/,
    );
    expectSignedFailure(await helperPost(sandbox, '__proto__'), SandboxErrorCode.badRequest, /no sandbox helper/);
    const failing = await helperPost(sandbox, 'explode');
    expect(failing.status).toBe(500);
  });

  it('faults: reads, merges, validates and resets', async () => {
    expect(plain((await helperPost(sandbox, 'faults')).json.data)).toMatchObject({ errorRate: 0, latencyMs: 0 });
    expect(
      plain((await helperPost(sandbox, 'faults', { errorRate: 0.25, operations: ['createCard'] })).json.data),
    ).toMatchObject({ errorRate: 0.25, operations: ['createCard'] });
    const invalid = await helperPost(sandbox, 'faults', { errorRate: 2 });
    expectSignedFailure(invalid, SandboxErrorCode.parameter, /errorRate: must be 0 to 1/);
    const unknownField = await helperPost(sandbox, 'faults', { errrorRate: 1 });
    expectSignedFailure(unknownField, SandboxErrorCode.parameter, /errrorRate/);
    expect(plain((await helperPost(sandbox, 'faults', { reset: true })).json.data)).toMatchObject({
      errorRate: 0,
      operations: [],
    });
  });

  it('clock reads the sandbox clock and its mode', async () => {
    const data = plain((await helperPost(sandbox, 'clock')).json.data) as { now: number; mode: string };
    expect(data.mode).toBe('real');
    expect(data.now).toBe(Math.trunc(data.now));
  });

  it('engine helpers get safe whole numbers as JS numbers and keep 19-digit ids and amounts exact', async () => {
    const raw = '{"ms":1000,"id":1989887271659823105,"amount":10.50}';
    const echoed = await send(sandbox.url, '/sandbox/echo', raw, {
      'content-type': 'application/json',
      'x-wsb-api-key': sandbox.keys.apiKey,
    });
    expect(echoed.text).toBe(
      '{"success":true,"code":200,"msg":"Success","data":{"ms":1000,"id":1989887271659823105,"amount":10.50}}',
    );
    const types = await send(sandbox.url, '/sandbox/types', raw, {
      'content-type': 'application/json',
      'x-wsb-api-key': sandbox.keys.apiKey,
    });
    expect(types.json.data).toEqual({ ms: 'number', id: 'lossless', amount: 'lossless' });
  });
});

describe('request faults', () => {
  it('errorRate 1: HTTP 500 with a failure envelope, and the engine never runs', async () => {
    sandbox.setFaults({ errorRate: 1 });
    const res = await signedPost(sandbox, TRANSFER, transferBody('ORDER-ERR-000000000001'));
    expect(res.status).toBe(500);
    expectSignedFailure(res, SandboxErrorCode.internal, /injected internal error/);
    expect(engine.transfers.size).toBe(0);
    const client = createProviderClient(sandbox.clientConfig());
    await expect(client.listCoins({})).rejects.toBeInstanceOf(ProviderServerError);
    await client.close();
  });

  it('operations limits faults to the named operations; remaining limits their number', async () => {
    sandbox.setFaults({ errorRate: 1, operations: ['transferFunds'], remaining: 1 });
    expect((await signedPost(sandbox, '/merchant/core/mcb/wallet/v2/coins', '{}')).status).toBe(200);
    expect((await signedPost(sandbox, TRANSFER, transferBody('ORDER-OPS-000000000001'))).status).toBe(500);
    expect((await signedPost(sandbox, TRANSFER, transferBody('ORDER-OPS-000000000001'))).json.success).toBe(true);
    expect(sandbox.faults().remaining).toBe(0);
  });

  it('dropResponseRate: the change is committed, the socket is cut; a retry with the same merchantOrderNo leaves one order', async () => {
    sandbox.setFaults({ dropResponseRate: 1, remaining: 1 });
    await expect(signedPost(sandbox, TRANSFER, transferBody('ORDER-DROP-00000000001'))).rejects.toThrow(
      /socket hang up|ECONNRESET/,
    );
    expect(engine.transfers.size).toBe(1);
    const retry = await signedPost(sandbox, TRANSFER, transferBody('ORDER-DROP-00000000001'));
    expectSignedFailure(retry, SandboxErrorCode.duplicateOrder, /Duplicate order number/);
    expect(engine.transfers.size).toBe(1);
  });

  it('dropResponseRate through the client: the mutation is not resent, its outcome is unknown, one order exists', async () => {
    sandbox.setFaults({ dropResponseRate: 1, remaining: 1 });
    const client = createProviderClient(sandbox.clientConfig());
    const call = client.transferFunds({
      type: 'TRANSFER',
      merchantOrderNo: 'ORDER-DROP-00000000002',
      amount: '1',
      payerAccountId: '1',
      payeeAccountId: '2',
    });
    await expect(call).rejects.toBeInstanceOf(ProviderTransportError);
    await expect(call).rejects.toMatchObject({ retryable: true, merchantOrderNo: 'ORDER-DROP-00000000002' });
    expect(engine.transfers.size).toBe(1);
    await client.close();
  });

  it('latencyMs: a client whose timeout is shorter than the added latency times out', async () => {
    sandbox.setFaults({ latencyMs: 1500, operations: ['listCoins'] });
    const client = createProviderClient(sandbox.clientConfig({ timeoutMs: 200 }));
    await expect(client.listCoins({})).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(client.createWalletAddress({ coinKey: 'USDT_TRC20' })).resolves.toMatchObject({ address: 'TXabc' });
    await client.close();
  });

  it('decisions are reproducible from the seed', () => {
    const run = (seed: number) => {
      const injector = new FaultInjector(mulberry32(seed), {
        errorRate: 0.3,
        dropResponseRate: 0.3,
        webhookDuplicateRate: 0.5,
      });
      return Array.from({ length: 40 }, () => `${injector.forRequest('x').kind}/${injector.forWebhook().duplicate}`);
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
    expect(new Set(run(7)).size).toBeGreaterThan(2);
  });
});

describe('routes', () => {
  it('are derived from the registry: every operation at its path, query strings and trailing slashes ignored', () => {
    const routes = buildRoutes(operations);
    expect(routes.size).toBe(46);
    for (const op of Object.values(operations)) expect(routes.operationAt(op.path)?.name).toBe(op.name);
    expect(routes.operationAt('/merchant/core/mcb/card/v2/createCard/?x=1')?.name).toBe('createCard');
    expect(routes.operationAt('/merchant/core/mcb/card/v2/createcard')).toBeUndefined();
  });

  it('refuse a registry with two operations on one path or a key that is not the name', () => {
    const { createCard, openCard } = operations;
    expect(() => buildRoutes({ createCard, openCard: { ...openCard, path: createCard.path } })).toThrow(
      /share the path/,
    );
    expect(() => buildRoutes({ other: createCard })).toThrow(/key other holds operation createCard/);
  });
});

/**
 * Shared helpers of the sandbox shell tests: a stand-in engine (so the shell is tested apart
 * from the rules), a raw HTTP poster, and a webhook receiver that records what it gets.
 */
import { type IncomingHttpHeaders, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLosslessNumber, parseJson } from '../../../../provider/json';
import { WEBHOOK_ACK_BODY, signBody } from '../../../../provider/signing';
import {
  SandboxError,
  SandboxErrorCode,
  type SandboxEngine,
  type SandboxEngineDeps,
  type UploadedFile,
} from '../../../../tools/sandbox/contract';
import type { RunningSandbox } from '../../../../tools/sandbox/index';

/**
 * A tiny engine: transfers deduplicated by merchantOrderNo, addresses, uploads, and an `emit`
 * helper.
 */
export class StandInEngine implements SandboxEngine {
  readonly transfers = new Map<string, Record<string, unknown>>();
  readonly uploads: Array<{ request: Record<string, unknown>; file: UploadedFile | undefined }> = [];
  readonly calls: string[] = [];
  readonly helpers: SandboxEngine['helpers'];

  constructor(readonly deps: SandboxEngineDeps) {
    this.helpers = {
      emit: (body) => {
        const category = (typeof body.category === 'string' ? body.category : 'card_transaction') as 'card_transaction';
        this.deps.emit({ category, payload: (body.payload as Record<string, unknown>) ?? {} });
        return { emitted: true };
      },
      echo: (body) => body,
      /** What each field arrived as (number, LosslessNumber, string...). */
      types: (body) =>
        Object.fromEntries(Object.entries(body).map(([k, v]) => [k, isLosslessNumber(v) ? 'lossless' : typeof v])),
      explode: () => {
        throw new Error('helper bug');
      },
    };
  }

  handle(operation: string, request: Record<string, unknown>, file?: UploadedFile): unknown {
    this.calls.push(operation);
    switch (operation) {
      case 'transferFunds': {
        const no = String(request.merchantOrderNo);
        if (this.transfers.has(no)) throw new SandboxError(SandboxErrorCode.duplicateOrder, 'Duplicate order number');
        this.transfers.set(no, request);
        this.deps.emit({ category: 'card_transaction', payload: { merchantOrderNo: no, amount: request.amount } });
        return true;
      }
      case 'createWalletAddress':
        return { coinKey: request.coinKey, chain: 'TRC20', coinName: 'USDT', address: 'TXabc' };
      case 'listCoins':
        return [];
      case 'uploadFile':
        this.uploads.push({ request, file });
        return { fileId: `file-${this.uploads.length}` };
      case 'getAccountInfo':
        throw new Error('engine bug');
      default:
        throw new SandboxError(SandboxErrorCode.notFound, `stand-in engine does not implement ${operation}`);
    }
  }

  moneySnapshot() {
    return { totalBalances: '0', feesCollected: '0', externalCredits: '0' };
  }
}

/** A parsed body with LosslessNumbers turned into JS numbers, for comparing small helper values. */
export { plainNumbers as plain } from '../../../../tools/sandbox/server/body';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: Record<string, unknown>;
}

/** POSTs (or sends `method`) raw bytes; rejects when the connection is cut. */
export function send(
  url: string,
  path: string,
  body: string | Buffer,
  headers: Record<string, string>,
  method = 'POST',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const payload = typeof body === 'string' ? Buffer.from(body) : body;
    const req = request(
      `${url}${path}`,
      { method, agent: false, headers: { 'content-length': String(payload.length), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Record<string, unknown> = {};
          try {
            json = parseJson(text) as Record<string, unknown>;
          } catch {
            // left empty: the test asserts on text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A correctly signed JSON POST from the merchant. */
export function signedPost(
  sandbox: RunningSandbox,
  path: string,
  body: string,
  extra: Record<string, string> = {},
): Promise<RawResponse> {
  return send(sandbox.url, path, body, {
    'content-type': 'application/json',
    'x-wsb-api-key': sandbox.keys.apiKey,
    'x-wsb-signature': signBody(body, sandbox.keys.merchant.privateKey),
    ...extra,
  });
}

/** A helper call: API key, no signature. */
export function helperPost(sandbox: RunningSandbox, name: string, body: unknown = {}): Promise<RawResponse> {
  return send(sandbox.url, `/sandbox/${name}`, JSON.stringify(body), {
    'content-type': 'application/json',
    'x-wsb-api-key': sandbox.keys.apiKey,
  });
}

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

export type ReceiverAnswer = 'ack' | 'http500' | 'wrongBody';

/** A webhook receiver on port 0; answers from `answers` in order, then `ack`. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answers: ReceiverAnswer[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, rawBody: Buffer.concat(chunks) });
        const answer = this.answers.shift() ?? 'ack';
        if (answer === 'http500') res.writeHead(500).end('oops');
        else
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(answer === 'ack' ? WEBHOOK_ACK_BODY : '{"success":false,"code":500}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

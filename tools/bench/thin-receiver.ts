/**
 * The thin integration's webhook receiver: node:http, the platform's signature checked over the
 * raw body, `JSON.parse`, and a final status signalled to the workflow its merchantOrderNo routes
 * to (the in-memory map its activity wrote); a card's final event also goes to the card's own
 * workflow, started by the signal when the activity has not started it yet. No delivery log and no
 * de-duplication: a repeated delivery is signalled again. Anything else is acknowledged and
 * dropped.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify, type KeyObject } from 'node:crypto';
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { CardflowCardNo } from '../../domain/search-attributes';
import type { ThinRoutes } from './thin.activities';
import { isFinal, thinCardWorkflowId, thinEventSignal, type ThinEvent } from './thin-events';

const ACK = '{"success":true,"code":200,"msg":null,"data":null}';

interface WebhookRecord {
  merchantOrderNo?: string | null;
  cardNo?: string | null;
  status?: string;
}

export interface ThinReceiverOptions {
  platformKey: KeyObject;
  client: Client;
  routes: ThinRoutes;
  /** Where the card workflows run. */
  taskQueue: string;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startThinReceiver(options: ThinReceiverOptions): Promise<{ url: string; stop(): Promise<void> }> {
  const { client, routes, taskQueue } = options;

  /** Signals `event` to its owner and, for a card's event, to the card's workflow. */
  async function deliver(category: string, record: WebhookRecord): Promise<void> {
    if (!record.status || !isFinal(record.status)) return;
    const event: ThinEvent = { category, status: record.status };
    const owner = record.merchantOrderNo ? routes.get(record.merchantOrderNo) : undefined;
    const toOwner = owner
      ? client.workflow
          .getHandle(owner)
          .signal(thinEventSignal, event)
          .then(() => routes.delete(record.merchantOrderNo!))
          // Its workflow ended on what its activity read: nothing left to tell it.
          .catch((error: unknown) => {
            if (!(error instanceof WorkflowNotFoundError)) throw error;
          })
      : undefined;
    const toCard =
      category === 'card_transaction' && record.cardNo
        ? client.workflow.signalWithStart('thinCardWorkflow', {
            taskQueue,
            workflowId: thinCardWorkflowId(record.cardNo),
            signal: thinEventSignal,
            signalArgs: [event],
            typedSearchAttributes: [{ key: CardflowCardNo, value: record.cardNo }],
          })
        : undefined;
    await Promise.all([toOwner, toCard]);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const signature = request.headers['x-wsb-signature'];
    if (
      typeof signature !== 'string' ||
      !verify('sha256', body, options.platformKey, Buffer.from(signature, 'base64'))
    ) {
      response.writeHead(401).end();
      return;
    }
    const category = String(request.headers['x-wsb-category'] ?? '');
    await deliver(category, JSON.parse(body.toString('utf8')) as WebhookRecord);
    response.writeHead(200, { 'content-type': 'application/json' }).end(ACK);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      // Answered with a 500, the provider delivers it again later.
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

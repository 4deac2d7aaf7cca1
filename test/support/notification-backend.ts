/**
 * A real HTTP server standing in for the merchant's backend: it keeps every notification it is
 * sent (raw body and signature headers, either format), and can answer 500 to the next ones or
 * hold a request unanswered, so a test can see retries, redeliveries and a worker dying
 * mid-delivery. With `verifyWith` it verifies as a backend does and answers 400 to a refusal.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constructEvent, NotificationSignatureError, SIGNATURE_HEADER } from '../../client/notifications';
import type { NotificationEvent } from '../../domain/notifications';

export interface Received {
  body: string;
  signature: string | undefined;
  /** Every header as received (lower case), the Standard Webhooks ones included. */
  headers: Record<string, string>;
  /** What the backend answered (0: held). */
  status: number;
  /** Why `verifyWith`'s secrets refused it (status 400). */
  refused?: string;
}

export interface NotificationBackend {
  url: string;
  /** Every request, in arrival order, answered or not. */
  received: Received[];
  /** The 500 answers still to give before answering 200 again. */
  failNext(count: number): void;
  /** Answers 500 to everything while on. */
  failAll(on: boolean): void;
  /**
   * Holds the next request whose body matches unanswered (until close); resolves when it arrived.
   */
  holdNext(matches: (body: string) => boolean): Promise<Received>;
  /**
   * Verifies every request from now on with these secrets (constructEvent), as a backend does;
   * none: no check.
   */
  verifyWith(secrets: readonly string[] | undefined): void;
  /** The events taken with a 2xx, verified with `secret` (constructEvent), in order. */
  delivered(secret: string): NotificationEvent[];
  close(): Promise<void>;
}

export async function startNotificationBackend(): Promise<NotificationBackend> {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  let failing = 0;
  let failAlways = false;
  let hold: { matches: (body: string) => boolean; arrived: (r: Received) => void } | undefined;
  let verifying: readonly string[] | undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const header = req.headers[SIGNATURE_HEADER.toLowerCase()];
      const entry: Received = {
        body: Buffer.concat(chunks).toString('utf8'),
        signature: typeof header === 'string' ? header : undefined,
        headers: Object.fromEntries(
          Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
        ),
        status: 0,
      };
      received.push(entry);
      if (verifying) {
        try {
          constructEvent(entry.body, entry.headers, verifying);
        } catch (error) {
          if (!(error instanceof NotificationSignatureError)) throw error;
          entry.status = 400;
          entry.refused = error.reason;
          res.writeHead(400).end(error.reason);
          return;
        }
      }
      if (hold?.matches(entry.body)) {
        const { arrived } = hold;
        hold = undefined;
        held.push(res);
        arrived(entry);
        return;
      }
      entry.status = failAlways || failing > 0 ? 500 : 200;
      if (failing > 0) failing -= 1;
      res.writeHead(entry.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cardflow/events`,
    received,
    failNext: (count) => {
      failing = count;
    },
    failAll: (on) => {
      failAlways = on;
    },
    holdNext: (matches) => new Promise<Received>((arrived) => (hold = { matches, arrived })),
    verifyWith: (secrets) => {
      verifying = secrets;
    },
    delivered: (secret) =>
      received
        .filter((r) => r.status >= 200 && r.status < 300)
        .map((r) => constructEvent(r.body, r.headers, secret, { toleranceSeconds: 3600 })),
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

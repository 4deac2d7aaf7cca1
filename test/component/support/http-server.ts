/**
 * A tiny real HTTP server on port 0 for component tests: records every request (method,
 * path, headers, raw body bytes) and answers with whatever the test's handler returns.
 * A handler can also destroy the socket to simulate a reset connection, or never answer.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { Socket } from 'node:net';
import { serveOnLoopback } from '../../support/loopback-server';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Reply =
  | { status?: number; headers?: Record<string, string>; body: string | Buffer }
  /** Destroy the socket without answering (the client sees ECONNRESET / "other side closed"). */
  | { reset: true }
  /** Never answer (until the server closes). */
  | { hang: true };

export type Handler = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      void Promise.resolve(handler(recorded, requests.length - 1)).then((reply) => {
        if ('reset' in reply) {
          req.socket.destroy();
          return;
        }
        if ('hang' in reply) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body);
      });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const served = await serveOnLoopback(server);
  return {
    url: served.url,
    requests,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return served.close();
    },
  };
}

/**
 * The HTTP server around the request handler: binds (127.0.0.1 by default, port 0 allowed),
 * answers malformed HTTP with 400, and closes every connection on stop so tests and the CLI
 * shut down promptly.
 */
import { type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type HandlerDeps, createRequestHandler } from './handler';
import { serverLimits } from '../../../platform/http/body';

export interface SandboxHttpServer {
  /** Base URL, e.g. `http://127.0.0.1:8787`. */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

export async function listenSandboxServer(
  deps: HandlerDeps,
  options: { host: string; port: number },
): Promise<SandboxHttpServer> {
  const handler = createRequestHandler(deps);
  const sockets = new Set<Socket>();
  // A minute for headers and body alike: test clients and fault injection may be slow on purpose.
  const server = createServer(serverLimits({ headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 }), handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (err, socket) => {
    // Malformed HTTP: answer 400 when the socket still can, never throw.
    if (socket.writable && !(socket as Socket & { _httpMessage?: ServerResponse })._httpMessage?.headersSent) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    } else {
      socket.destroy(err);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}

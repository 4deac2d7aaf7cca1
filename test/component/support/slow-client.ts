/**
 * A slow client (slowloris): opens a connection to a local server and sends a request a few bytes
 * at a time, to check that the server drops it within its limits while serving others.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface SlowClient {
  /** Resolves with the milliseconds from connecting until the server closed the connection. */
  closed: Promise<number>;
  /** What the server answered before closing (e.g. a 408). */
  received(): string;
  stop(): void;
}

/**
 * Sends `head` (and then `body`) to `url`'s host one byte every `intervalMs`, never finishing
 * unless the text runs out; gives up (closes itself) after `giveUpMs`, so a server that never
 * drops it fails the test instead of hanging it.
 */
export function slowRequest(url: string, text: string, intervalMs = 200, giveUpMs = 8_000): SlowClient {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
  const started = performance.now();
  let answer = '';
  let i = 0;
  const timer = setInterval(() => {
    if (i < text.length && socket.writable) socket.write(text[i++]!);
  }, intervalMs);
  socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
  const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
  const closed = new Promise<number>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve(performance.now() - started);
    });
    socket.on('error', () => undefined);
  });
  return {
    closed,
    received: () => answer,
    stop: () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
    },
  };
}

/** A request whose headers never end: the classic slowloris. */
export function endlessHeaders(path: string): string {
  return `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${'X-Slow: a\r\n'.repeat(1000)}`;
}

/** Complete headers announcing a body that then trickles in. */
export function trickledBody(path: string, length = 10_000): string {
  return `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${'{'.repeat(length)}`;
}

/**
 * POSTs `body` in one write and waits for the answer, as a client that sends everything before it
 * reads (curl, most SDKs): the status, or the socket error (ECONNRESET, EPIPE) when the server cut
 * the connection instead of answering.
 */
export function postWhole(url: string, headers: Record<string, string>, body: Buffer): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) } });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end(body);
  });
}

/**
 * `node dist/platform/health/probe.js <url>`: the health check command of the cardflow image (the
 * image has no curl or wget). Exits 0 when the URL answers 200 within the time limit, 1 otherwise,
 * printing the answer's first line either way, so `docker inspect` shows why a container is
 * unhealthy. `tcp://host:port` checks only that the port accepts a connection.
 */
import { createConnection } from 'node:net';

const TIMEOUT_MS = 4_000;

async function probeHttp(url: string): Promise<string> {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  const text = (await response.text()).split('\n')[0]?.slice(0, 500) ?? '';
  if (response.status !== 200) throw new Error(`HTTP ${response.status} ${text}`);
  return text;
}

function probeTcp(url: URL): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: url.hostname, port: Number(url.port) });
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error(`no connection within ${TIMEOUT_MS} ms`)));
    socket.once('connect', () => {
      socket.destroy();
      resolve(`${url.host} accepts connections`);
    });
    socket.once('error', reject);
  });
}

export async function probe(target: string): Promise<string> {
  const url = new URL(target);
  if (url.protocol === 'tcp:') return probeTcp(url);
  if (url.protocol === 'http:' || url.protocol === 'https:') return probeHttp(target);
  throw new Error(`${target}: the probe checks http://, https:// or tcp:// addresses`);
}

if (require.main === module) {
  const target = process.argv[2];
  if (!target || process.argv.length > 3) {
    console.error('usage: node dist/platform/health/probe.js <http://host:port/readyz | tcp://host:port>');
    process.exit(2);
  }
  probe(target).then(
    (line) => console.log(line),
    (error: unknown) => {
      console.error(`unhealthy: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}

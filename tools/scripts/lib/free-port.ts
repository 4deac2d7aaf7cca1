/**
 * A TCP port free on loopback right now, for a child process that must be told its port up front
 * (the Temporal dev server's metrics, a codec server). The port is released before it is returned,
 * so another process could take it first; callers use it at once.
 */
import { createServer, type AddressInfo } from 'node:net';

export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Serving a test's own HTTP server on loopback, port 0. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serves `server` on a free loopback port: its base URL, and a close that also ends open
 * connections (a keep-alive or hanging client would otherwise hold the close forever).
 */
export async function serveOnLoopback(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

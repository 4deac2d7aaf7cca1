import { configured } from '../../../support/configured';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import {
  embeddedCodecEndpoint,
  startEmbeddedCodecServer,
  uiCodecEndpointArgs,
} from '../../../../platform/codec/embedded';
import { freePort } from '../../../../tools/scripts/lib/free-port';

const keys = `e1:${Buffer.alloc(32, 4).toString('base64')}`;

describe('startEmbeddedCodecServer', () => {
  it('serves the dev UI origin on a fixed loopback port, and a second start reuses the running server', async () => {
    const port = await freePort();
    const env = {
      CARDFLOW_CODEC_KEYS: keys,
      CARDFLOW_CODEC_SERVER_PORT: String(port),
      CARDFLOW_TEMPORAL_UI_PORT: '9233',
    };
    const first = await startEmbeddedCodecServer(configured(env));
    try {
      expect(first).toMatchObject({ url: `http://127.0.0.1:${port}`, reused: false, keySource: 'env' });
      expect(embeddedCodecEndpoint(configured(env))).toBe(first.url);
      expect(uiCodecEndpointArgs(first.url)).toEqual(['--ui-codec-endpoint', first.url]);
      const preflight = await request(`${first.url}/decode`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:9233' },
      });
      await preflight.body.dump();
      expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:9233');
      const second = await startEmbeddedCodecServer(configured(env));
      expect(second).toMatchObject({ url: first.url, reused: true });
      await second.stop();
      const stillUp = await request(`${first.url}/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"payloads":[]}',
      });
      expect(stillUp.statusCode).toBe(200);
      await stillUp.body.dump();
    } finally {
      await first.stop();
    }
  });

  it('says so when the port belongs to something else', async () => {
    const other = createServer((_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as AddressInfo;
    try {
      await expect(
        startEmbeddedCodecServer(configured({ CARDFLOW_CODEC_KEYS: keys, CARDFLOW_CODEC_SERVER_PORT: String(port) })),
      ).rejects.toThrow(`port ${port} is taken by something that is not a codec server`);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});

/**
 * The codec server of the embedded (local) stack, for `npm start` and `scripts/dev-server.ts`:
 * loopback only, the dev key (or the configured keys), token-less access from this machine, CORS
 * for the dev server's Web UI, on a fixed port so the dev server's `--ui-codec-endpoint` stays
 * valid across restarts (the dev server is detached and may outlive the process that started it).
 *
 * ```ts
 * const codec = await startEmbeddedCodecServer();
 * // temporal server start-dev ... ...uiCodecEndpointArgs(codec.url)
 * ```
 */
import type { StructuredLogger } from '../logging/logger';
import { codecServerOptionsFromEnv } from './config';
import { type KeySource, resolveKeyring } from './dev-keys';
import { type CodecServer, startCodecServer } from './server';
import { processEnv } from '../config/process-env';

export interface EmbeddedCodecServer extends CodecServer {
  /** True when a codec server already answered on the port and is used instead (stop() then does nothing). */
  reused: boolean;
  keySource?: KeySource;
}

/** `http://127.0.0.1:<CARDFLOW_CODEC_SERVER_PORT or 8888>`: what the dev server's UI is given. */
export function embeddedCodecEndpoint(env: NodeJS.ProcessEnv = processEnv()): string {
  const { port } = codecServerOptionsFromEnv(env);
  return `http://127.0.0.1:${port}`;
}

/** `temporal server start-dev` arguments pointing its Web UI at the codec server. */
export function uiCodecEndpointArgs(endpoint: string): string[] {
  return ['--ui-codec-endpoint', endpoint];
}

/** The dev server UI's origins: `CARDFLOW_TEMPORAL_UI_PORT` (default 8233) under both loopback names. */
function devUiOrigins(env: NodeJS.ProcessEnv): string[] {
  const port = env.CARDFLOW_TEMPORAL_UI_PORT?.trim() || '8233';
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** True when something on `endpoint` answers an empty decode like a codec server. */
async function answersAsCodecServer(endpoint: string, token: string | undefined): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint}/decode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: '{"payloads":[]}',
      signal: AbortSignal.timeout(2_000),
    });
    const body = (await response.json()) as { payloads?: unknown };
    return response.ok && Array.isArray(body.payloads);
  } catch {
    return false;
  }
}

/**
 * Starts the embedded codec server on 127.0.0.1 (settings of `codec/config.ts`, with the dev UI's
 * origins unless `CARDFLOW_CODEC_SERVER_ORIGINS` is set), or reuses one already answering there.
 */
export async function startEmbeddedCodecServer(
  options: { env?: NodeJS.ProcessEnv; logger?: StructuredLogger } = {},
): Promise<EmbeddedCodecServer> {
  const env = options.env ?? processEnv();
  const settings = codecServerOptionsFromEnv(env);
  const endpoint = embeddedCodecEndpoint(env);
  const { keyring, source } = resolveKeyring({ env });
  const allowedOrigins = env.CARDFLOW_CODEC_SERVER_ORIGINS?.trim() ? settings.allowedOrigins : devUiOrigins(env);
  try {
    const server = await startCodecServer({
      ...settings,
      host: '127.0.0.1',
      allowedOrigins,
      keyring,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    return { ...server, reused: false, keySource: source };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (await answersAsCodecServer(endpoint, settings.token))
      return { url: endpoint, stop: async () => undefined, reused: true };
    throw new Error(
      `port ${settings.port} is taken by something that is not a codec server; set CARDFLOW_CODEC_SERVER_PORT to a free port`,
    );
  }
}

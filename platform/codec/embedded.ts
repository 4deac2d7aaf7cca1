/**
 * The codec server of the embedded stack (`npm start`, tools/scripts/dev-server.ts): loopback
 * only, the dev key or the configured keys, token-less from this machine, CORS for the dev
 * server's Web UI, on a fixed port so the UI's `--ui-codec-endpoint` stays valid across restarts
 * (the dev server is detached and may outlive the process that started it).
 */
import type { StructuredLogger } from '../logging/logger';
import { configured, type ConfigurationSlice } from '../config/schema';
import { type CodecServerVariables, codecServerOptions } from './config';
import { type KeySource, type KeyVariables, resolveKeyring } from './dev-keys';
import { type CodecServer, startCodecServer } from './server';

export interface EmbeddedCodecServer extends CodecServer {
  /**
   * True when a codec server already answered on the port and is used instead (stop() then does
   * nothing).
   */
  reused: boolean;
  keySource?: KeySource;
}

/** `http://127.0.0.1:<CARDFLOW_CODEC_SERVER_PORT>`: what the dev server's UI is given. */
export function embeddedCodecEndpoint(config: ConfigurationSlice<'CARDFLOW_CODEC_SERVER_PORT'>): string {
  return `http://127.0.0.1:${configured(config, 'CARDFLOW_CODEC_SERVER_PORT')}`;
}

/** `temporal server start-dev` arguments pointing its Web UI at the codec server. */
export function uiCodecEndpointArgs(endpoint: string): string[] {
  return ['--ui-codec-endpoint', endpoint];
}

/** The dev server UI's origins: `CARDFLOW_TEMPORAL_UI_PORT` under both loopback names. */
function devUiOrigins(config: ConfigurationSlice<'CARDFLOW_TEMPORAL_UI_PORT'>): string[] {
  const port = configured(config, 'CARDFLOW_TEMPORAL_UI_PORT');
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
 * Starts the embedded codec server on 127.0.0.1 (settings of `platform/codec/config.ts`, with the
 * dev UI's origins unless `CARDFLOW_CODEC_SERVER_ORIGINS` is set), or reuses one already answering
 * there.
 */
export async function startEmbeddedCodecServer(
  config: CodecServerVariables & KeyVariables & ConfigurationSlice<'CARDFLOW_TEMPORAL_UI_PORT'>,
  options: { logger?: StructuredLogger } = {},
): Promise<EmbeddedCodecServer> {
  const settings = codecServerOptions(config);
  const endpoint = embeddedCodecEndpoint(config);
  const { keyring, source } = resolveKeyring(config);
  const allowedOrigins = config.CARDFLOW_CODEC_SERVER_ORIGINS ?? devUiOrigins(config);
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

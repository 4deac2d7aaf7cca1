/**
 * Codec server settings from the environment, shared by `codec/main.ts` (the container / CLI
 * entry point) and the embedded stack (`npm start`), so both read the same variables:
 *
 * | variable | default |
 * |---|---|
 * | `CARDFLOW_CODEC_SERVER_HOST` | `127.0.0.1` |
 * | `CARDFLOW_CODEC_SERVER_PORT` | `8888` |
 * | `CARDFLOW_CODEC_SERVER_TOKEN` or `CARDFLOW_CODEC_SERVER_TOKEN_FILE` | none |
 * | `CARDFLOW_CODEC_SERVER_TOKENLESS` (`never`, `loopback`, `any`) | `never` when `NODE_ENV=production`, else `loopback` |
 * | `CARDFLOW_CODEC_SERVER_ORIGINS` (comma-separated) | `http://127.0.0.1:8233,http://localhost:8233` |
 * | `CARDFLOW_CODEC_SERVER_MAX_BODY_BYTES` | 8 MiB |
 *
 * Keys come from `CARDFLOW_CODEC_KEYS` / `CARDFLOW_CODEC_KEYS_FILE` (`codec/keys.ts`).
 */
import { type CodecServerOptions, DEFAULT_MAX_BODY_BYTES, DEFAULT_UI_ORIGINS, type TokenlessAccess } from './server';
import { secretText } from '../config/variable';
import { processEnv } from '../config/process-env';

/** The server options the environment sets (everything but keys and logger). */
export type CodecServerEnvOptions = Required<
  Pick<CodecServerOptions, 'host' | 'port' | 'tokenlessAccess' | 'allowedOrigins' | 'maxBodyBytes'>
> &
  Pick<CodecServerOptions, 'token'>;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name}=${raw} must be an integer from ${min} to ${max}`);
  return value;
}

function readToken(env: NodeJS.ProcessEnv): string | undefined {
  return secretText(env, 'CARDFLOW_CODEC_SERVER_TOKEN')?.text;
}

function parseOrigins(raw: string | undefined): readonly string[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_UI_ORIGINS;
  return raw.split(',').map((item) => {
    const origin = item.trim();
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new Error(
        `CARDFLOW_CODEC_SERVER_ORIGINS: "${origin}" is not an origin like https://temporal-ui.example.com`,
      );
    }
    if (parsed.origin !== origin)
      throw new Error(
        `CARDFLOW_CODEC_SERVER_ORIGINS: "${origin}" must be exactly scheme://host[:port] (did you mean ${parsed.origin}?)`,
      );
    return origin;
  });
}

/** Reads and validates the codec server's environment; throws with the variable's name on a bad value. */
export function codecServerOptionsFromEnv(env: NodeJS.ProcessEnv = processEnv()): CodecServerEnvOptions {
  const tokenlessRaw = env.CARDFLOW_CODEC_SERVER_TOKENLESS?.trim();
  const tokenlessAccess: TokenlessAccess =
    tokenlessRaw === undefined || tokenlessRaw === ''
      ? env.NODE_ENV === 'production'
        ? 'never'
        : 'loopback'
      : (tokenlessRaw as TokenlessAccess);
  if (!['never', 'loopback', 'any'].includes(tokenlessAccess)) {
    throw new Error(`CARDFLOW_CODEC_SERVER_TOKENLESS=${tokenlessRaw} must be never, loopback or any`);
  }
  return {
    host: env.CARDFLOW_CODEC_SERVER_HOST?.trim() || '127.0.0.1',
    port: integer(env, 'CARDFLOW_CODEC_SERVER_PORT', 8888, 0, 65535),
    token: readToken(env),
    tokenlessAccess,
    allowedOrigins: parseOrigins(env.CARDFLOW_CODEC_SERVER_ORIGINS),
    maxBodyBytes: integer(env, 'CARDFLOW_CODEC_SERVER_MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES, 1024, 256 * 1024 * 1024),
  };
}

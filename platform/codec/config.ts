/**
 * Codec server settings from the parsed configuration (platform/config/schema.ts), shared by
 * `platform/codec/main.ts` (the container / CLI entry point) and the embedded stack (`npm start`),
 * so both read the same variables.
 *
 * Its variables (`CARDFLOW_CODEC_SERVER_*`), with their meanings, defaults and rules: README's
 * configuration table, generated from platform/config/schema.ts (`npm run config-table`).
 *
 * Keys come from `CARDFLOW_CODEC_KEYS` / `CARDFLOW_CODEC_KEYS_FILE` (`platform/codec/keys.ts`).
 */
import { configured, type ConfigurationSlice } from '../config/schema';
import type { CodecServerOptions, TokenlessAccess } from './server';

export type CodecServerEnvOptions = Required<
  Pick<CodecServerOptions, 'host' | 'port' | 'tokenlessAccess' | 'allowedOrigins' | 'maxBodyBytes'>
> &
  Pick<CodecServerOptions, 'token'>;

/** The variables the codec server reads. */
export type CodecServerVariables = ConfigurationSlice<
  | 'CARDFLOW_CODEC_SERVER_HOST'
  | 'CARDFLOW_CODEC_SERVER_PORT'
  | 'CARDFLOW_CODEC_SERVER_TOKEN'
  | 'CARDFLOW_CODEC_SERVER_TOKENLESS'
  | 'CARDFLOW_CODEC_SERVER_ORIGINS'
  | 'CARDFLOW_CODEC_SERVER_MAX_BODY_BYTES'
  | 'NODE_ENV'
>;

/** The codec server's settings, each variable's default filled in. */
export function codecServerOptions(config: CodecServerVariables): CodecServerEnvOptions {
  const tokenlessAccess: TokenlessAccess =
    config.CARDFLOW_CODEC_SERVER_TOKENLESS ?? (config.NODE_ENV === 'production' ? 'never' : 'loopback');
  const token = config.CARDFLOW_CODEC_SERVER_TOKEN?.value;
  return {
    host: configured(config, 'CARDFLOW_CODEC_SERVER_HOST'),
    port: configured(config, 'CARDFLOW_CODEC_SERVER_PORT'),
    ...(token === undefined ? {} : { token }),
    tokenlessAccess,
    allowedOrigins: configured(config, 'CARDFLOW_CODEC_SERVER_ORIGINS'),
    maxBodyBytes: configured(config, 'CARDFLOW_CODEC_SERVER_MAX_BODY_BYTES'),
  };
}

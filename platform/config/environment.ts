/**
 * The safety interlock between test money and real money. Merchants of this provider report that
 * sandbox and production share credentials, so the provider base URL is the only thing that tells
 * them apart; `CARDFLOW_ENV` says which one a process means, and every entry point (worker, webhook
 * receiver, codec server, `npm start`, the CLI, `connectTemporalClient`) checks it before it
 * starts, refusing with every broken rule listed:
 *
 * - `CARDFLOW_ENV`: refused when set to anything but exactly `sandbox` or `production` (a stray
 *   space or capital letter included: a value that is almost production is not guessed either way);
 *   unset while `CARDFLOW_PROVIDER_BASE_URL` is not loopback (never guessed)
 * - `CARDFLOW_PROVIDER_BASE_URL`: refused when set but not an http(s) URL
 * - `sandbox`: refused when the provider host is neither loopback nor listed in
 *   `CARDFLOW_SANDBOX_HOSTS` (comma-separated host names)
 * - `production`: refused when `NODE_ENV` is not `production`; the provider URL is plain http, or
 *   its host is loopback or a sandbox host; the API key (inline or in its file) is a sandbox one
 *   (`sandbox_…`); a key file sits in a folder the sandbox generated ({@link SANDBOX_MARKER_FILE});
 *   a codec key is a generated dev key (id `dev-…`); the entry point would start its embedded
 *   sandbox for want of a provider URL (`npm start`); the notify URL (`CARDFLOW_NOTIFY_URL`) is not
 *   https, loopback included (a 3DS code it carries would cross in clear)
 *
 * Hosts are compared in their canonical form ({@link canonicalHost}): `localhost.`,
 * `[::ffff:127.0.0.1]`, `0.0.0.0`, `2130706433`, `0x7f.1` and `127.1` are all this machine. Unset
 * with a loopback provider (or none) is the local default of a checkout: a sandbox.
 */
import { existsSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import path from 'node:path';
import type { Sourced } from './variable';

export const CARDFLOW_ENVS = ['sandbox', 'production'] as const;
export type CardflowEnv = (typeof CARDFLOW_ENVS)[number];

/**
 * Written by the sandbox into every keys folder it generates; production refuses key files beside
 * it.
 */
export const SANDBOX_MARKER_FILE = '.cardflow-sandbox';
/** Prefix of the API keys the sandbox generates. */
export const SANDBOX_API_KEY_PREFIX = 'sandbox_';
/** Prefix of the ids of the dev codec keys a checkout generates (platform/codec/dev-keys.ts). */
export const DEV_CODEC_KEY_ID_PREFIX = 'dev-';

/** Variables holding key files whose folder production checks for {@link SANDBOX_MARKER_FILE}. */
export const KEY_FILE_VARIABLES = [
  'CARDFLOW_PROVIDER_API_KEY_FILE',
  'CARDFLOW_MERCHANT_PRIVATE_KEY_FILE',
  'CARDFLOW_MERCHANT_PUBLIC_KEY_FILE',
  'CARDFLOW_PLATFORM_PUBLIC_KEY_FILE',
  'CARDFLOW_CODEC_KEYS_FILE',
] as const;
export type KeyFileVariable = (typeof KEY_FILE_VARIABLES)[number];

/**
 * The values the interlock weighs, as platform/config/schema.ts's readConfiguration parsed them (a
 * Configuration is one): `CARDFLOW_ENV` exactly as set, untrimmed, and the `_FILE` paths of the key
 * files, whose folders production checks. The interlock reads nothing else of the environment.
 */
export interface InterlockConfiguration {
  CARDFLOW_ENV?: string | undefined;
  /** The text as set, trimmed: the interlock refuses it when it is no http(s) URL with a host. */
  CARDFLOW_PROVIDER_BASE_URL?: string | undefined;
  CARDFLOW_SANDBOX_HOSTS?: string | undefined;
  NODE_ENV?: string | undefined;
  CARDFLOW_PROVIDER_API_KEY?: Sourced | undefined;
  CARDFLOW_CODEC_KEYS?: Sourced | undefined;
  /** The merchant backend's endpoint, as its rule parsed it (an http(s) URL). */
  CARDFLOW_NOTIFY_URL?: string | undefined;
  keyFiles?: Partial<Record<KeyFileVariable, string>>;
}

/** The configuration mixes environments; `problems` names each variable and the rule it breaks. */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
  constructor(readonly problems: readonly string[]) {
    super(`refusing to start, the environment is ambiguous or mixed:\n- ${problems.join('\n- ')}`);
  }
}

function isCardflowEnv(text: string): text is CardflowEnv {
  return (CARDFLOW_ENVS as readonly string[]).includes(text);
}

/**
 * A host as a connection resolves it: lower case, without brackets or the trailing dot of a fully
 * qualified name, IPv4 in dotted quad (the URL parser's reading of `2130706433`, `0x7f.1`,
 * `127.1`), IPv6 compressed, an IPv4-mapped IPv6 address as its IPv4 address. Undefined when it is
 * no host.
 */
export function canonicalHost(host: string): string | undefined {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  try {
    h = isIPv6(h) ? new URL(`http://[${h}]`).hostname.slice(1, -1) : new URL(`http://${h}`).hostname;
  } catch {
    return undefined;
  }
  h = h.replace(/\.+$/, '');
  const mapped = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    h = [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return h === '' ? undefined : h;
}

/**
 * `localhost`, `*.localhost`, 127.0.0.0/8, ::1 and the unspecified addresses (`0.0.0.0`, `::`,
 * which a connection reaches on this machine), in any spelling {@link canonicalHost} reads.
 */
export function isLoopbackHost(host: string): boolean {
  const h = canonicalHost(host);
  if (h === undefined) return false;
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIPv4(h)) return h.startsWith('127.') || h === '0.0.0.0';
  return h === '::1' || h === '::';
}

function sandboxHosts(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((h) => canonicalHost(h))
    .filter((h): h is string => h !== undefined);
}

/**
 * Codec key ids of CARDFLOW_CODEC_KEYS (`id:key,...`) or of a key file's text, without validating
 * the keys.
 */
function codecKeyIds(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    // A malformed file is the codec's to report (platform/codec/keys.ts); here only its ids matter.
    return [...trimmed.matchAll(/"id"\s*:\s*"([^"]*)"/g)].map((m) => m[1]!);
  }
  return trimmed
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== '' && !part.startsWith('#'))
    .map((part) => part.slice(0, Math.max(0, part.indexOf(':'))).trim());
}

/**
 * Why production may not post notifications to `url`, or undefined: only over https, loopback
 * included (a `card.three_ds` event carries a live one-time code). A sandbox's codes are not live.
 */
function notifyUrlProblem(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined; // its own rule names a malformed one
  const { protocol } = new URL(url);
  if (protocol === 'https:') return undefined;
  return `CARDFLOW_NOTIFY_URL: CARDFLOW_ENV=production needs https, not ${protocol} (notifications carry 3DS codes)`;
}

/**
 * What a process's configuration means, once normalised and checked ({@link resolveEnvironment}).
 */
export interface ResolvedEnvironment {
  env: CardflowEnv;
  /**
   * `CARDFLOW_PROVIDER_BASE_URL`, parsed; absent when not set (an entry point then uses its
   * sandbox).
   */
  provider?: URL;
  /**
   * Whether the provider is a sandbox: on this machine or a host of `CARDFLOW_SANDBOX_HOSTS`. Only
   * then may a sandbox-only path (`/sandbox/...`) be called with the configured API key.
   */
  providerIsSandbox: boolean;
}

export interface EnvironmentOptions {
  /** The entry point starts its own sandbox when no provider URL is set (`npm start`). */
  embedsSandbox?: boolean;
}

/**
 * Which environment `config` means, or an {@link EnvironmentError} naming every variable and rule
 * that contradicts it. Reads only the folders of the key files it names.
 */
export function checkEnvironment(config: InterlockConfiguration, options: EnvironmentOptions = {}): CardflowEnv {
  return resolveEnvironment(config, options).env;
}

/**
 * The interlock's verdict on the values readConfiguration parsed (platform/config/schema.ts): the
 * provider URL normalised, every rule of the table above checked. Callers act on the result (e.g.
 * the CLI's sandbox commands call a sandbox only when {@link
 * ResolvedEnvironment.providerIsSandbox}), never on the raw variables.
 */
export function resolveEnvironment(
  config: InterlockConfiguration,
  options: EnvironmentOptions = {},
): ResolvedEnvironment {
  const problems: string[] = [];
  const declared = config.CARDFLOW_ENV === '' ? undefined : config.CARDFLOW_ENV;
  const baseUrl = config.CARDFLOW_PROVIDER_BASE_URL;
  let provider: URL | undefined;
  if (baseUrl !== undefined) {
    provider = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
    if (provider === undefined || !['http:', 'https:'].includes(provider.protocol) || !canonicalHost(provider.hostname))
      throw new EnvironmentError(['CARDFLOW_PROVIDER_BASE_URL: must be an http(s) URL with a host']);
  }
  const providerHost = provider === undefined ? undefined : canonicalHost(provider.hostname);
  const providerIsLoopback = provider !== undefined && isLoopbackHost(provider.hostname);
  const providerIsSandbox =
    provider !== undefined &&
    (providerIsLoopback || sandboxHosts(config.CARDFLOW_SANDBOX_HOSTS).includes(providerHost ?? ''));
  const resolved = (cardflowEnv: CardflowEnv): ResolvedEnvironment => ({
    env: cardflowEnv,
    ...(provider ? { provider } : {}),
    providerIsSandbox,
  });

  if (declared !== undefined && !isCardflowEnv(declared)) {
    throw new EnvironmentError([`CARDFLOW_ENV=${JSON.stringify(declared)}: must be exactly sandbox or production`]);
  }
  if (declared === undefined) {
    if (provider !== undefined && !providerIsLoopback) {
      throw new EnvironmentError([
        `CARDFLOW_ENV is not set while CARDFLOW_PROVIDER_BASE_URL points at ${provider.host}: ` +
          'set CARDFLOW_ENV=production for the real provider or CARDFLOW_ENV=sandbox for a sandbox on another host',
      ]);
    }
    return resolved('sandbox');
  }

  if (declared === 'sandbox') {
    if (provider !== undefined && !providerIsSandbox) {
      problems.push(
        `CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=sandbox must point at loopback or a host listed in CARDFLOW_SANDBOX_HOSTS, not ${provider.hostname}`,
      );
    }
  } else {
    if (config.NODE_ENV !== 'production') {
      problems.push(
        `NODE_ENV: CARDFLOW_ENV=production needs NODE_ENV=production (got ${config.NODE_ENV ?? 'nothing'})`,
      );
    }
    if (provider !== undefined) {
      if (provider.protocol !== 'https:') {
        problems.push(`CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=production needs https, not ${provider.protocol}`);
      }
      if (providerIsSandbox) {
        problems.push(
          `CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=production points at a sandbox host (${provider.hostname}, loopback or in CARDFLOW_SANDBOX_HOSTS)`,
        );
      }
    }
    const apiKey = config.CARDFLOW_PROVIDER_API_KEY;
    if (apiKey?.value.startsWith(SANDBOX_API_KEY_PREFIX)) {
      problems.push(`${apiKey.from}: CARDFLOW_ENV=production holds a sandbox API key (${SANDBOX_API_KEY_PREFIX}…)`);
    }
    for (const name of KEY_FILE_VARIABLES) {
      const file = config.keyFiles?.[name];
      if (file !== undefined && existsSync(path.join(path.dirname(path.resolve(file)), SANDBOX_MARKER_FILE))) {
        problems.push(`${name}: CARDFLOW_ENV=production reads a key from a folder the sandbox generated (${file})`);
      }
    }
    const codecKeys = config.CARDFLOW_CODEC_KEYS;
    if (codecKeys && codecKeyIds(codecKeys.value).some((id) => id.startsWith(DEV_CODEC_KEY_ID_PREFIX))) {
      problems.push(
        `${codecKeys.from}: CARDFLOW_ENV=production holds a dev codec key (id ${DEV_CODEC_KEY_ID_PREFIX}…)`,
      );
    }
    if (provider === undefined && options.embedsSandbox) {
      problems.push(
        'CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=production needs the provider URL here; without one this would start its embedded sandbox',
      );
    }
    const notify = notifyUrlProblem(config.CARDFLOW_NOTIFY_URL);
    if (notify) problems.push(notify);
  }
  if (problems.length > 0) throw new EnvironmentError(problems);
  return resolved(declared);
}

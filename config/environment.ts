/**
 * The safety interlock between test money and real money. Merchants of this provider report that
 * sandbox and production share credentials, so the provider base URL is the only thing that tells
 * them apart; `CARDFLOW_ENV` says which one a process means, and every entry point (worker,
 * webhook receiver, codec server, `npm start`, the CLI, `connectTemporalClient`) checks it before
 * it starts, refusing with every broken rule listed:
 *
 * | rule | refused when |
 * |---|---|
 * | `CARDFLOW_ENV` | set to anything but `sandbox` or `production`; unset while `CARDFLOW_PROVIDER_BASE_URL` is not loopback (never guessed) |
 * | `sandbox` | the provider host is neither loopback nor listed in `CARDFLOW_SANDBOX_HOSTS` (comma-separated host names) |
 * | `production` | `NODE_ENV` is not `production`; the provider URL is plain http, or its host is loopback or a sandbox host; the API key is a sandbox one (`sandbox_…`); a key file sits in a folder the sandbox generated ({@link SANDBOX_MARKER_FILE}); a codec key is a generated dev key (id `dev-…`) |
 *
 * Unset with a loopback provider (or none) is the local default of a checkout: a sandbox.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const CARDFLOW_ENVS = ['sandbox', 'production'] as const;
export type CardflowEnv = (typeof CARDFLOW_ENVS)[number];

/** Written by the sandbox into every keys folder it generates; production refuses key files beside it. */
export const SANDBOX_MARKER_FILE = '.cardflow-sandbox';
/** Prefix of the API keys the sandbox generates. */
export const SANDBOX_API_KEY_PREFIX = 'sandbox_';
/** Prefix of the ids of the dev codec keys a checkout generates (codec/dev-keys.ts). */
export const DEV_CODEC_KEY_ID_PREFIX = 'dev-';

/** Variables holding key files whose folder production checks for {@link SANDBOX_MARKER_FILE}. */
const KEY_FILE_VARIABLES = [
  'CARDFLOW_PROVIDER_API_KEY_FILE',
  'CARDFLOW_MERCHANT_PRIVATE_KEY_FILE',
  'CARDFLOW_MERCHANT_PUBLIC_KEY_FILE',
  'CARDFLOW_PLATFORM_PUBLIC_KEY_FILE',
  'CARDFLOW_CODEC_KEYS_FILE',
] as const;

/** The configuration mixes environments; `problems` names each variable and the rule it breaks. */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
  constructor(readonly problems: readonly string[]) {
    super(`refusing to start, the environment is ambiguous or mixed:\n- ${problems.join('\n- ')}`);
  }
}

type Env = Record<string, string | undefined>;

function isCardflowEnv(text: string): text is CardflowEnv {
  return (CARDFLOW_ENVS as readonly string[]).includes(text);
}

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 and ::1: the provider is on this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

function sandboxHosts(env: Env): string[] {
  return (value(env, 'CARDFLOW_SANDBOX_HOSTS') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
}

/** Codec key ids of CARDFLOW_CODEC_KEYS (`id:key,...`) or of a key file's text, without validating the keys. */
function codecKeyIds(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    // A malformed file is the codec's to report (codec/keys.ts); here only its ids matter.
    return [...trimmed.matchAll(/"id"\s*:\s*"([^"]*)"/g)].map((m) => m[1]!);
  }
  return trimmed
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter((part) => part !== '' && !part.startsWith('#'))
    .map((part) => part.slice(0, Math.max(0, part.indexOf(':'))).trim());
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Which environment `env` means, or an {@link EnvironmentError} naming every variable and rule
 * that contradicts it. Reads only the environment and the folders of the key files it names.
 */
export function checkEnvironment(env: Env = process.env): CardflowEnv {
  const problems: string[] = [];
  const declared = value(env, 'CARDFLOW_ENV');
  const baseUrl = value(env, 'CARDFLOW_PROVIDER_BASE_URL');
  let provider: URL | undefined;
  if (baseUrl !== undefined && URL.canParse(baseUrl)) provider = new URL(baseUrl);
  const providerIsLoopback = provider !== undefined && isLoopbackHost(provider.hostname);

  if (declared !== undefined && !isCardflowEnv(declared)) {
    throw new EnvironmentError([`CARDFLOW_ENV=${declared}: must be sandbox or production`]);
  }
  if (declared === undefined) {
    if (provider !== undefined && !providerIsLoopback) {
      throw new EnvironmentError([
        `CARDFLOW_ENV is not set while CARDFLOW_PROVIDER_BASE_URL points at ${provider.host}: ` +
          'set CARDFLOW_ENV=production for the real provider or CARDFLOW_ENV=sandbox for a sandbox on another host',
      ]);
    }
    return 'sandbox';
  }

  if (declared === 'sandbox') {
    if (provider !== undefined && !providerIsLoopback && !sandboxHosts(env).includes(provider.hostname.toLowerCase())) {
      problems.push(
        `CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=sandbox must point at loopback or a host listed in CARDFLOW_SANDBOX_HOSTS, not ${provider.hostname}`,
      );
    }
  } else {
    if (env.NODE_ENV !== 'production') {
      problems.push(`NODE_ENV: CARDFLOW_ENV=production needs NODE_ENV=production (got ${env.NODE_ENV ?? 'nothing'})`);
    }
    if (provider !== undefined) {
      if (provider.protocol !== 'https:') {
        problems.push(`CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=production needs https, not ${provider.protocol}`);
      }
      if (providerIsLoopback || sandboxHosts(env).includes(provider.hostname.toLowerCase())) {
        problems.push(
          `CARDFLOW_PROVIDER_BASE_URL: CARDFLOW_ENV=production points at a sandbox host (${provider.hostname}, loopback or in CARDFLOW_SANDBOX_HOSTS)`,
        );
      }
    }
    if (value(env, 'CARDFLOW_PROVIDER_API_KEY')?.startsWith(SANDBOX_API_KEY_PREFIX)) {
      problems.push(
        `CARDFLOW_PROVIDER_API_KEY: CARDFLOW_ENV=production holds a sandbox API key (${SANDBOX_API_KEY_PREFIX}…)`,
      );
    }
    for (const name of KEY_FILE_VARIABLES) {
      const file = value(env, name);
      if (file !== undefined && existsSync(path.join(path.dirname(path.resolve(file)), SANDBOX_MARKER_FILE))) {
        problems.push(`${name}: CARDFLOW_ENV=production reads a key from a folder the sandbox generated (${file})`);
      }
    }
    const keysInline = value(env, 'CARDFLOW_CODEC_KEYS');
    const keysFile = value(env, 'CARDFLOW_CODEC_KEYS_FILE');
    const keyText = keysInline ?? (keysFile === undefined ? undefined : readIfPresent(keysFile));
    if (keyText !== undefined && codecKeyIds(keyText).some((id) => id.startsWith(DEV_CODEC_KEY_ID_PREFIX))) {
      problems.push(
        `${keysInline !== undefined ? 'CARDFLOW_CODEC_KEYS' : 'CARDFLOW_CODEC_KEYS_FILE'}: CARDFLOW_ENV=production holds a dev codec key (id ${DEV_CODEC_KEY_ID_PREFIX}…)`,
      );
    }
  }
  if (problems.length > 0) throw new EnvironmentError(problems);
  return declared;
}

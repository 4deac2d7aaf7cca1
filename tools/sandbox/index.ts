/**
 * Programmatic start of the provider sandbox: the engine (state and rules) inside the HTTP
 * shell (auth, envelopes, signing, faults, webhook delivery). Tests start it on port 0 with
 * zero delays; `tools/sandbox/cli.ts` starts it for people. See tools/sandbox/SERVER.md.
 */
import { CommitLog, type Commit } from './server/commit-log';
import { randomInt } from 'node:crypto';
import type { ProviderConfig } from '../../provider/config';
import { operations } from '../../provider/operations';
import { encryptSensitive } from '../../provider/sensitive';
import { createClock } from './clock';
import { type SandboxEngineOptions, createSandboxEngine } from './engine';
import type { SandboxClock, SandboxDelays, SandboxEngine, SandboxEngineDeps } from './contract';
import { type SandboxKeys, ensureSandboxKeys, generateSandboxKeys, sandboxEnv, writeSandboxEnvFile } from './keys';
import { mulberry32 } from './random';
import { FaultInjector, type FaultSettings, type FaultUpdate } from './server/faults';
import { buildRoutes, type OperationRegistry } from './server/routes';
import { listenSandboxServer } from './server/server';
import { createShellHelpers } from './server/shell-helpers';
import { WebhookDeliveries } from './server/webhooks';

export { type SandboxKeys, KEY_FILES, ensureSandboxKeys, generateSandboxKeys, sandboxEnv } from './keys';
export { type FaultSettings, type FaultUpdate, NO_FAULTS } from './server/faults';
export type { Commit } from './server/commit-log';
export {
  type DeliveryAttempt,
  type DeliveryStatus,
  type WebhookDelivery,
  WEBHOOK_RETRY_SCHEDULE_MS,
  WebhookDeliveries,
} from './server/webhooks';

import { DEFAULT_DELAYS } from './delays';
export { DEFAULT_DELAYS, scaledDelays, ZERO_DELAYS } from './delays';

export type EngineFactory = (deps: SandboxEngineDeps) => SandboxEngine;

export interface StartSandboxOptions {
  /** TCP port; default 0 (any free port). */
  port?: number;
  /** Bind address; default 127.0.0.1. */
  host?: string;
  /**
   * Keys directory (created with fresh keys on first use, reused after). Ignored when `keys` is
   * given.
   */
  keysDir?: string;
  /** In-memory keys (tests). Default: `keysDir` if given, else fresh in-memory keys. */
  keys?: SandboxKeys;
  /**
   * Seed of every random choice (ids, card numbers, outcomes, faults). Default: a fresh random one,
   * so two sandboxes (two test files, or two `npm start` runs on one Temporal server) never hand
   * out the same card numbers or holder ids, as the real provider never does. Give one to replay a
   * run.
   */
  seed?: number;
  /**
   * `real` (default): steps run on wall-clock timers. `manual`: time moves only via clock.advance /
   * POST /sandbox/clock/advance.
   */
  clock?: 'real' | 'manual';
  /** Sandbox-clock start, epoch ms; default now. */
  clockStart?: number;
  /**
   * Delays of the asynchronous steps; default DEFAULT_DELAYS (seconds). Use ZERO_DELAYS in tests.
   */
  delays?: Partial<SandboxDelays>;
  /** Webhook callback URL; default none (events are logged as `no_url`). */
  webhookUrl?: string | null;
  /** Initial fault settings; default none. */
  faults?: FaultUpdate;
  /** Diagnostics (internal errors, unacknowledged webhooks); default silent. */
  log?: (line: string) => void;
  /** Options of the default engine (e.g. `initialWalletBalance`, default "100000.00"). */
  engine?: SandboxEngineOptions;
  /**
   * Engine factory; default `createSandboxEngine` (`tools/sandbox/engine`). Shell tests pass a
   * stand-in.
   */
  createEngine?: EngineFactory;
  /** Operation registry; default `provider/operations.ts`. */
  registry?: OperationRegistry;
}

export interface RunningSandbox {
  /** Base URL, e.g. http://127.0.0.1:8787 (operation paths are appended). */
  url: string;
  /** The seed in use (given, or drawn at start): the same seed and requests give the same ids. */
  seed: number;
  port: number;
  keys: SandboxKeys;
  engine: SandboxEngine;
  clock: SandboxClock;
  clockMode: 'real' | 'manual';
  delays: SandboxDelays;
  /** Webhook delivery: `log()`, `idle()`, `setUrl()`, `releaseHeld()`. */
  deliveries: WebhookDeliveries;
  /**
   * Every mutation committed so far (also `POST /sandbox/commits`): how a test counts effects at
   * the provider.
   */
  commits(filter?: { operation?: string }): Commit[];
  faults(): FaultSettings;
  /** Merges fault settings (`{reset: true}` clears them); returns the new settings. */
  setFaults(update: FaultUpdate): FaultSettings;
  setWebhookUrl(url: string | null): void;
  /** CARDFLOW_* variables pointing a cardflow process at this sandbox. */
  env: Record<string, string>;
  /** A ready `createProviderClient` configuration. */
  clientConfig(overrides?: Partial<ProviderConfig>): ProviderConfig;
  /** Stops timers and webhook retries and closes the server and its connections. */
  stop(): Promise<void>;
}

/**
 * Fault decisions draw from their own stream, so turning faults on does not change the engine's
 * ids.
 */
const FAULT_SEED_SALT = 0x5eedfa17;

export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const createEngine: EngineFactory =
    options.createEngine ?? ((deps) => createSandboxEngine(deps, options.engine ?? {}));
  const keys = options.keys ?? (options.keysDir ? ensureSandboxKeys(options.keysDir) : generateSandboxKeys());
  const seed = options.seed ?? randomInt(1, 2 ** 31 - 1);
  const clockMode = options.clock ?? 'real';
  const clock = createClock(
    options.clockStart === undefined ? { mode: clockMode } : { mode: clockMode, start: options.clockStart },
  );
  const delays: SandboxDelays = { ...DEFAULT_DELAYS, ...options.delays };
  const faults = new FaultInjector(mulberry32((seed ^ FAULT_SEED_SALT) >>> 0), options.faults);
  const deliveries = new WebhookDeliveries({
    clock,
    platformPrivateKey: keys.platform.privateKey,
    faults,
    retryScale: delays.webhookRetryScale,
    url: options.webhookUrl ?? null,
    ...(options.log ? { log: options.log } : {}),
  });
  const engine = createEngine({
    clock,
    random: mulberry32(seed),
    encrypt: (plaintext) => encryptSensitive(plaintext, keys.merchant.publicKey),
    emit: (event) => deliveries.emit(event),
    delays,
  });
  const commitLog = new CommitLog();
  const server = await listenSandboxServer(
    {
      onCommit: (operation, request, result, dropped) =>
        commitLog.record(operation, clock.now(), request, result, dropped),
      routes: buildRoutes(options.registry ?? operations),
      engine,
      apiKey: keys.apiKey,
      merchantPublicKey: keys.merchant.publicKey,
      platformPrivateKey: keys.platform.privateKey,
      faults,
      shellHelpers: createShellHelpers({
        faults,
        commits: commitLog,
        deliveries,
        clock,
        clockMode,
        retryScale: () => delays.webhookRetryScale,
        setRetryScale: (scale) => {
          delays.webhookRetryScale = scale;
          deliveries.setRetryScale(scale);
        },
      }),
      ...(options.log ? { log: options.log } : {}),
    },
    { host: options.host ?? '127.0.0.1', port: options.port ?? 0 },
  );
  writeSandboxEnvFile(keys, server.url);
  return {
    seed,
    commits: (filter) => commitLog.list(filter),
    url: server.url,
    port: server.port,
    keys,
    engine,
    clock,
    clockMode,
    delays,
    deliveries,
    faults: () => faults.current(),
    setFaults: (update) => faults.update(update),
    setWebhookUrl: (url) => deliveries.setUrl(url),
    env: sandboxEnv(keys, server.url),
    clientConfig: (overrides = {}) => ({
      baseUrl: server.url,
      apiKey: keys.apiKey,
      merchantPrivateKey: keys.merchant.privateKey,
      platformPublicKey: keys.platform.publicKey,
      timeoutMs: 10_000,
      verifyResponseSignatures: true,
      ...overrides,
    }),
    stop: async () => {
      deliveries.stop();
      await server.close();
    },
  };
}

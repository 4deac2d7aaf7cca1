/**
 * What every bench phase shares: its settings (from the environment), a fresh sandbox, webhook
 * receiver and cardflow worker per phase, onboarding inputs, and the server's action metric.
 */
import type { Client } from '@temporalio/client';
import type { BenchTemporal } from './cluster';
import type { WorkflowBundle } from '@temporalio/worker';
import type { CardflowWorker } from '../../workers/cardflow-worker';
import type { ActivityDeps } from '../../activities';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createProviderClient } from '../../provider/client';
import { startBenchOnboarding } from './reference';
import type { WaitOverrides } from '../../domain/wait-profile';
import type { SandboxDelays } from '../sandbox/contract';
import { startSandbox, type RunningSandbox } from '../sandbox/index';
import { CARD_TYPE_IDS } from '../sandbox/data/card-types';
import { b2bHolder as holder } from '../../test/fixtures/holders';
import { startWebhookReceiver } from '../../webhooks/receiver';
import { createFileRouteStore, type RouteStore } from '../../platform/storage/route-store';
import { openFileUndeliveredStore } from '../../platform/notifications/store';
import { createWorker } from '../../workers/create-worker';
import { parseActionMetric } from './actions';

/** A phase's running parts: its task queue, worker and sandbox. */
export interface BenchContext {
  taskQueue: string;
  worker: CardflowWorker;
  /** What the worker's activities were built from (a bench worker of its own may share it). */
  activityDeps: ActivityDeps;
  sandbox: RunningSandbox;
}

export const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw ? Number(raw) : fallback;
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}=${raw} must be a positive number`);
  return n;
};
export const ONBOARDINGS = num('BENCH_ONBOARDINGS', 50);
export const PARKED = num('BENCH_PARKED', 10_000);
export const WAIT_REAL_MS = num('BENCH_WAIT_REAL_S', 12) * 1000;
export const PHASE_TIMEOUT_MS = num('BENCH_PHASE_TIMEOUT_S', 300) * 1000;
export const ROUNDS = num('BENCH_ROUNDS', 3);
export const PHASES = new Set((process.env.BENCH_PHASES ?? 'a,b,d,e,f,g,k,n').split(',').map((p) => p.trim()));
const CARD_TYPE_B2B_WITH_DEPOSIT = CARD_TYPE_IDS.b2bVirtual;

export const say = (line: string) => console.log(line);

export function onboardingInput(tag: string, emailLocal: string, wait: WaitOverrides) {
  const customerRef = `bench-${tag}-${randomUUID().slice(0, 12)}`;
  return {
    customerRef,
    cardTypeId: CARD_TYPE_B2B_WITH_DEPOSIT,
    holder: holder(`${emailLocal}+${randomUUID().slice(0, 8)}@example.com`),
    initialDeposit: '20.00',
    wait,
  };
}

export function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(() => reject(new Error(`${what}: over ${PHASE_TIMEOUT_MS / 1000} s`)), PHASE_TIMEOUT_MS)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs `fn` against a fresh sandbox + receiver + cardflow worker on a task queue of its own. */
export async function withCardflow<T>(
  env: BenchTemporal,
  bundle: WorkflowBundle,
  delays: Partial<SandboxDelays>,
  fn: (ctx: BenchContext) => Promise<T>,
  workerOptions: { maxCachedWorkflows?: number } = {},
): Promise<T> {
  const sandbox = await startSandbox({ delays, clock: 'real', seed: Math.floor(Math.random() * 2 ** 31) });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cardflow-bench-'));
  // The phase's own routes, which its worker records and its receiver reads.
  const routes = createFileRouteStore({ dir: path.join(dataDir, 'routes') });
  const receiver = await startWebhookReceiver({
    platformPublicKey: sandbox.keys.platform.publicKey,
    client: env.client,
    routes,
    dataDir,
  });
  sandbox.setWebhookUrl(receiver.url);
  const provider = createProviderClient(sandbox.clientConfig());
  const taskQueue = `bench-${randomUUID().slice(0, 8)}`;
  try {
    const activityDeps = { provider, merchantPrivateKey: sandbox.keys.merchant.privateKey, routes };
    const worker = await createWorker({
      connection: env.nativeConnection,
      taskQueue,
      activityDeps,
      workflowBundle: bundle,
      workerOptions,
    });
    return await worker.runUntil(() => fn({ taskQueue, worker, activityDeps, sandbox }));
  } finally {
    await receiver.stop();
    await sandbox.stop();
    await provider.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runOnboardings(
  client: Client,
  taskQueue: string,
  count: number,
  tag: string,
  wait: WaitOverrides,
): Promise<string[]> {
  const inputs = Array.from({ length: count }, () => onboardingInput(tag, 'bench', wait));
  const started = await Promise.all(inputs.map((input) => startBenchOnboarding(client, input, { taskQueue })));
  await withTimeout(Promise.all(started.map((s) => s.handle.result())), `${count} onboardings`);
  return inputs.map((i) => i.customerRef);
}

let metricsUrl = '';

/** Where actionMetric reads the dev server's metrics (set once the server runs). */
export function setMetricsUrl(url: string): void {
  metricsUrl = url;
}

/** The dev server's `action` counter, by action type. */
export async function actionMetric(): Promise<Record<string, number>> {
  const response = await fetch(metricsUrl);
  return parseActionMetric(await response.text());
}

/**
 * A bench worker's activity dependencies with notifications on: the sandbox's provider and keys,
 * the route store, and a backend at `backendUrl` verifying with `secret` (its undelivered store
 * in `dataDir`).
 */
export async function notifyingActivityDeps(deps: {
  sandbox: RunningSandbox;
  provider: ActivityDeps['provider'];
  routes: RouteStore;
  backendUrl: string;
  secret: string;
  dataDir: string;
}) {
  return {
    provider: deps.provider,
    merchantPrivateKey: deps.sandbox.keys.merchant.privateKey,
    routes: deps.routes,
    notifications: {
      target: { url: deps.backendUrl, secrets: [deps.secret], format: 'cardflow' as const },
      deliveryWindowMs: 10 * 60_000,
      store: await openFileUndeliveredStore(deps.dataDir),
    },
  };
}

/**
 * Bench (a)'s cardflow with the sandbox and the webhook receiver each in a process of its own
 * (tools/bench/service-process.ts), so CPU per onboarding splits by process: the sandbox is the
 * provider's cost, not cardflow's; the receiver is cardflow's, apart from the worker's threads. The
 * worker stays in the bench process, where its threads are read from /proc (tools/bench/cpu.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { WorkflowBundle } from '@temporalio/worker';
import type { ActivityDeps } from '../../activities';
import { createProviderClient } from '../../provider/client';
import { providerConfig } from '../../provider/config';
import { readConfiguration } from '../../platform/config/schema';
import type { SandboxDelays } from '../sandbox/contract';
import { createFileRouteStore, type RouteStore } from '../../platform/storage/route-store';
import { createWorker } from '../../workers/create-worker';
import type { CardflowWorker } from '../../workers/cardflow-worker';
import type { BenchTemporal } from './cluster';
import { markNewThreads, type ProcessIds } from './cpu';
import type { ServiceCommand, ServiceMessage } from './service-process';
import { type DeliveriesSeen, noDeliveries } from './delivery-latency';

/** A service process: its pid, what it said when ready, and how to talk to it. */
export interface Service {
  pid: number;
  url: string;
  env: Record<string, string>;
  ask(command: ServiceCommand): void;
  next(type: ServiceMessage['type']): Promise<ServiceMessage>;
  stop(): Promise<void>;
}

/** Forks a bench service process (tools/bench/service-process.ts) and waits until it is ready. */
export async function startService(args: string[], env: Record<string, string> = {}): Promise<Service> {
  const child: ChildProcess = fork(require.resolve('./service-process'), args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = (type: ServiceMessage['type']) =>
    new Promise<ServiceMessage>((resolve, reject) => {
      const onMessage = (message: ServiceMessage) => {
        if (message.type !== type) return;
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(message);
      };
      const onExit = (code: number | null) => reject(new Error(`bench service ${args[0]} exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await next('ready');
  if (ready.type !== 'ready') throw new Error('unreachable');
  return {
    pid: child.pid!,
    url: ready.url,
    env: ready.env,
    ask: (command) => child.send(command),
    next,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'stop' } satisfies ServiceCommand);
      }),
  };
}

export interface ApartContext {
  taskQueue: string;
  worker: CardflowWorker;
  activityDeps: ActivityDeps;
  /** The phase's routes, which the worker records and the receiver reads. */
  routes: RouteStore;
  /** The processes tools/bench/cpu.ts reads apart from this one. */
  pids: ProcessIds;
  /**
   * What the receiver did since the last call: its deliveries' outcomes, the signalled ones'
   * latencies.
   */
  deliveries(): Promise<DeliveriesSeen>;
}

/**
 * Runs `fn` against a fresh sandbox process, receiver process and cardflow worker (in this
 * process) on a task queue of its own. `beforeWorker` runs first, so a worker it creates is
 * among the workflow threads too.
 */
export async function withCardflowApart<T>(
  env: BenchTemporal,
  bundle: WorkflowBundle,
  delays: Partial<SandboxDelays>,
  fn: (ctx: ApartContext) => Promise<T>,
): Promise<T> {
  const sandbox = await startService(['sandbox', JSON.stringify(delays)]);
  let receiver: Service | undefined;
  const provider = createProviderClient(providerConfig(readConfiguration(sandbox.env)));
  // The phase's own route file, which the worker records in and the receiver reads: not the
  // checkout's, which earlier runs made long (a receiver reads it whole at its first lookup).
  const routeDir = mkdtempSync(path.join(tmpdir(), 'cardflow-bench-routes-'));
  try {
    const taskQueue = `bench-${randomUUID().slice(0, 8)}`;
    receiver = await startService(['receiver', env.address, taskQueue], {
      ...env.clientEnv,
      CARDFLOW_PLATFORM_PUBLIC_KEY: sandbox.env.CARDFLOW_PLATFORM_PUBLIC_KEY ?? '',
      CARDFLOW_ROUTE_DIR: routeDir,
    });
    sandbox.ask({ type: 'webhook-url', url: receiver.url });
    const routes = createFileRouteStore({ dir: routeDir });
    const activityDeps = {
      provider,
      merchantPrivateKey: providerConfig(readConfiguration(sandbox.env)).merchantPrivateKey,
      routes,
    };
    // The worker's workflow thread is the thread its creation starts (tools/bench/cpu.ts).
    const worker = await markNewThreads(() =>
      createWorker({ connection: env.nativeConnection, taskQueue, activityDeps, workflowBundle: bundle }),
    );
    const service = receiver;
    return await worker.runUntil(() =>
      fn({
        taskQueue,
        worker,
        activityDeps,
        routes,
        pids: { sandbox: sandbox.pid, receiver: service.pid },
        deliveries: async () => {
          service.ask({ type: 'deliveries' });
          const answer = await service.next('deliveries');
          return answer.type === 'deliveries' ? answer.seen : noDeliveries();
        },
      }),
    );
  } finally {
    await receiver?.stop();
    await sandbox.stop();
    await provider.close();
    rmSync(routeDir, { recursive: true, force: true });
  }
}

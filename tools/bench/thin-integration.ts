/**
 * Bench (a)'s thin integration, what a team would build on Temporal instead of cardflow: its
 * worker (the SDK's `Worker`, default options and data converter) and its receiver in the bench
 * process, as one small service runs them, against a sandbox process of its own with the same
 * delays as cardflow's (so neither side's webhooks reach the other's receiver). Its CPU is read as
 * cardflow's is (tools/bench/cpu.ts): the receiver's share lands in the main thread's.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import type { SandboxDelays } from '../sandbox/contract';
import type { BenchTemporal } from './cluster';
import { markNewThreads, type ProcessIds } from './cpu';
import { onboardingInput, withTimeout } from './harness';
import { startService } from './services';
import { derPublic, thinProvider } from './thin-provider';
import { thinActivities, type ThinRoutes } from './thin.activities';
import { startThinReceiver } from './thin-receiver';
import type { ThinOnboardingInput } from './thin.workflow';

export interface ThinIntegration {
  /** The sandbox process it calls, read apart as cardflow's is. */
  pids: ProcessIds;
  /** Runs `count` onboardings at once and waits for them; the first one's workflow id. */
  run(count: number): Promise<string>;
}

/** An onboarding's input as the bench makes cardflow's, the holder as the provider takes it. */
export function thinInput(): ThinOnboardingInput {
  const { cardTypeId, holder, initialDeposit } = onboardingInput('thin', 'bench', {});
  const { shape, ...fields } = holder as Record<string, string>;
  return {
    ref: randomUUID().replaceAll('-', ''),
    cardTypeId,
    holder: { cardHolderModel: shape!, ...fields },
    initialDeposit,
  };
}

/** Runs `fn` with a thin integration's worker, receiver and sandbox running. */
export async function withThinIntegration<T>(
  env: BenchTemporal,
  delays: Partial<SandboxDelays>,
  fn: (thin: ThinIntegration) => Promise<T>,
): Promise<T> {
  const sandbox = await startService(['sandbox', JSON.stringify(delays)]);
  const setting = (name: string) => {
    const value = sandbox.env[name];
    if (!value) throw new Error(`the bench sandbox gave no ${name}`);
    return value;
  };
  const provider = thinProvider({
    baseUrl: setting('CARDFLOW_PROVIDER_BASE_URL'),
    apiKey: setting('CARDFLOW_PROVIDER_API_KEY'),
    merchantPrivateKey: setting('CARDFLOW_MERCHANT_PRIVATE_KEY'),
    platformPublicKey: setting('CARDFLOW_PLATFORM_PUBLIC_KEY'),
  });
  const client = new Client({ connection: env.nativeConnection, namespace: env.client.options.namespace });
  const routes: ThinRoutes = new Map();
  const taskQueue = `bench-thin-${randomUUID().slice(0, 8)}`;
  const receiver = await startThinReceiver({
    platformKey: derPublic(setting('CARDFLOW_PLATFORM_PUBLIC_KEY')),
    client,
    routes,
    taskQueue,
  });
  try {
    sandbox.ask({ type: 'webhook-url', url: receiver.url });
    const workflowBundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('./thin.workflow'),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
    });
    const worker = await markNewThreads(() =>
      Worker.create({
        connection: env.nativeConnection,
        namespace: env.client.options.namespace,
        taskQueue,
        workflowBundle,
        activities: thinActivities(provider, client, routes),
      }),
    );
    const run = async (count: number) => {
      const handles = await Promise.all(
        Array.from({ length: count }, () =>
          env.client.workflow.start('thinOnboarding', {
            taskQueue,
            workflowId: `thin-${randomUUID()}`,
            args: [thinInput()],
          }),
        ),
      );
      await withTimeout(Promise.all(handles.map((h) => h.result())), `${count} thin onboardings`);
      return handles[0]!.workflowId;
    };
    return await worker.runUntil(() => fn({ pids: { sandbox: sandbox.pid }, run }));
  } finally {
    await receiver.stop();
    await sandbox.stop();
    await provider.close();
  }
}

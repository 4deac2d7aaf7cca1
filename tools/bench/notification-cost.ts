/**
 * (n) Notifications to the merchant's backend: how many a worker delivers per second, and the
 * Temporal actions each one costs. A burst of BENCH_NOTIFY_CARDS cards x BENCH_NOTIFY_PER_CARD
 * authorizations (default 100 x 10, the 1,000 authorizations of the target) is emitted by one
 * workflow per card through the workflows' Notifier to a loopback HTTP backend that answers 200;
 * the backend checks that each card's events arrived in the order they were emitted. Run twice:
 * emitted at once (they batch behind the delivery in flight) and one by one (each waits for the
 * one before: one delivery activity per notification, the worst case). Then the happy onboarding's
 * actions with notifications off and on.
 */
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createProviderClient } from '../../provider/client';
import { onboardingWorkflowId } from '../../domain/workflow-ids';
import { TEST_SLOW_WAIT, TEST_WAIT } from '../../domain/wait-profile';
import { startSandbox, ZERO_DELAYS } from '../sandbox/index';
import { startNotificationBackend } from '../../test/support/notification-backend';
import { startWebhookReceiver } from '../../webhooks/receiver';
import { createFileRouteStore } from '../../platform/storage/route-store';
import { createWorker } from '../../workers/create-worker';
import type { BenchTemporal } from './cluster';
import { collectHistories, countActions } from './actions';
import { notifyingActivityDeps, num, runOnboardings, say, withTimeout } from './harness';
import type { ActivityDeps } from '../../activities/deps';

const CARDS = num('BENCH_NOTIFY_CARDS', 100);
const PER_CARD = num('BENCH_NOTIFY_PER_CARD', 10);
const SECRET = 'bench-notify-secret-0123456789abcdef0123456';

/**
 * The happy onboarding's actions with notifications on and off, on workers alike but for the URL.
 */
async function onboardingWithAndWithout(
  env: BenchTemporal,
  cardflowBundle: WorkflowBundle,
  activityDeps: ActivityDeps & { notifications: NonNullable<ActivityDeps['notifications']> },
): Promise<void> {
  const wait = { cardOperation: TEST_WAIT, review: TEST_SLOW_WAIT };
  for (const on of [false, true]) {
    const onboardingQueue = `bench-notify-onb-${randomUUID().slice(0, 8)}`;
    const { notifications, ...withoutNotifications } = activityDeps;
    const cardflow = await createWorker({
      connection: env.nativeConnection,
      taskQueue: onboardingQueue,
      activityDeps: on ? { ...withoutNotifications, notifications } : withoutNotifications,
      workflowBundle: cardflowBundle,
    });
    await cardflow.runUntil(async () => {
      const [ref] = await runOnboardings(env.client, onboardingQueue, 1, 'notify', wait);
      const count = countActions(await collectHistories(env.client, onboardingWorkflowId(ref!)));
      say(
        `  happy onboarding, notifications ${on ? 'on ' : 'off'}: ${count.actions} actions (${Object.entries(
          count.byKind,
        )
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')})${on ? '; 2 notifications: stage cardholder_review, completed' : ''}`,
      );
    });
  }
}

export async function notificationCost(env: BenchTemporal, cardflowBundle: WorkflowBundle): Promise<void> {
  say(
    `\n(n) notifications: ${CARDS} cards x ${PER_CARD} authorizations each, one workflow per card, loopback backend answering 200`,
  );
  const backend = await startNotificationBackend();
  const storeDir = mkdtempSync(path.join(tmpdir(), 'cardflow-bench-notify-'));
  const sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'real', seed: Math.floor(Math.random() * 2 ** 31) });
  const provider = createProviderClient(sandbox.clientConfig());
  // The phase's own routes, which its workers record and its receiver reads.
  const routes = createFileRouteStore({ dir: path.join(storeDir, 'routes') });
  const receiver = await startWebhookReceiver({
    platformPublicKey: sandbox.keys.platform.publicKey,
    client: env.client,
    routes,
    dataDir: storeDir,
  });
  sandbox.setWebhookUrl(receiver.url);
  const activityDeps = await notifyingActivityDeps({
    sandbox,
    provider,
    routes,
    backendUrl: backend.url,
    secret: SECRET,
    dataDir: storeDir,
  });
  try {
    const bundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('./notify.workflow'),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
    });
    const taskQueue = `bench-notify-${randomUUID().slice(0, 8)}`;
    const worker = await createWorker({
      connection: env.nativeConnection,
      taskQueue,
      activityDeps,
      workflowBundle: bundle,
    });
    await worker.runUntil(async () => {
      for (const burst of [true, false]) {
        const before = backend.received.length;
        const t0 = performance.now();
        const ids = await withTimeout(
          Promise.all(
            Array.from({ length: CARDS }, async (_, card) => {
              const workflowId = `bench-card-${randomUUID().slice(0, 8)}`;
              await env.client.workflow.execute('notifyAuthorizations', {
                taskQueue,
                workflowId,
                args: [{ cardNo: String(1_900_000_000_000_000_000n + BigInt(card)), count: PER_CARD, burst }],
              });
              return workflowId;
            }),
          ),
          'notification burst',
        );
        const seconds = (performance.now() - t0) / 1000;
        const received = backend.received.slice(before);
        // Per card: the events' sequence numbers (the last part of their ids) arrive increasing.
        const inOrder = ids.every((workflowId) => {
          const seqs = received
            .filter((r) => r.body.includes(workflowId))
            .map((r) => Number(/"id":"evt_[0-9a-f]+_(\d+)"/.exec(r.body)?.[1]));
          return seqs.length === PER_CARD && seqs.every((s, i) => i === 0 || s > seqs[i - 1]!);
        });
        let deliveries = 0;
        let actions = 0;
        for (const workflowId of ids) {
          const [history] = await collectHistories(env.client, workflowId);
          const count = countActions([history!]);
          actions += count.actions;
          deliveries += history!.events.filter(
            (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverNotifications',
          ).length;
        }
        const total = CARDS * PER_CARD;
        // Each workflow's own start and its plan activity are not the notifications' cost.
        const perNotification = (actions - 2 * CARDS) / total;
        say(
          `  ${burst ? 'emitted at once' : 'one by one     '}: ${total} notifications in ${seconds.toFixed(1)} s = ${(total / seconds).toFixed(0)}/s; ` +
            `${deliveries} delivery activities; ${perNotification.toFixed(2)} Temporal actions per notification; ` +
            `per-card order ${inOrder ? 'kept' : 'BROKEN'}; ${received.length} requests (${received.length - total} redelivered)`,
        );
      }
    });

    await onboardingWithAndWithout(env, cardflowBundle, activityDeps);
  } finally {
    await receiver.stop();
    await backend.close();
    await sandbox.stop();
    await provider.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
}

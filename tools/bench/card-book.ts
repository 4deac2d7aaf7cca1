/**
 * Bench (k): the card book, in one run on one dev server, each rate beside a no-op ceiling doing
 * the same Temporal actions (ceiling.workflow.ts, counted from the card workflows' histories):
 * card workflows started per second by a client and by a card's first webhook; authorizations per
 * second from the provider's signed webhook through the real receiver to a notification the
 * backend verified, with per-card order, actions per notification and the receiver's latency; and
 * the per-card figures of docs/card-life.md's 1,000,000-card projection. Cards are made in the
 * sandbox with webhooks off, so only the measured events reach the receiver.
 */
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { CardflowActivities } from '../../activities';
import { createProviderClient } from '../../provider/client';
import { createFileRouteStore } from '../../platform/storage/route-store';
import { startNotificationBackend } from '../../test/support/notification-backend';
import { createCardEntityDelivery } from '../../webhooks/card-route';
import { startWebhookReceiver } from '../../webhooks/receiver';
import { createWorker } from '../../workers/create-worker';
import { startSandbox, ZERO_DELAYS } from '../sandbox/index';
import { baselineActivities } from './baseline.activities';
import { markNewThreads } from './cpu';
import type { BenchTemporal } from './cluster';
import { countDelivery, noDeliveries } from './delivery-latency';
import { notifyingActivityDeps, say } from './harness';
import { authorizations } from './card-book-authorizations';
import { AUTHS_PER_CARD, AUTH_CARDS, type Book, CARDS, SECRET, notesOf } from './card-book-kit';
import { deliveryLogOf, project } from './card-book-projection';
import { cardStarts } from './card-book-starts';

export async function cardBook(env: BenchTemporal, cardflowBundle: WorkflowBundle): Promise<void> {
  // The burst goes to cards the client path started: more would silently run with fewer.
  if (AUTH_CARDS > CARDS)
    throw new Error(
      `BENCH_CARD_BOOK_AUTH_CARDS (${AUTH_CARDS}) must be at most BENCH_CARD_BOOK_CARDS (${CARDS}): ` +
        'the authorizations go to cards the client path started',
    );
  say(
    `\n(k) the card book: ${CARDS} card starts per path, ${AUTH_CARDS} cards x ${AUTHS_PER_CARD} authorizations, beside no-op ceilings on the same server`,
  );
  const backend = await startNotificationBackend();
  backend.verifyWith([SECRET]);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cardflow-bench-book-'));
  const sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'real', seed: Math.floor(Math.random() * 2 ** 31) });
  const provider = createProviderClient(sandbox.clientConfig());
  const routes = createFileRouteStore({ dir: path.join(dataDir, 'routes') });
  const taskQueue = `bench-book-${randomUUID().slice(0, 8)}`;
  const ceilingQueue = `bench-ceiling-${randomUUID().slice(0, 8)}`;
  let seen = noDeliveries();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const receiver = await startWebhookReceiver({
    platformPublicKey: sandbox.keys.platform.publicKey,
    client: env.client,
    routes,
    dataDir,
    cardEntities: createCardEntityDelivery(env.client, { taskQueue }),
    onHandled: (handled) => countDelivery(seen, handled),
  });
  const calls: Record<string, number> = {};
  const handle = sandbox.engine.handle.bind(sandbox.engine);
  sandbox.engine.handle = (...args) => {
    calls[args[0]] = (calls[args[0]] ?? 0) + 1;
    return handle(...args);
  };
  const activityDeps = await notifyingActivityDeps({
    sandbox,
    provider,
    routes,
    backendUrl: backend.url,
    secret: SECRET,
    dataDir,
  });
  try {
    // Its workflow threads are told apart in the CPU figures (the ceiling's are other threads).
    const cardflow = await markNewThreads(() =>
      createWorker({ connection: env.nativeConnection, taskQueue, activityDeps, workflowBundle: cardflowBundle }),
    );
    const ceiling = await createWorker({
      connection: env.nativeConnection,
      taskQueue: ceilingQueue,
      activityDeps,
      workflowBundle: await bundleWorkflowCode({
        workflowsPath: require.resolve('./ceiling.workflow'),
        logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
      }),
      activityOverrides: baselineActivities(
        new Client({ connection: env.nativeConnection, namespace: env.client.options.namespace }),
        routes,
      ) as unknown as Partial<CardflowActivities>,
    });
    const book: Book = {
      client: env.client,
      sandbox,
      taskQueue,
      ceilingQueue,
      receiverUrl: receiver.url,
      backend,
      notified: notesOf(backend),
      calls: () => ({ ...calls }),
      take: () => {
        const was = {
          seen,
          loopDelayMs: { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6 },
        };
        seen = noDeliveries();
        loopDelay.reset();
        return was;
      },
    };
    await cardflow.runUntil(() =>
      ceiling.runUntil(async () => {
        const issued = await cardStarts(book);
        const quiet = await authorizations(book, issued);
        project(issued, quiet, deliveryLogOf(dataDir));
      }),
    );
  } finally {
    loopDelay.disable();
    await receiver.stop();
    await backend.close();
    await sandbox.stop();
    await provider.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Bench (k): the card book, in one run on one dev server, each rate beside a no-op ceiling doing
 * the same Temporal actions (ceiling.workflow.ts, counted from the card workflows' histories):
 * card workflows started per second by a client and by a card's first webhook; authorizations per
 * second from the provider's signed webhook through the real receiver to a notification the
 * backend verified, with per-card order, actions per notification and the receiver's latency; and
 * the per-card figures of docs/card-life.md's 1,000,000-card projection. Cards are made in the
 * sandbox with webhooks off, so only the measured events reach the receiver.
 */
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { cardEntityStartOptions } from '../../client/card-entity';
import type { CardflowActivities } from '../../activities';
import { cardEntityWorkflow } from '../../domain/workflows';
import { NotificationTypes } from '../../domain/notifications';
import { createProviderClient } from '../../provider/client';
import { openFileUndeliveredStore } from '../../platform/notifications/store';
import { createFileRouteStore } from '../../platform/storage/route-store';
import { startNotificationBackend } from '../../test/support/notification-backend';
import { createCardEntityDelivery } from '../../webhooks/card-route';
import { startWebhookReceiver } from '../../webhooks/receiver';
import { DEFAULT_RETENTION_MS, DELIVERY_LOG } from '../../webhooks/store';
import { DEFAULT_MAX_HISTORY_EVENTS } from '../../workflows/card-entity';
import { createWorker } from '../../workers/create-worker';
import { CARD_TYPE_IDS } from '../sandbox/data/card-types';
import { startSandbox, ZERO_DELAYS, type RunningSandbox } from '../sandbox/index';
import { collectHistories, countActions, metricDelta, type ExecutionHistory } from './actions';
import { baselineActivities } from './baseline.activities';
import { ceilingSignal } from './ceiling.workflow';
import { cpuDelta, cpuNow, type CpuSample, formatCpu, markNewThreads } from './cpu';
import type { BenchTemporal } from './cluster';
import { countDelivery, noDeliveries, type DeliveriesSeen } from './delivery-latency';
import { actionMetric, num, PHASE_TIMEOUT_MS, say, withTimeout } from './harness';
import { orderViolations, percentile } from './stats';

const CARDS = num('BENCH_CARD_BOOK_CARDS', 200);
const AUTH_CARDS = num('BENCH_CARD_BOOK_AUTH_CARDS', 50);
const AUTHS_PER_CARD = num('BENCH_CARD_BOOK_AUTHS_PER_CARD', 10);
/** Authorizations sent one at a time (each once the one before was notified) to a few cards. */
const QUIET_AUTHS = num('BENCH_CARD_BOOK_QUIET_AUTHS', 3);
const QUIET_CARDS = 5;
/** The paced pass's rate, as a share of the burst's measured rate. */
const PACED_SHARE = num('BENCH_CARD_BOOK_PACED_SHARE', 1);
/** Cards whose histories are counted for a path's shape. */
const SAMPLE = 20;
const SECRET = 'bench-card-book-secret-0123456789abcdef012';
const TARGET_SHARE = 0.7;
/** Events an authorization brings in a card's life: its hold and its settlement. */
const EVENTS_PER_LIFE_AUTHORIZATION = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sandbox and the parts of cardflow the phase runs in this process. */
interface Book {
  client: Client;
  sandbox: RunningSandbox;
  taskQueue: string;
  ceilingQueue: string;
  receiverUrl: string;
  backend: Awaited<ReturnType<typeof startNotificationBackend>>;
  /** The notifications the backend verified and took, per card, in arrival order. */
  notified(): Map<string, Note[]>;
  /** The provider calls the sandbox has answered so far, by operation. */
  calls(): Record<string, number>;
  /** What the receiver handled since the last `take`, and the event loop's delay meanwhile. */
  take(): Receipts;
}

export async function cardBook(env: BenchTemporal, cardflowBundle: WorkflowBundle): Promise<void> {
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
  const activityDeps = {
    provider,
    merchantPrivateKey: sandbox.keys.merchant.privateKey,
    routes,
    notifications: {
      target: { url: backend.url, secrets: [SECRET], format: 'cardflow' as const },
      deliveryWindowMs: 10 * 60_000,
      store: await openFileUndeliveredStore(dataDir),
    },
  };
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

interface Receipts {
  seen: DeliveriesSeen;
  loopDelayMs: { p50: number; p99: number };
}

/** A notification the backend took, as much of it as the figures need. */
interface Note {
  type: string;
  tradeNo?: string;
}

/**
 * The backend's verified notifications (it answers 200 only to those its secret verifies), per
 * card; read as they arrive, so polling them costs each body one parse.
 */
function notesOf(backend: Book['backend']): () => Map<string, Note[]> {
  const perCard = new Map<string, Note[]>();
  let seen = 0;
  return () => {
    for (; seen < backend.received.length; seen++) {
      const r = backend.received[seen]!;
      if (r.status !== 200) continue;
      const { type, data } = JSON.parse(r.body) as { type: string; data: { cardNo?: string; tradeNo?: string } };
      if (!data.cardNo) continue;
      const note: Note = data.tradeNo ? { type, tradeNo: data.tradeNo } : { type };
      perCard.set(data.cardNo, [...(perCard.get(data.cardNo) ?? []), note]);
    }
    return perCard;
  };
}

/** Whether every card of `cardNos` was told `type` (and as many of it as `count`). */
const toldAll =
  (book: Book, cardNos: readonly string[], type: string, count = 1) =>
  () => {
    const notified = book.notified();
    return cardNos.every((c) => (notified.get(c) ?? []).filter((n) => n.type === type).length >= count);
  };

/** Gift cards made in the sandbox with a balance, their events unsent (webhooks off meanwhile). */
function makeCards(sandbox: RunningSandbox, count: number): string[] {
  sandbox.setWebhookUrl(null);
  help(sandbox, 'creditMerchantWallet', { amount: String(count * 60) });
  return Array.from(
    { length: count },
    () =>
      (
        sandbox.engine.handle('createCard', {
          merchantOrderNo: `K${randomUUID().replace(/-/g, '')}`.slice(0, 32),
          cardTypeId: CARD_TYPE_IDS.gift,
          amount: '50',
        }) as { cardNo: string }
      ).cardNo,
  );
}

/** Cards made, once the sandbox has finished their creation (its steps run on timers of 0 ms). */
async function madeCards(sandbox: RunningSandbox, count: number): Promise<string[]> {
  const cardNos = makeCards(sandbox, count);
  await sleep(500);
  return cardNos;
}

/** One of the sandbox's test helpers (its README's `POST /sandbox/<name>`), called in process. */
function help(sandbox: RunningSandbox, name: string, body: Record<string, unknown>): unknown {
  const helper = sandbox.engine.helpers[name];
  if (!helper) throw new Error(`the sandbox has no helper ${name}`);
  return helper(body);
}

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: over ${PHASE_TIMEOUT_MS / 1000} s`);
    await sleep(20);
  }
}

const rate = (count: number, ms: number) => count / (ms / 1000);
const historyBytes = (events: ExecutionHistory['events']) =>
  temporal.api.history.v1.History.encode({ events }).finish().length;
const cardHistories = (client: Client, cardNos: readonly string[]) =>
  Promise.all(cardNos.map((c) => collectHistories(client, cardEntityWorkflow.id(c)).then((h) => h[0]!)));

/** A path's actions per card, by kind, from the histories of a sample of its cards. */
function shapeOf(histories: ExecutionHistory[]) {
  const counted = countActions(histories);
  const per = (n: number) => n / histories.length;
  const kind = (k: string) => per(counted.byKind[k] ?? 0);
  return {
    actions: per(counted.actions),
    events: per(counted.events),
    bytes: per(histories.reduce((n, h) => n + historyBytes(h.events), 0)),
    upserts: Math.round(kind('search attribute upserts')),
    activities: Math.round(kind('activity attempts')),
    signals: Math.round(kind('signals')),
    timers: kind('timers'),
    described: Object.entries(counted.byKind)
      .map(([k, v]) => `${k} ${per(v).toFixed(1)}`)
      .join(', '),
  };
}
type Shape = ReturnType<typeof shapeOf>;

/** `count` no-op card starts with `shape`'s actions; starts per second until all ended. */
async function ceilingStarts(book: Book, shape: Shape, count: number, withStart: boolean): Promise<number> {
  await ceilingStartsOnce(book, shape, Math.min(5, count), withStart);
  return ceilingStartsOnce(book, shape, count, withStart);
}

async function ceilingStartsOnce(book: Book, shape: Shape, count: number, withStart: boolean): Promise<number> {
  const input = { upserts: shape.upserts, activities: shape.activities, signals: shape.signals };
  const t0 = performance.now();
  const handles = await Promise.all(
    Array.from({ length: count }, async () => {
      const options = {
        taskQueue: book.ceilingQueue,
        workflowId: `ceiling-${randomUUID()}`,
        args: [input] as [typeof input],
      };
      if (withStart && shape.signals > 0) {
        const h = await book.client.workflow.signalWithStart('ceilingCardStart', {
          ...options,
          signal: ceilingSignal,
          signalArgs: [0],
        });
        for (let s = 1; s < shape.signals; s++) await h.signal(ceilingSignal, s);
        return h;
      }
      const h = await book.client.workflow.start('ceilingCardStart', options);
      for (let s = 0; s < shape.signals; s++) await h.signal(ceilingSignal, s);
      return h;
    }),
  );
  await withTimeout(Promise.all(handles.map((h) => h.result())), `${count} ceiling card starts`);
  return rate(count, performance.now() - t0);
}

/** The provider calls per card made since `before`, by operation. */
function callsPerCard(book: Book, before: Record<string, number>, cards: number): string {
  const entries = Object.entries(metricDelta(before, book.calls()));
  const total = entries.reduce((n, [, v]) => n + v, 0) / cards;
  return `${total.toFixed(1)} provider calls (${entries.map(([k, v]) => `${k} ${(v / cards).toFixed(1)}`).join(', ')})`;
}

function sayStarts(
  path: string,
  told: string,
  cards: number,
  ms: number,
  shape: Shape & { calls: string },
  ceiling: number,
): void {
  const r = rate(cards, ms);
  say(
    `  ${path}: ${r.toFixed(1)} card starts/s (${cards} in ${(ms / 1000).toFixed(1)} s, until each had told ${told}); ` +
      `ceiling ${ceiling.toFixed(1)}/s, ${((100 * r) / ceiling).toFixed(0)}% of it (target >= ${TARGET_SHARE * 100}%; ` +
      `bench (g) before: 7.4/s, one batch of 50 at a time)`,
  );
  say(
    `    a start, from ${SAMPLE} histories: ${shape.actions.toFixed(1)} actions (${shape.described}), ${shape.events.toFixed(0)} events, ` +
      `${shape.bytes.toFixed(0)} history bytes, ${shape.calls}; the ceiling did ${shape.upserts} upserts, ${shape.activities} no-op activities, ${shape.signals} signals`,
  );
}

/** Client-started and webhook-started cards, each beside its ceiling; returns the client's. */
async function cardStarts(book: Book): Promise<{ cardNos: string[]; shape: Shape }> {
  const { client, sandbox } = book;
  // Cards cardflow's client starts (as cardIssuance's starter and the CLI's first Update do).
  const issued = await madeCards(sandbox, CARDS);
  let callsBefore = book.calls();
  let t0 = performance.now();
  await Promise.all(
    issued.map((cardNo) =>
      client.workflow.start(cardEntityWorkflow.type, cardEntityStartOptions({ cardNo }, book.taskQueue)),
    ),
  );
  await until('client-started cards', toldAll(book, issued, NotificationTypes.cardIssued));
  const issuedMs = performance.now() - t0;
  await sleep(1000);
  const issuedShape = {
    ...shapeOf(await cardHistories(client, issued.slice(0, SAMPLE))),
    calls: callsPerCard(book, callsBefore, CARDS),
  };
  const issuedCeiling = await ceilingStarts(book, issuedShape, CARDS, false);
  sayStarts('cards started by the client', 'card.issued', CARDS, issuedMs, issuedShape, issuedCeiling);

  // Cards first seen by a webhook: an authorization on a card nobody follows.
  const seenCards = await madeCards(sandbox, CARDS);
  sandbox.setWebhookUrl(book.receiverUrl);
  book.take();
  callsBefore = book.calls();
  t0 = performance.now();
  for (const cardNo of seenCards)
    help(sandbox, 'authorizeCard', { cardNo, type: 'auth', amount: '1.00', settle: false });
  await until('webhook-started cards', () =>
    [NotificationTypes.cardIssued, NotificationTypes.cardTransaction].every((t) => toldAll(book, seenCards, t)()),
  );
  const seenMs = performance.now() - t0;
  await sleep(1000);
  const seenShape = {
    ...shapeOf(await cardHistories(client, seenCards.slice(0, SAMPLE))),
    calls: callsPerCard(book, callsBefore, CARDS),
  };
  const seenCeiling = await ceilingStarts(book, seenShape, CARDS, true);
  sayStarts(
    'cards first seen by a webhook',
    'card.issued and its authorization',
    CARDS,
    seenMs,
    seenShape,
    seenCeiling,
  );
  const receipts = book.take();
  say(`    the receiver meanwhile: ${describeReceipts(receipts)}`);
  return { cardNos: issued, shape: issuedShape };
}

/**
 * The receiver's latencies, and where they go: reading and verifying, the signal's round trip to
 * Temporal, the delivery log's write and sync; and this process's event-loop delay meanwhile
 * (the phase runs the receiver beside the worker, the sandbox and the backend).
 */
function describeReceipts({ seen, loopDelayMs }: Receipts): string {
  const figures = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms`;
  const l = seen.latencies;
  return (
    `${l.length} signalled (${Object.entries(seen.outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}); to acknowledgement ${figures(l.map((x) => x.acknowledged))} (target p99 <= 200); ` +
    `of which read and verified ${figures(l.map((x) => x.verified))}, verified to signalled ${figures(l.map((x) => x.signalled - x.verified))}, ` +
    `signalled to acknowledged (delivery log) ${figures(l.map((x) => x.acknowledged - x.signalled))}; ` +
    `the process's event-loop delay p50 ${loopDelayMs.p50.toFixed(1)} ms, p99 ${loopDelayMs.p99.toFixed(1)} ms`
  );
}

/** The tradeNos of the authorizations a card's history received by signal, in that order. */
function signalledTradeNos(history: ExecutionHistory): string[] {
  return history.events.flatMap((e) => {
    const payload = e.workflowExecutionSignaledEventAttributes?.input?.payloads?.[0]?.data;
    if (!payload) return [];
    const m = /"tradeNo":"?(\d+)/.exec(Buffer.from(payload).toString('utf8'));
    return m ? [m[1]!] : [];
  });
}

/** The authorizations told for `cards`, per card, in arrival order. */
function notifiedPerCard(book: Book, cards: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [cardNo, notes] of book.notified())
    if (cards.has(cardNo))
      out.set(
        cardNo,
        notes.flatMap((n) => (n.type === NotificationTypes.cardTransaction && n.tradeNo ? [n.tradeNo] : [])),
      );
  return out;
}

interface Quiet {
  actionsPerAuthorization: number;
  eventsPerAuthorization: number;
  bytesPerAuthorization: number;
  described: string;
}

/** The burst of authorizations beside its ceiling; then a few one at a time, for their cost. */
async function authorizations(book: Book, issued: { cardNos: string[] }): Promise<Quiet> {
  const { client, sandbox } = book;
  const cards = issued.cardNos.slice(0, AUTH_CARDS);
  const cardSet = new Set(cards);
  const total = cards.length * AUTHS_PER_CARD;
  say(
    `  authorizations: ${cards.length} cards x ${AUTHS_PER_CARD}, signed webhooks -> receiver -> card workflow -> notification verified by the backend`,
  );
  const before = await cardHistories(client, cards);
  const metricBefore = await actionMetric();
  book.take();
  const made = new Map<string, string[]>();
  const cpuBefore = cpuNow();
  const t0 = performance.now();
  for (let i = 0; i < AUTHS_PER_CARD; i++)
    for (const cardNo of cards) {
      const record = help(sandbox, 'authorizeCard', { cardNo, type: 'auth', amount: '1.00', settle: false }) as {
        tradeNo: string;
      };
      made.set(cardNo, [...(made.get(cardNo) ?? []), String(record.tradeNo)]);
    }
  const notifiedCount = () => [...notifiedPerCard(book, cardSet).values()].reduce((n, l) => n + l.length, 0);
  await until('authorization notifications', () => notifiedCount() >= total);
  const ms = performance.now() - t0;
  const cpu = cpuDelta(cpuBefore, cpuNow(), total);
  const receipts = book.take();
  await sleep(1000);
  const metric = metricDelta(metricBefore, await actionMetric());
  const after = await cardHistories(client, cards);
  const notified = notifiedPerCard(book, cardSet);
  let cardflowOrder = 0;
  let providerOrder = 0;
  let deliveries = 0;
  let actions = 0;
  const byKind: Record<string, number> = {};
  after.forEach((h, i) => {
    const cardNo = cards[i]!;
    const got = notified.get(cardNo) ?? [];
    cardflowOrder += orderViolations(got, signalledTradeNos(h));
    providerOrder += orderViolations(got, made.get(cardNo) ?? []);
    const delta = countActions([h]);
    const was = countActions([before[i]!]);
    actions += delta.actions - was.actions;
    for (const [k, v] of Object.entries(delta.byKind)) byKind[k] = (byKind[k] ?? 0) + v - (was.byKind[k] ?? 0);
    const deliveriesIn = (x: ExecutionHistory) =>
      x.events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverNotifications')
        .length;
    deliveries += deliveriesIn(h) - deliveriesIn(before[i]!);
  });
  const ceiling = await ceilingAuthorizationRate(book, cards.length);
  const r = rate(total, ms);
  say(
    `    ${r.toFixed(1)} authorizations/s notified and verified (${total} in ${(ms / 1000).toFixed(1)} s); ceiling ${ceiling.rate.toFixed(1)}/s ` +
      `(a signal each, a no-op activity per batch that arrived meanwhile: ${ceiling.actions.toFixed(2)} actions each), ${((100 * r) / ceiling.rate).toFixed(0)}% of it (target >= ${TARGET_SHARE * 100}%; bench (n) before: 55/s, notifications alone)`,
  );
  say(
    `    per-card order: ${cardflowOrder} violations against the order each card's workflow received them (target 0), ` +
      `${providerOrder} against the order the provider made them (the sandbox sends its webhooks concurrently)`,
  );
  say(
    `    actions, from histories: ${(actions / total).toFixed(2)} per authorization (${Object.entries(byKind)
      .filter(([, v]) => v)
      .map(([k, v]) => `${k} ${(v / total).toFixed(2)}`)
      .join(
        ', ',
      )}); the notification's own: ${deliveries} delivery activities, ${(deliveries / total).toFixed(2)} per notification (target <= 0.3)`,
  );
  say(
    `    the server's action metric over the burst: ${Object.entries(metric)
      .map(([k, v]) => `${k} ${(v / total).toFixed(2)}`)
      .join(', ')} per authorization`,
  );
  say(`    the receiver under that load: ${describeReceipts(receipts)}`);
  say(
    `    CPU per authorization: ${formatCpu(cpu)} (receiver, sandbox and backend in the main thread); the ceiling's: ${formatCpu(ceiling.cpu)}`,
  );
  await pacedAuthorizations(book, cards, r * PACED_SHARE);
  return quietAuthorizations(book, cards.slice(0, QUIET_CARDS));
}

/**
 * As many authorizations again, sent evenly at the burst's rate (times BENCH_CARD_BOOK_PACED_SHARE)
 * rather than at once, as a provider sends a steady flow: the receiver's latency at that
 * throughput, without the burst's queue.
 */
async function pacedAuthorizations(book: Book, cards: string[], perSecond: number): Promise<void> {
  const cardSet = new Set(cards);
  const count = () => [...notifiedPerCard(book, cardSet).values()].reduce((n, l) => n + l.length, 0);
  const already = count();
  const total = cards.length * AUTHS_PER_CARD;
  book.take();
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = t0 + (i * 1000) / perSecond - performance.now();
    if (wait > 0) await sleep(wait);
    help(book.sandbox, 'authorizeCard', {
      cardNo: cards[i % cards.length],
      type: 'auth',
      amount: '1.00',
      settle: false,
    });
  }
  await until('paced authorization notifications', () => count() >= already + total);
  const ms = performance.now() - t0;
  say(
    `    paced at ${(PACED_SHARE * 100).toFixed(0)}% of the burst's rate, ${perSecond.toFixed(1)}/s, ${total} authorizations: sent over ${(total / perSecond).toFixed(1)} s, all notified ` +
      `after ${(ms / 1000).toFixed(1)} s; the receiver: ${describeReceipts(book.take())}`,
  );
}

/** The no-op authorizations' rate, and their actions per authorization from their histories. */
async function ceilingAuthorizationRate(
  book: Book,
  cards: number,
): Promise<{ rate: number; actions: number; cpu: CpuSample | undefined }> {
  const handles = await Promise.all(
    Array.from({ length: cards }, () =>
      book.client.workflow.start('ceilingAuthorizations', {
        taskQueue: book.ceilingQueue,
        workflowId: `ceiling-auth-${randomUUID()}`,
        args: [{ count: AUTHS_PER_CARD }],
      }),
    ),
  );
  const cpuBefore = cpuNow();
  const t0 = performance.now();
  await Promise.all(
    handles.map(async (h) => {
      for (let i = 0; i < AUTHS_PER_CARD; i++) await h.signal(ceilingSignal, i);
    }),
  );
  await withTimeout(Promise.all(handles.map((h) => h.result())), `${cards} ceiling authorization workflows`);
  const r = rate(cards * AUTHS_PER_CARD, performance.now() - t0);
  const cpu = cpuDelta(cpuBefore, cpuNow(), cards * AUTHS_PER_CARD);
  const histories = await Promise.all(handles.map((h) => collectHistories(book.client, h.workflowId)));
  // Their own start is not an authorization's cost.
  return { rate: r, actions: (countActions(histories.flat()).actions - cards) / (cards * AUTHS_PER_CARD), cpu };
}

/** Authorizations one at a time, each once the one before was notified: what each costs alone. */
async function quietAuthorizations(book: Book, cards: string[]): Promise<Quiet> {
  const before = await cardHistories(book.client, cards);
  const cardSet = new Set(cards);
  for (const cardNo of cards)
    for (let i = 0; i < QUIET_AUTHS; i++) {
      const { tradeNo } = help(book.sandbox, 'authorizeCard', {
        cardNo,
        type: 'auth',
        amount: '1.00',
        settle: false,
      }) as { tradeNo: string };
      await until('a quiet authorization', () =>
        (notifiedPerCard(book, cardSet).get(cardNo) ?? []).includes(String(tradeNo)),
      );
    }
  await sleep(1000);
  const after = await cardHistories(book.client, cards);
  const n = cards.length * QUIET_AUTHS;
  const was = countActions(before);
  const now = countActions(after);
  const bytes = (hs: ExecutionHistory[]) => hs.reduce((s, h) => s + historyBytes(h.events), 0);
  const quiet: Quiet = {
    actionsPerAuthorization: (now.actions - was.actions) / n,
    eventsPerAuthorization: (now.events - was.events) / n,
    bytesPerAuthorization: (bytes(after) - bytes(before)) / n,
    described: Object.entries(now.byKind)
      .map(([k, v]) => [k, (v - (was.byKind[k] ?? 0)) / n] as const)
      .filter(([, v]) => v)
      .map(([k, v]) => `${k} ${v.toFixed(2)}`)
      .join(', '),
  };
  say(
    `  one at a time (${n} authorizations over ${cards.length} cards, each sent once the one before was notified): ` +
      `${quiet.actionsPerAuthorization.toFixed(2)} actions each (${quiet.described}), ${quiet.eventsPerAuthorization.toFixed(1)} history events, ${quiet.bytesPerAuthorization.toFixed(0)} history bytes`,
  );
  return quiet;
}

/** The delivery log's entries so far and their bytes (the file store's JSON lines). */
function deliveryLogOf(dataDir: string): { entries: number; bytes: number } {
  const file = path.join(dataDir, DELIVERY_LOG);
  if (!existsSync(file)) return { entries: 0, bytes: 0 };
  const text = readFileSync(file, 'utf8');
  return { entries: text.split('\n').filter(Boolean).length, bytes: Buffer.byteLength(text) };
}

/**
 * The per-card figures and what they make for 1,000,000 cards (docs/card-life.md's method): an
 * authorization in a card's life is two events (its hold and its settlement), each costing what one
 * sent alone cost here; a run continues as new past DEFAULT_MAX_HISTORY_EVENTS.
 */
function project(issued: { shape: Shape }, quiet: Quiet, deliveryLog: { entries: number; bytes: number }): void {
  const cards = 1_000_000;
  const { shape } = issued;
  const maxEvents = DEFAULT_MAX_HISTORY_EVENTS;
  const entryBytes = deliveryLog.bytes / Math.max(1, deliveryLog.entries);
  const retentionDays = DEFAULT_RETENTION_MS / 86_400_000;
  const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GiB`;
  say(`  per card, for the 1,000,000-card projection (docs/card-life.md):`);
  say(
    `    a parked card: ${shape.bytes.toFixed(0)} history bytes, ${shape.events.toFixed(0)} events, ${shape.timers.toFixed(1)} timers; ` +
      `1,000,000 parked: ${gib(shape.bytes * cards)} of history; an open run holds at most ${maxEvents} events, ` +
      `~${((maxEvents * quiet.bytesPerAuthorization) / quiet.eventsPerAuthorization / 1024).toFixed(0)} KiB at this size of event`,
  );
  say(
    `    delivery log: ${entryBytes.toFixed(0)} bytes of JSON per webhook (${deliveryLog.entries} entries in the file store; the PostgreSQL ` +
      `store's jsonb column holds the same entry), kept ${retentionDays} days`,
  );
  for (const a of [0, 10, 100]) {
    const events = a * EVENTS_PER_LIFE_AUTHORIZATION;
    // Each continue-as-new (history past maxEvents) is one start more.
    const perMonth = events * quiet.actionsPerAuthorization + (events * quiet.eventsPerAuthorization) / maxEvents;
    const bytes = events * quiet.bytesPerAuthorization;
    const logRows = (events * retentionDays) / 30;
    say(
      `    ${a} authorizations a month (${events} events): ${perMonth.toFixed(1)} actions per card per month, ` +
        `${((perMonth * cards) / 1e6).toFixed(1)} M for 1,000,000 cards; history +${(bytes / 1024).toFixed(1)} KiB per card per month; ` +
        `delivery log ${logRows.toFixed(1)} rows per card (${gib(logRows * entryBytes * cards)} of entries for 1,000,000 cards)`,
    );
  }
}

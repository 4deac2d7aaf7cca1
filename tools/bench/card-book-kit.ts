/**
 * Bench (k)'s shared parts: its sizes, the running parts it measures (`Book`), the sandbox's cards
 * and authorizations, and what it reads from histories, the backend and the receiver.
 */
import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { cardEntityWorkflow } from '../../domain/workflows';
import { NotificationTypes } from '../../domain/notifications';
import type { startNotificationBackend } from '../../test/support/notification-backend';
import { CARD_TYPE_IDS } from '../sandbox/data/card-types';
import type { RunningSandbox } from '../sandbox/index';
import { collectHistories, countActions, type ExecutionHistory } from './actions';
import type { DeliveriesSeen } from './delivery-latency';
import { num, PHASE_TIMEOUT_MS } from './harness';
import { percentile } from './stats';

export const CARDS = num('BENCH_CARD_BOOK_CARDS', 200);
export const AUTH_CARDS = num('BENCH_CARD_BOOK_AUTH_CARDS', 50);
export const AUTHS_PER_CARD = num('BENCH_CARD_BOOK_AUTHS_PER_CARD', 10);
/** Authorizations sent one at a time (each once the one before was notified) to a few cards. */
export const QUIET_AUTHS = num('BENCH_CARD_BOOK_QUIET_AUTHS', 3);
export const QUIET_CARDS = 5;
/** The paced pass's rate, as a share of the burst's measured rate. */
export const PACED_SHARE = num('BENCH_CARD_BOOK_PACED_SHARE', 1);
/** Cards whose histories are counted for a path's shape. */
export const SAMPLE = 20;
export const SECRET = 'bench-card-book-secret-0123456789abcdef012';
export const TARGET_SHARE = 0.7;
/** Events an authorization brings in a card's life: its hold and its settlement. */
export const EVENTS_PER_LIFE_AUTHORIZATION = 2;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sandbox and the parts of cardflow the phase runs in this process. */
export interface Book {
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
export function notesOf(backend: Book['backend']): () => Map<string, Note[]> {
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
export const toldAll =
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
export async function madeCards(sandbox: RunningSandbox, count: number): Promise<string[]> {
  const cardNos = makeCards(sandbox, count);
  await sleep(500);
  return cardNos;
}

/** One of the sandbox's test helpers (its README's `POST /sandbox/<name>`), called in process. */
export function help(sandbox: RunningSandbox, name: string, body: Record<string, unknown>): unknown {
  const helper = sandbox.engine.helpers[name];
  if (!helper) throw new Error(`the sandbox has no helper ${name}`);
  return helper(body);
}

export async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: over ${PHASE_TIMEOUT_MS / 1000} s`);
    await sleep(20);
  }
}

export const rate = (count: number, ms: number) => count / (ms / 1000);
export const historyBytes = (events: ExecutionHistory['events']) =>
  temporal.api.history.v1.History.encode({ events }).finish().length;
export const cardHistories = (client: Client, cardNos: readonly string[]) =>
  Promise.all(cardNos.map((c) => collectHistories(client, cardEntityWorkflow.id(c)).then((h) => h[0]!)));

/** A path's actions per card, by kind, from the histories of a sample of its cards. */
export function shapeOf(histories: ExecutionHistory[]) {
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
export type Shape = ReturnType<typeof shapeOf>;

/**
 * The receiver's latencies, and where they go: reading and verifying, the signal's round trip to
 * Temporal, the delivery log's write and sync; and this process's event-loop delay meanwhile
 * (the phase runs the receiver beside the worker, the sandbox and the backend).
 */
export function describeReceipts({ seen, loopDelayMs }: Receipts): string {
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

/** The authorizations told for `cards`, per card, in arrival order. */
export function notifiedPerCard(book: Book, cards: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [cardNo, notes] of book.notified())
    if (cards.has(cardNo))
      out.set(
        cardNo,
        notes.flatMap((n) => (n.type === NotificationTypes.cardTransaction && n.tradeNo ? [n.tradeNo] : [])),
      );
  return out;
}

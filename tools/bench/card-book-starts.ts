/**
 * Bench (k): card workflows started per second by a client and by a first webhook, each beside
 * its no-op ceiling doing the same actions.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { cardEntityStartOptions } from '../../client/card-entity';
import { cardEntityWorkflow } from '../../domain/workflows';
import { NotificationTypes } from '../../domain/notifications';
import { metricDelta } from './actions';
import { ceilingSignal } from './ceiling.workflow';
import { say, withTimeout } from './harness';
import {
  type Book,
  CARDS,
  SAMPLE,
  type Shape,
  TARGET_SHARE,
  cardHistories,
  shapeOf,
  describeReceipts,
  help,
  madeCards,
  rate,
  sleep,
  toldAll,
  until,
} from './card-book-kit';

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

/**
 * A path's start, once its cards have settled: actions and bytes from a sample of their histories,
 * and the provider calls per card since `callsBefore`.
 */
async function startShape(book: Book, cardNos: string[], callsBefore: Record<string, number>) {
  await sleep(1000);
  return {
    ...shapeOf(await cardHistories(book.client, cardNos.slice(0, SAMPLE))),
    calls: callsPerCard(book, callsBefore, CARDS),
  };
}

/** Client-started and webhook-started cards, each beside its ceiling; returns the client's. */
export async function cardStarts(book: Book): Promise<{ cardNos: string[]; shape: Shape }> {
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
  const issuedShape = await startShape(book, issued, callsBefore);
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
  const seenShape = await startShape(book, seenCards, callsBefore);
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

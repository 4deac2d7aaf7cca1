/**
 * Bench (k): authorizations per second from the signed webhook to a verified notification, beside
 * its ceiling, then paced, then one at a time for what each costs alone.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { collectHistories, countActions, metricDelta, type ExecutionHistory } from './actions';
import { ceilingSignal } from './ceiling.workflow';
import { cpuDelta, cpuNow, type CpuSample, formatCpu } from './cpu';
import { actionMetric, say, withTimeout } from './harness';
import { orderViolations } from './stats';
import {
  AUTHS_PER_CARD,
  AUTH_CARDS,
  type Book,
  PACED_SHARE,
  QUIET_AUTHS,
  QUIET_CARDS,
  TARGET_SHARE,
  cardHistories,
  describeReceipts,
  help,
  historyBytes,
  notifiedPerCard,
  rate,
  sleep,
  until,
} from './card-book-kit';

/** The tradeNos of the authorizations a card's history received by signal, in that order. */
function signalledTradeNos(history: ExecutionHistory): string[] {
  return history.events.flatMap((e) => {
    const payload = e.workflowExecutionSignaledEventAttributes?.input?.payloads?.[0]?.data;
    if (!payload) return [];
    const m = /"tradeNo":"?(\d+)/.exec(Buffer.from(payload).toString('utf8'));
    return m ? [m[1]!] : [];
  });
}

export interface Quiet {
  actionsPerAuthorization: number;
  eventsPerAuthorization: number;
  bytesPerAuthorization: number;
  described: string;
}

/** The burst of authorizations beside its ceiling; then a few one at a time, for their cost. */
export async function authorizations(book: Book, issued: { cardNos: string[] }): Promise<Quiet> {
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

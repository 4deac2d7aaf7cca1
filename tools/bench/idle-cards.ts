/**
 * Bench (g): what parked card workflows cost. BENCH_IDLE_CARDS cards (default 10,000) are made in
 * the sandbox and each gets its `cardEntity` (as cardIssuance or the card's first webhook starts
 * it); once every one has caught up and read its card, nothing happens to them. Printed: the
 * compiled worker process's RSS before and with them parked (its own process, from /proc; the
 * sandbox and the client stay in the bench process), the actions a card's start costs, and the
 * actions an idle card costs per month: those its history gains while it sits idle, scaled to 30
 * days, beside the 6-hourly re-read that runs from before the parked design paid.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { cardEntityStartOptions } from '../../client/card-entity';
import { cardEntityWorkflow } from '../../domain/workflows';
import { CARD_TYPE_IDS } from '../sandbox/data/card-types';
import { collectHistories, countActions } from './actions';
import { num, PHASE_TIMEOUT_MS, say } from './harness';
import { buildWorker, startProcessStack, startWorkerProcess, stopWorkerProcess } from './process-stack';
import { mib } from './stats';

const IDLE_CARDS = num('BENCH_IDLE_CARDS', 10_000);
/** How long the parked cards are watched for actions while idle (real seconds). */
const IDLE_WATCH_MS = num('BENCH_IDLE_WATCH_S', 60) * 1000;
const BATCH = 50;
const MONTH_MS = 30 * 24 * 60 * 60 * 1000;
/** What a parked card cost before: a timer and a card read every 6 hours. */
const OLD_REFRESH_MS = 6 * 60 * 60 * 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

export async function idleCards(env: TestWorkflowEnvironment): Promise<void> {
  say(`\n(g) ${IDLE_CARDS} idle cards, each with its parked cardEntity`);
  buildWorker();
  const stack = await startProcessStack(env.address, 'cardflow-bench-cards-');
  const { client, sandbox } = stack;
  const taskQueue = `bench-cards-${randomUUID().slice(0, 8)}`;
  let reads = 0;
  const handle = sandbox.engine.handle.bind(sandbox.engine);
  sandbox.engine.handle = (...args) => {
    // A card's entity has parked once it has read its card (after its catch-up).
    if (args[0] === 'getCardInfo') reads += 1;
    return handle(...args);
  };
  const worker = await startWorkerProcess({ ...stack.workerEnv, CARDFLOW_TASK_QUEUE: taskQueue });
  try {
    const idle = rssOf(worker.pid!);
    const deadline = Date.now() + PHASE_TIMEOUT_MS + IDLE_CARDS * 200;
    const cardNos: string[] = [];
    const t0 = performance.now();
    for (let i = 0; i < IDLE_CARDS && Date.now() < deadline; i += BATCH) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(BATCH, IDLE_CARDS - i) }, async () => {
          const made = sandbox.engine.handle('createCard', {
            merchantOrderNo: `B${randomUUID().replace(/-/g, '')}`.slice(0, 32),
            cardTypeId: CARD_TYPE_IDS.subscription,
            amount: '0',
          }) as { cardNo: string };
          await client.workflow.start(
            cardEntityWorkflow.type,
            cardEntityStartOptions({ cardNo: made.cardNo }, taskQueue),
          );
          return made.cardNo;
        }),
      );
      cardNos.push(...batch);
      // Cards arrive over days, not at once: the next batch once this one has parked.
      while (Date.now() < deadline && reads < cardNos.length) await sleep(100);
    }
    const parked = Math.min(reads, cardNos.length);
    const parkSeconds = (performance.now() - t0) / 1000;
    await sleep(5000);
    const withCards = rssOf(worker.pid!);
    const perCard = (withCards - idle) / Math.max(1, parked);
    say(
      `    parked ${parked} card workflows in ${parkSeconds.toFixed(0)} s; worker RSS ${mib(idle)} idle, ${mib(withCards)} with them parked (${(perCard / 1024).toFixed(1)} KiB per card)`,
    );
    if (parked < IDLE_CARDS)
      say(`    (only ${parked} of ${IDLE_CARDS} parked in time; 10,000 extrapolated: ${mib(idle + perCard * 10_000)})`);

    const sample = cardNos.slice(0, Math.min(20, cardNos.length));
    const before = await Promise.all(sample.map((c) => collectHistories(client, cardEntityWorkflow.id(c))));
    const started = countActions(before.flat());
    await sleep(IDLE_WATCH_MS);
    const after = await Promise.all(sample.map((c) => collectHistories(client, cardEntityWorkflow.id(c))));
    const idleActions = countActions(after.flat()).actions - started.actions;
    const perMonth = (idleActions / sample.length) * (MONTH_MS / IDLE_WATCH_MS);
    const timers = after.flat().reduce((n, h) => n + h.events.filter((e) => e.timerStartedEventAttributes).length, 0);
    say(
      `    a card's start: ${(started.actions / sample.length).toFixed(1)} actions (${Object.entries(started.byKind)
        .map(([k, v]) => `${k} ${(v / sample.length).toFixed(1)}`)
        .join(', ')}), ${(started.events / sample.length).toFixed(0)} history events`,
    );
    say(
      `    idle: ${idleActions} actions and ${timers} timers over ${sample.length} cards in ${IDLE_WATCH_MS / 1000} s: ${perMonth.toFixed(1)} actions per idle card per month (the 6-hourly re-read before: ${((2 * MONTH_MS) / OLD_REFRESH_MS).toFixed(0)}, a timer and a read each time)`,
    );
  } finally {
    await stopWorkerProcess(worker);
    await stack.stop();
  }
}

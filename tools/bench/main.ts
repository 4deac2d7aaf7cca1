/**
 * `npm run bench`: figures printed, nothing asserted. Everything on loopback: a Temporal dev server
 * this run starts (in memory, free port), the sandbox, the webhook receiver and workers in this
 * process. Bounded in count and time; sizes through the environment:
 *
 * - BENCH_ONBOARDINGS (default 50): onboardings (and baseline workflows) for the throughput figure
 * - BENCH_PARKED (default 10000): onboardings parked in review for the memory figure
 * - BENCH_IDLE_CARDS (default 10000): cards whose parked cardEntity the (g) memory figure holds
 * - BENCH_IDLE_WATCH_S (default 60): how long (g) watches the parked cards for actions while idle
 * - BENCH_WAIT_REAL_S (default 12): real seconds each wait of (b) lasts on the compressed clock (at
 *   least 120x)
 * - BENCH_PHASE_TIMEOUT_S (default 300): the most any phase waits
 * - BENCH_PHASES (default a,b,d,e,f,g,k,n): which figures to produce ((g) idle cards: worker memory
 *   and actions per idle card per month; (n) notifications per second and Temporal actions per
 *   notification; (k) the card book: card starts and authorizations per second beside no-op
 *   ceilings, and the per-card figures of the 1,000,000-card projection; (c) comes with (a); (e)
 *   is (a) and (c) on the Temporal cluster of `npm run
 *   cluster`; (f) onboardings with and without worker kills and provider errors; (a) ends with the
 *   worker's CPU per onboarding with metrics and tracing off and on (default sampling and every
 *   trace kept), `t` runs that alone)
 * - BENCH_FAULT_ONBOARDINGS (default 24): onboardings of each run of (f)
 * - BENCH_FAULT_KILL_EVERY_S (default 10): (f): a worker process is SIGKILLed this often
 * - BENCH_FAULT_MODES (default idle,hog): (f): each mode runs calm and faulty onboardings; `hog`
 *   with one core kept busy by a process (f) starts
 * - BENCH_FAULT_TRACE (default unset): (f): when set, prints where the three slowest onboardings of
 *   each run waited (the longest silences in their histories)
 * - BENCH_IDLE_LATENCY_ONBOARDINGS (default 25): onboardings (a) runs one at a time first, for the
 *   idle webhook latency of (c)
 * - BENCH_ROUNDS (default 3): measured rounds of (a), each an onboarding batch and its baselines
 * - BENCH_NOTIFY_CARDS (default 100): (n): cards, one workflow each
 * - BENCH_NOTIFY_PER_CARD (default 10): (n): authorizations notified per card
 * - BENCH_CARD_BOOK_CARDS (default 200): (k): cards started at once on each path (client, webhook)
 * - BENCH_CARD_BOOK_AUTH_CARDS (default 50, at most BENCH_CARD_BOOK_CARDS),
 *   BENCH_CARD_BOOK_AUTHS_PER_CARD (default 10): (k): the authorization burst, to cards the
 *   client path started; BENCH_CARD_BOOK_QUIET_AUTHS (default 3): (k): per card of five, sent one
 *   at a time for what one costs alone; BENCH_CARD_BOOK_PACED_SHARE (default 1): (k): the paced
 *   pass's rate as a share of the burst's
 */
import { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, type WorkflowBundle } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { TEST_SLOW_WAIT, TEST_WAIT, type WaitOverrides } from '../../domain/wait-profile';
import { cardflowSearchAttributes } from '../../domain/search-attributes';
import { cardEntityWorkflowId, onboardingWorkflowId } from '../../domain/workflow-ids';
import type { OnboardingResult } from '../../domain/customer-onboarding';
import { ZERO_DELAYS } from '../sandbox/index';
import { resolveTemporalCli } from '../scripts/lib/temporal-cli';
import { bundleCardflowWorkflows, createWorker } from '../../workers/create-worker';
import type { CardflowActivities } from '../../activities';
import {
  cardflowShare,
  cpuDelta,
  cpuMedian as cpuMedianOf,
  cpuNow,
  formatCpu,
  markNewThreads,
  type CpuSample,
  type ProcessIds,
} from './cpu';
import { withCardflowApart } from './services';
import { collectHistories } from './actions';
import { baselineActivities } from './baseline.activities';
import { withThinIntegration } from './thin-integration';
import { num, ONBOARDINGS, PHASES, ROUNDS, runOnboardings, say, setMetricsUrl, withTimeout } from './harness';
import { percentile } from './stats';
import { type BenchCluster, type BenchTemporal, startBenchCluster } from './cluster';
import { freePort } from '../scripts/lib/free-port';
import { waitCost } from './wait-cost';
import { parkedMemory } from './parked-memory';
import { idleCards } from './idle-cards';
import { faultCost } from './fault-cost';
import { telemetryCost } from './telemetry-cost';
import { notificationCost } from './notification-cost';
import { cardBook } from './card-book';
import { addDeliveries, type DeliveryLatency, noDeliveries } from './delivery-latency';
import { entryPointArgs } from '../../platform/config/command-line';

/** Onboardings run one at a time before (a)'s rounds, for the idle stack's webhook latency. */
const IDLE_LATENCY_ONBOARDINGS = num('BENCH_IDLE_LATENCY_ONBOARDINGS', 25);

type BaselineType = 'baselineWorkflow' | 'baselineShapedWorkflow' | 'baselineFeaturedWorkflow';
type BatchKind = 'onboarding' | 'thin' | 'shaped' | 'featured' | 'direct' | 'flat';

/** One measured batch: completions per second and CPU per workflow (parent) completed. */
interface Batch {
  rate: number;
  cpu: CpuSample | undefined;
}

async function measured(count: number, run: () => Promise<unknown>, pids: ProcessIds): Promise<Batch> {
  const before = cpuNow(pids);
  const t0 = performance.now();
  await run();
  const seconds = (performance.now() - t0) / 1000;
  return { rate: count / seconds, cpu: cpuDelta(before, cpuNow(pids), count) };
}

const median = (xs: number[]) => percentile(xs, 50);
const spread = (xs: number[], digits = 2) =>
  `median ${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;

/** Workflow tasks completed over a set of histories (each one a round trip worker <-> server). */
const workflowTasks = (histories: Awaited<ReturnType<typeof collectHistories>>) =>
  histories.reduce((n, h) => n + h.events.filter((e) => e.workflowTaskCompletedEventAttributes).length, 0);

/**
 * (a) Onboardings against baselines on workers built alike (the same `createWorker`, side by side
 * for the whole phase), warmed once, then `BENCH_ROUNDS` rounds alternating which goes first, so
 * outside load shows as spread rather than a wrong median. Shaped pays Temporal for the
 * onboarding's parent, children and activities; featured adds the other features it uses (routing
 * search attributes, stage upserts, signals after a route lookup, the parked card workflow); direct
 * signals by workflow id, the route lookups' share. The thin integration (thin-integration.ts),
 * what a team would write instead, runs beside the onboardings in each round: cardflow's CPU over
 * its own is the figure cardflow is held to.
 */
/** What one run of (a) measured: the shapes of what ran, and each round's batches. */
type OnboardingShape = Awaited<ReturnType<typeof onboardingShape>>;

type ThroughputRun = OnboardingShape & {
  thinShape: RunShape;
  flatShape: RunShape;
  shapedShape: RunShape;
  featuredShape: RunShape;
  rounds: Array<Record<BatchKind, Batch>>;
};

interface RunShape {
  events: number;
  tasks: number;
}

async function throughput(
  env: BenchTemporal,
  bundle: WorkflowBundle,
  heading = '(a) throughput',
  latencyHeading = '(c) webhook receipt -> signal delivered',
): Promise<{ activitiesPerOnboarding: number }> {
  say(
    `\n${heading}: ${ONBOARDINGS} happy-path onboardings (B2B cardholder -> card with initial deposit), sandbox with zero delays, ${ROUNDS} rounds`,
  );
  const fast: WaitOverrides = { cardOperation: TEST_WAIT, review: TEST_SLOW_WAIT };
  const baselineBundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('./baseline.workflow'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
  });
  /** The measured onboarding batches' deliveries. */
  const load = noDeliveries();
  const idleLatencies: DeliveryLatency[] = [];
  // The worker's activities and the clients share this process's event loop (the sandbox and the
  // receiver run in processes of their own): its delay explains latency under load.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const result = await withCardflowApart(env, bundle, ZERO_DELAYS, async (ctx) => {
    const baselineQueue = `bench-baseline-${randomUUID().slice(0, 8)}`;
    const baselineWorker = await markNewThreads(() =>
      createWorker({
        connection: env.nativeConnection,
        taskQueue: baselineQueue,
        activityDeps: ctx.activityDeps,
        workflowBundle: baselineBundle,
        // The no-ops join cardflow's activities, so both workers register the same set plus two.
        // Their answers go through a client on a native connection, as the receiver's do
        // (webhooks/temporal-client.ts), so the features cost the baseline what they cost cardflow.
        activityOverrides: baselineActivities(
          new Client({ connection: env.nativeConnection, namespace: env.client.options.namespace }),
          ctx.routes,
        ) as unknown as Partial<CardflowActivities>,
      }),
    );
    // The thin integration runs beside both, its own sandbox and receiver (thin-integration.ts).
    return withThinIntegration(env, ZERO_DELAYS, (thin) =>
      baselineWorker.runUntil(async () => {
        const { shape, cardShape } = await onboardingShape(env, ctx.taskQueue, fast);
        const thinShape = await runShape(env, await thin.run(1));
        const { runBaseline, shapeOf } = baselineRunner(env, baselineQueue, shape);
        // Idle: one onboarding in flight at a time, so each delivery meets an otherwise quiet
        // stack.
        await ctx.deliveries();
        for (let i = 0; i < IDLE_LATENCY_ONBOARDINGS; i++)
          await runOnboardings(env.client, ctx.taskQueue, 1, 'idle', fast);
        idleLatencies.push(...(await ctx.deliveries()).latencies);
        const flatShape = await shapeOf('baselineWorkflow');
        const shapedShape = await shapeOf('baselineShapedWorkflow');
        const featuredShape = await shapeOf('baselineFeaturedWorkflow');

        const rounds: Array<Record<BatchKind, Batch>> = [];
        for (let round = 0; round < ROUNDS; round++) {
          const onboardingBatch = async () => {
            await ctx.deliveries();
            loopDelay.enable();
            const batch = await measured(
              ONBOARDINGS,
              () => runOnboardings(env.client, ctx.taskQueue, ONBOARDINGS, 'tput', fast),
              ctx.pids,
            );
            loopDelay.disable();
            addDeliveries(load, await ctx.deliveries());
            return batch;
          };
          const batchOf = (type: BaselineType, lookups = true) =>
            measured(ONBOARDINGS, () => runBaseline(type, ONBOARDINGS, lookups), ctx.pids);
          const shapedBatch = () => batchOf('baselineShapedWorkflow');
          const flatBatch = () => batchOf('baselineWorkflow');
          const featuredBatch = () => batchOf('baselineFeaturedWorkflow');
          const directBatch = () => batchOf('baselineFeaturedWorkflow', false);
          // The thin integration right after or before cardflow, so their ratio compares batches
          // run seconds apart.
          const thinRun = () => measured(ONBOARDINGS, () => thin.run(ONBOARDINGS), thin.pids);
          let onboarding: Batch;
          let thinBatch: Batch;
          let shaped: Batch;
          if (round % 2 === 0) {
            onboarding = await onboardingBatch();
            thinBatch = await thinRun();
            shaped = await shapedBatch();
          } else {
            shaped = await shapedBatch();
            thinBatch = await thinRun();
            onboarding = await onboardingBatch();
          }
          const featured = await featuredBatch();
          const direct = await directBatch();
          const flat = await flatBatch();
          rounds.push({ onboarding, thin: thinBatch, shaped, featured, direct, flat });
          say(
            `  round ${round + 1}: onboarding ${onboarding.rate.toFixed(2)}/s, thin ${thinBatch.rate.toFixed(2)}/s, shaped ${shaped.rate.toFixed(2)}/s, featured ${featured.rate.toFixed(2)}/s, direct ${direct.rate.toFixed(2)}/s, flat ${flat.rate.toFixed(2)}/s; ` +
              `onboarding / shaped ${(onboarding.rate / shaped.rate).toFixed(2)}`,
          );
        }
        return { shape, cardShape, thinShape, flatShape, shapedShape, featuredShape, rounds };
      }),
    );
  });
  reportThroughput(result, { heading, latencyHeading, load, idleLatencies, loopDelay });
  return { activitiesPerOnboarding: result.shape.activities };
}

/**
 * Starts `count` baselines of `type` in the onboarding's shape and waits for them; or one, for its
 * shape.
 */
function baselineRunner(env: BenchTemporal, baselineQueue: string, shape: OnboardingShape['shape']) {
  const runBaseline = async (type: BaselineType, count: number, lookups = true) => {
    const args = [
      {
        activities: shape.activities,
        children: shape.children,
        lookups,
        upserts: shape.upserts,
        cardWorkflow: true,
      },
    ];
    const handles = await Promise.all(
      Array.from({ length: count }, () =>
        env.client.workflow.start(type, {
          taskQueue: baselineQueue,
          workflowId: `baseline-${randomUUID()}`,
          args,
        }),
      ),
    );
    await withTimeout(Promise.all(handles.map((h) => h.result())), `${count} ${type}`);
    return handles[0]!.workflowId;
  };
  const shapeOf = async (type: BaselineType) => runShape(env, await runBaseline(type, 1));
  return { runBaseline, shapeOf };
}

/** Events and workflow tasks of a finished workflow and its children. */
async function runShape(env: BenchTemporal, workflowId: string): Promise<RunShape> {
  const hs = await collectHistories(env.client, workflowId);
  return { events: hs.reduce((n, h) => n + h.events.length, 0), tasks: workflowTasks(hs) };
}

/** One warm-up onboarding, and its shape: workflows, activities, events, tasks and upserts. */
async function onboardingShape(env: BenchTemporal, taskQueue: string, fast: WaitOverrides) {
  const [warm] = await runOnboardings(env.client, taskQueue, 1, 'warmup', fast);
  const histories = await collectHistories(env.client, onboardingWorkflowId(warm!));
  // The card's own workflow, which the createCard activity started (not a child).
  const { card } = (await env.client.workflow.getHandle(onboardingWorkflowId(warm!)).result()) as OnboardingResult;
  const cardHistory = await env.client.workflow.getHandle(cardEntityWorkflowId(card.cardNo)).fetchHistory();
  const cardEvents = cardHistory.events ?? [];
  const cardShape = {
    events: cardEvents.length,
    tasks: workflowTasks([{ workflowId: cardEntityWorkflowId(card.cardNo), events: cardEvents }]),
  };
  const shape = {
    activities: histories.reduce(
      (n, h) => n + h.events.filter((e) => e.activityTaskScheduledEventAttributes).length,
      0,
    ),
    children: histories.length - 1,
    events: histories.reduce((n, h) => n + h.events.length, 0),
    tasks: workflowTasks(histories),
    // The parent's own upserts (the children's order numbers are set at their start).
    upserts: histories[0]!.events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes).length,
  };
  return { shape, cardShape };
}

/** Prints what `throughput` measured, each figure beside its baselines and target. */
function reportThroughput(
  result: ThroughputRun,
  seen: {
    heading: string;
    latencyHeading: string;
    load: ReturnType<typeof noDeliveries>;
    idleLatencies: DeliveryLatency[];
    loopDelay: ReturnType<typeof monitorEventLoopDelay>;
  },
): void {
  const { heading, latencyHeading, load, idleLatencies, loopDelay } = seen;
  const { shape, cardShape, thinShape, flatShape, shapedShape, featuredShape, rounds } = result;
  const rates = (k: BatchKind) => rounds.map((r) => r[k].rate);
  const cpuMedian = (k: BatchKind) =>
    cpuMedianOf(
      rounds.map((r) => r[k].cpu).filter((c): c is CpuSample => c !== undefined),
      median,
    );
  say(
    `  onboardings completed per second: ${spread(rates('onboarding'))} (${shape.events} history events and ${shape.tasks} workflow tasks each, over ${shape.children + 1} workflows, ${shape.activities} activities; and the card's own workflow, started by createCard: ${cardShape.events} events, ${cardShape.tasks} workflow tasks until it parks)`,
  );
  say(
    `  baseline (one workflow, ${shape.activities} no-op activities in sequence, same server, same run): ${spread(rates('flat'))} per second (${flatShape.events} events, ${flatShape.tasks} workflow tasks)`,
  );
  say(
    `  same no-ops in the onboarding's shape (a parent + ${shape.children} children in sequence): ${spread(rates('shaped'))} per second (${shapedShape.events} events, ${shapedShape.tasks} workflow tasks)`,
  );
  say(
    `  the shaped no-ops with the onboarding's other Temporal features (children started with a routing search attribute, ${shape.upserts} stage upserts, ${shape.children} answers signalled after a route lookup, a card's workflow started by an activity, sent its card's answer and parked): ${spread(rates('featured'))} per second (${featuredShape.events} events, ${featuredShape.tasks} workflow tasks, the card's workflow included)`,
  );
  say(
    `  ratio featured / shaped, per round: ${spread(rounds.map((r) => r.featured.rate / r.shaped.rate))} (what those features cost: the most onboarding / shaped can be while cardflow uses them); ` +
      `onboarding / featured ${spread(rounds.map((r) => r.onboarding.rate / r.featured.rate))} (what cardflow's own work leaves)`,
  );
  say(
    `  the featured baseline with its answers signalled by workflow id, without the route lookup: ${spread(rates('direct'))} per second; ` +
      `ratio direct / shaped ${spread(rounds.map((r) => r.direct.rate / r.shaped.rate))} (the lookups' share of the features' price)`,
  );
  say(
    `  ratio onboarding / shaped, per round: ${spread(rounds.map((r) => r.onboarding.rate / r.shaped.rate))} (target >= 0.9); ` +
      `onboarding / baseline ${spread(rounds.map((r) => r.onboarding.rate / r.flat.rate))} (target >= 0.7)`,
  );
  say(
    `  thin integration (the featured shape with the same seven provider calls, plainly, and a minimal receiver in its worker's process; tools/bench/thin-integration.ts): ${spread(rates('thin'))} per second (${thinShape.events} events, ${thinShape.tasks} workflow tasks, its card's workflow aside)`,
  );
  say(`  CPU per onboarding (median of rounds): ${formatCpu(cpuMedian('onboarding'))}`);
  say(`  CPU per thin integration onboarding:   ${formatCpu(cpuMedian('thin'))}`);
  say(`  CPU per shaped baseline:               ${formatCpu(cpuMedian('shaped'))}`);
  say(`  CPU per featured baseline:             ${formatCpu(cpuMedian('featured'))}`);
  say(`  CPU per featured without lookups:      ${formatCpu(cpuMedian('direct'))}`);
  say(`  CPU per flat baseline:                 ${formatCpu(cpuMedian('flat'))}`);
  const shareRatios = rounds.flatMap((r) =>
    r.onboarding.cpu && r.featured.cpu ? [cardflowShare(r.onboarding.cpu) / cardflowShare(r.featured.cpu)] : [],
  );
  if (shareRatios.length)
    say(
      `  cardflow's CPU share per onboarding / per featured baseline, per round: ${spread(shareRatios)} (no target: ` +
        `the baseline makes no provider calls and receives no webhooks)`,
    );
  const thinRatios = rounds.flatMap((r) =>
    r.onboarding.cpu && r.thin.cpu ? [cardflowShare(r.onboarding.cpu) / cardflowShare(r.thin.cpu)] : [],
  );
  if (thinRatios.length)
    say(
      `  CPU per onboarding, cardflow / thin integration: ${cardflowShare(cpuMedian('onboarding')!).toFixed(1)} / ${cardflowShare(cpuMedian('thin')!).toFixed(1)} ms; ` +
        `ratio per round ${spread(thinRatios)} (target <= 1.15; the sandboxes, the provider's cost, and the Temporal server left out; ` +
        `the machine's cores are shared, so rounds spread)`,
    );
  say(
    `\n${latencyHeading}, loopback (the request read, verified, routed and signalled; then acknowledged, after the delivery log's write and sync):`,
  );
  say(
    `  idle, ${idleLatencies.length} deliveries of ${IDLE_LATENCY_ONBOARDINGS} onboardings run one at a time: ${describeLatencies(idleLatencies, 50)}`,
  );
  say(
    `  under ${heading.split(' ')[0]}'s load, ${load.latencies.length} deliveries: ${describeLatencies(load.latencies, 200)}`,
  );
  const perOnboarding = Object.entries(load.outcomes)
    .map(([outcome, count]) => `${outcome} ${(count / (ONBOARDINGS * ROUNDS)).toFixed(1)}`)
    .join(', ');
  say(`  webhooks the receiver answered per onboarding, by outcome: ${perOnboarding}`);
  say(
    `  event-loop delay of the worker's process meanwhile (activities and clients; sandbox and receiver run apart): p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms`,
  );
}

/**
 * "to signal p50 5.1 ms, p99 9.0 ms (target p99 <= 50); to acknowledgement p50 7.2 ms, p99 12.3 ms;
 * of which read and verified p50 0.2 ms, p99 0.9 ms"
 */
function describeLatencies(latencies: readonly DeliveryLatency[], targetP99Ms: number): string {
  const figures = (ms: number[]) => `p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms`;
  return (
    `to signal ${figures(latencies.map((l) => l.signalled))} (target p99 <= ${targetP99Ms}); ` +
    `to acknowledgement ${figures(latencies.map((l) => l.acknowledged))}; ` +
    `of which read and verified ${figures(latencies.map((l) => l.verified))}`
  );
}

/**
 * (a) and (c) again on the production topology's Temporal cluster, for comparison with the dev
 * server's.
 */
async function onCluster(bundle: WorkflowBundle): Promise<void> {
  let cluster: BenchCluster;
  try {
    cluster = await startBenchCluster();
  } catch (error) {
    say(
      `\n(e) on the Temporal cluster: skipped, it did not start (${error instanceof Error ? error.message : String(error)})`,
    );
    return;
  }
  try {
    say(
      `\nTemporal cluster on PostgreSQL at ${cluster.address} (frontend, matching, worker service, two history hosts; persistence and visibility on PostgreSQL)`,
    );
    await throughput(
      cluster,
      bundle,
      '(e) throughput on the cluster',
      '(e) webhook receipt -> signal delivered on the cluster',
    );
  } finally {
    await cluster.stop();
  }
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const started = performance.now();
  say(`cardflow bench: ${new Date().toISOString()}, node ${process.version}, ${process.platform}/${process.arch}`);
  const metricsPort = await freePort();
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: await resolveTemporalCli() },
      ip: '127.0.0.1',
      searchAttributes: [...cardflowSearchAttributes],
      log: { format: 'pretty', level: 'error' },
      extraArgs: ['--metrics-port', String(metricsPort)],
    },
  });
  setMetricsUrl(`http://127.0.0.1:${metricsPort}/metrics`);
  try {
    say(`Temporal dev server (in memory) at ${env.address}`);
    const bundle = await bundleCardflowWorkflows();
    if (PHASES.has('a') || PHASES.has('c')) await throughput(env, bundle);
    if (PHASES.has('a') || PHASES.has('t')) await telemetryCost(env);
    if (PHASES.has('b')) await waitCost(env, bundle);
    if (PHASES.has('d')) {
      await parkedMemory(env);
    }
    if (PHASES.has('f')) await faultCost(env.address);
    if (PHASES.has('n')) await notificationCost(env, bundle);
    if (PHASES.has('k')) await cardBook(env, bundle);
    if (PHASES.has('g')) await idleCards(env);
  } finally {
    await env.teardown();
  }
  if (PHASES.has('e')) await onCluster(await bundleCardflowWorkflows());
  say(`\nbench done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

if (require.main === module) {
  entryPointArgs({
    name: 'npm run bench',
    summary: 'prints the performance figures, asserting nothing (tools/bench/main.ts says what each phase measures)',
    details: [
      'Sizes and phases: BENCH_ONBOARDINGS, BENCH_PARKED, BENCH_IDLE_CARDS, BENCH_WAIT_REAL_S, BENCH_PHASE_TIMEOUT_S, BENCH_PHASES (tools/bench/main.ts).',
    ],
  });
  main().catch((error: unknown) => {
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (error instanceof Error && error.cause) console.error('caused by', error.cause);
    process.exit(1);
  });
}

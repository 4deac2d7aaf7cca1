/**
 * `npm run bench`: figures printed, nothing asserted. Everything on loopback:
 * a Temporal dev server this run starts (in memory, free port), the sandbox, the webhook receiver
 * and workers in this process. Bounded in count and time; sizes through the environment:
 *
 * | variable | default | |
 * |---|---|---|
 * | BENCH_ONBOARDINGS | 50 | onboardings (and baseline workflows) for the throughput figure |
 * | BENCH_PARKED | 2000 | onboardings parked in review for the memory figure |
 * | BENCH_PARKED_CACHE | 500 | the capped workflow cache of the memory figure's second run (the first uses the SDK's default) |
 * | BENCH_TIME_SCALE | 120 | clock compression of the 1-minute / 1-hour review comparison |
 * | BENCH_PHASE_TIMEOUT_S | 300 | the most any phase waits |
 * | BENCH_PHASES | a,b,d,e | which figures to produce ((c) comes with (a); (e) is (a) and (c) on the Temporal cluster of `npm run cluster`) |
 */
import type { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createProviderClient } from '../api/client';
import { startOnboarding } from '../client/onboarding';
import {
  CARD_OPERATION_WAIT,
  REVIEW_WAIT,
  TEST_SLOW_WAIT,
  TEST_WAIT,
  type WaitOverrides,
  type WaitProfile,
} from '../domain/wait-profile';
import { cardflowSearchAttributes } from '../domain/search-attributes';
import { onboardingWorkflowId } from '../domain/workflow-ids';
import { type SandboxDelays } from '../sandbox/contract';
import { ZERO_DELAYS, startSandbox } from '../sandbox/index';
import { resolveTemporalCli } from '../scripts/lib/temporal-cli';
import { startWebhookReceiver } from '../webhooks/receiver';
import { bundleCardflowWorkflows, createWorker } from '../workers/create-worker';
import { b2bHolder as holder } from '../test/fixtures/holders';
import { COUNTING_RULE, collectHistories, countActions, metricDelta, parseActionMetric } from './actions';
import * as baselineActivities from './baseline.activities';
import { type BenchCluster, type BenchTemporal, startBenchCluster } from './cluster';
import { mib, percentile } from './stats';
import { freePort } from '../scripts/lib/free-port';
import { CARD_TYPE_IDS } from '../sandbox/data/card-types';

const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw ? Number(raw) : fallback;
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}=${raw} must be a positive number`);
  return n;
};
const ONBOARDINGS = num('BENCH_ONBOARDINGS', 50);
const PARKED = num('BENCH_PARKED', 2000);
const TIME_SCALE = num('BENCH_TIME_SCALE', 120);
const PHASE_TIMEOUT_MS = num('BENCH_PHASE_TIMEOUT_S', 300) * 1000;
const PARKED_CACHE = num('BENCH_PARKED_CACHE', 500);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'a,b,d,e').split(',').map((p) => p.trim()));
const CARD_TYPE_B2B_WITH_DEPOSIT = CARD_TYPE_IDS.b2bVirtual;

const say = (line: string) => console.log(line);

function onboardingInput(tag: string, emailLocal: string, wait: WaitOverrides) {
  const customerRef = `bench-${tag}-${randomUUID().slice(0, 12)}`;
  return {
    customerRef,
    cardTypeId: CARD_TYPE_B2B_WITH_DEPOSIT,
    holder: holder(`${emailLocal}+${randomUUID().slice(0, 8)}@example.com`),
    initialDeposit: '20.00',
    wait,
  };
}

function scaled(profile: WaitProfile, by: number): WaitProfile {
  const out = { ...profile };
  for (const key of Object.keys(out) as Array<keyof WaitProfile>)
    if (key !== 'backoff') out[key] = Math.max(1, Math.round(out[key] / by));
  return out;
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(() => reject(new Error(`${what}: over ${PHASE_TIMEOUT_MS / 1000} s`)), PHASE_TIMEOUT_MS)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs `fn` against a fresh sandbox + receiver + cardflow worker on a task queue of its own. */
async function withCardflow<T>(
  env: BenchTemporal,
  bundle: WorkflowBundle,
  delays: Partial<SandboxDelays>,
  fn: (ctx: { taskQueue: string; worker: Worker; latencies: number[] }) => Promise<T>,
  workerOptions: { maxCachedWorkflows?: number } = {},
): Promise<T> {
  const sandbox = await startSandbox({ delays, clock: 'real', seed: Math.floor(Math.random() * 2 ** 31) });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cardflow-bench-'));
  const latencies: number[] = [];
  const receiver = await startWebhookReceiver({
    platformPublicKey: sandbox.keys.platform.publicKey,
    client: env.client,
    dataDir,
    onHandled: (h) => {
      if (h.outcome === 'signalled') latencies.push(h.settledAtMs - h.receivedAtMs);
    },
  });
  sandbox.setWebhookUrl(receiver.url);
  const provider = createProviderClient(sandbox.clientConfig());
  const taskQueue = `bench-${randomUUID().slice(0, 8)}`;
  try {
    const worker = await createWorker({
      connection: env.nativeConnection,
      taskQueue,
      activityDeps: { provider },
      workflowBundle: bundle,
      workerOptions,
    });
    return await worker.runUntil(() => fn({ taskQueue, worker, latencies }));
  } finally {
    await receiver.stop();
    await sandbox.stop();
    await provider.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function runOnboardings(
  client: Client,
  taskQueue: string,
  count: number,
  tag: string,
  wait: WaitOverrides,
): Promise<string[]> {
  const inputs = Array.from({ length: count }, () => onboardingInput(tag, 'bench', wait));
  const started = await Promise.all(inputs.map((input) => startOnboarding(client, input, { taskQueue })));
  await withTimeout(Promise.all(started.map((s) => s.handle.result())), `${count} onboardings`);
  return inputs.map((i) => i.customerRef);
}

async function throughput(
  env: BenchTemporal,
  bundle: WorkflowBundle,
  heading = '(a) throughput',
  latencyHeading = '(c) webhook receipt -> signal delivered',
): Promise<{ activitiesPerOnboarding: number }> {
  say(
    `\n${heading}: ${ONBOARDINGS} happy-path onboardings (B2B cardholder -> card with initial deposit), sandbox with zero delays`,
  );
  const fast: WaitOverrides = { cardOperation: TEST_WAIT, review: TEST_SLOW_WAIT };
  let activitiesPerOnboarding = 0;
  let childrenPerOnboarding = 0;
  let eventsPerOnboarding = 0;
  let latencies: number[] = [];
  // Sandbox, receiver, activities and clients share this process's event loop: its delay explains latency under load.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const onboardingRate = await withCardflow(env, bundle, ZERO_DELAYS, async (ctx) => {
    const [warm] = await runOnboardings(env.client, ctx.taskQueue, 1, 'warmup', fast);
    const histories = await collectHistories(env.client, onboardingWorkflowId(warm!));
    activitiesPerOnboarding = histories.reduce(
      (n, h) => n + h.events.filter((e) => e.activityTaskScheduledEventAttributes).length,
      0,
    );
    childrenPerOnboarding = histories.length - 1;
    eventsPerOnboarding = histories.reduce((n, h) => n + h.events.length, 0);
    ctx.latencies.length = 0;
    loopDelay.enable();
    const t0 = performance.now();
    await runOnboardings(env.client, ctx.taskQueue, ONBOARDINGS, 'tput', fast);
    const seconds = (performance.now() - t0) / 1000;
    loopDelay.disable();
    latencies = [...ctx.latencies];
    return ONBOARDINGS / seconds;
  });
  const taskQueue = `bench-baseline-${randomUUID().slice(0, 8)}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('./baseline.workflow'),
    activities: baselineActivities,
  });
  const baseline = await worker.runUntil(async () => {
    const run = async (type: 'baselineWorkflow' | 'baselineShapedWorkflow', count: number) => {
      const args = [{ activities: activitiesPerOnboarding, children: childrenPerOnboarding }];
      const handles = await Promise.all(
        Array.from({ length: count }, () =>
          env.client.workflow.start(type, { taskQueue, workflowId: `baseline-${randomUUID()}`, args }),
        ),
      );
      await withTimeout(Promise.all(handles.map((h) => h.result())), `${count} ${type}`);
      return handles[0]!.workflowId;
    };
    const rate = async (type: 'baselineWorkflow' | 'baselineShapedWorkflow') => {
      const events = (await collectHistories(env.client, await run(type, 1))).reduce((n, h) => n + h.events.length, 0);
      const t0 = performance.now();
      await run(type, ONBOARDINGS);
      return { rate: ONBOARDINGS / ((performance.now() - t0) / 1000), events };
    };
    return { flat: await rate('baselineWorkflow'), shaped: await rate('baselineShapedWorkflow') };
  });
  const baselineRate = baseline.flat.rate;
  say(
    `  onboardings completed per second: ${onboardingRate.toFixed(2)} (${eventsPerOnboarding} history events each, over ${childrenPerOnboarding + 1} workflows)`,
  );
  say(
    `  baseline (one workflow, ${activitiesPerOnboarding} no-op activities in sequence, same server, same run): ${baselineRate.toFixed(2)} per second (${baseline.flat.events} events)`,
  );
  say(`  ratio onboarding / baseline: ${(onboardingRate / baselineRate).toFixed(2)} (target >= 0.7)`);
  say(
    `  same no-ops in the onboarding's shape (a parent + ${childrenPerOnboarding} children in sequence): ${baseline.shaped.rate.toFixed(2)} per second (${baseline.shaped.events} events); ` +
      `onboarding / shaped: ${(onboardingRate / baseline.shaped.rate).toFixed(2)}, shaped / baseline: ${(baseline.shaped.rate / baselineRate).toFixed(2)}`,
  );
  say(`\n${latencyHeading}, loopback, ${latencies.length} signalled deliveries during ${heading.split(' ')[0]}:`);
  say(
    `  p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (includes the visibility lookup and the delivery-log fsync)`,
  );
  say(
    `  event-loop delay of this process meanwhile (sandbox + receiver + activities): p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms`,
  );
  return { activitiesPerOnboarding };
}

async function actionsPerOnboarding(env: TestWorkflowEnvironment, bundle: WorkflowBundle): Promise<void> {
  say(`\n(b) history events and billable actions per happy-path onboarding, review time on the sandbox clock`);
  say(
    `  time compressed ${TIME_SCALE}x: sandbox review delays and every wait-profile interval divided by ${TIME_SCALE}`,
  );
  say(COUNTING_RULE.replace(/^/gm, '  '));
  const rows: Array<{
    label: string;
    actions: number;
    events: number;
    byKind: Record<string, number>;
    metric: Record<string, number>;
  }> = [];
  for (const [label, reviewMs] of [
    ['1-minute review', 60_000],
    ['1-hour review', 3_600_000],
  ] as const) {
    const half = Math.round(reviewMs / 2 / TIME_SCALE);
    const wait: WaitOverrides = {
      review: scaled(REVIEW_WAIT, TIME_SCALE),
      cardOperation: scaled(CARD_OPERATION_WAIT, TIME_SCALE),
    };
    await withCardflow(env, bundle, { ...ZERO_DELAYS, reviewAdminMs: half, reviewChannelMs: half }, async (ctx) => {
      const before = await actionMetric();
      const [ref] = await runOnboardings(env.client, ctx.taskQueue, 1, 'actions', wait);
      await new Promise((resolve) => setTimeout(resolve, 1000)); // cancelled long polls report their last heartbeat
      const metric = metricDelta(before, await actionMetric());
      const histories = await collectHistories(env.client, onboardingWorkflowId(ref!));
      const count = countActions(histories);
      rows.push({ label, actions: count.actions, events: count.events, byKind: count.byKind, metric });
    });
  }
  for (const row of rows) {
    const kinds = Object.entries(row.byKind)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    say(`  ${row.label}: ${row.events} history events, ${row.actions} billable actions (${kinds})`);
    const metricTotal = Object.values(row.metric).reduce((a, b) => a + b, 0);
    const metricKinds = Object.entries(row.metric)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    say(`    server \`action\` metric over the same run (compressed clock): ${metricTotal} (${metricKinds})`);
  }
  const [short, long] = rows;
  if (short && long) {
    const total = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);
    say(
      `  1-hour / 1-minute: ${(long.actions / short.actions).toFixed(2)} by the history rule, ${(total(long.metric) / total(short.metric)).toFixed(2)} by the server metric (target <= 1.5; 1-minute target <= 20 actions)`,
    );
  }
}

let metricsUrl = '';
async function actionMetric(): Promise<Record<string, number>> {
  const response = await fetch(metricsUrl);
  return parseActionMetric(await response.text());
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

async function parkedMemory(
  env: TestWorkflowEnvironment,
  bundle: WorkflowBundle,
  maxCachedWorkflows: number | undefined,
): Promise<void> {
  const cache =
    maxCachedWorkflows === undefined
      ? "the SDK's default workflow cache (sized from the heap)"
      : `the workflow cache capped at ${maxCachedWorkflows} (CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS)`;
  say(`\n(d) worker memory with ${PARKED} onboardings parked in cardholder review (sandbox review stalled), ${cache}`);
  await withCardflow(
    env,
    bundle,
    ZERO_DELAYS,
    async (ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      collectGarbage();
      const before = process.memoryUsage();
      const t0 = performance.now();
      const batch = 200;
      for (let i = 0; i < PARKED; i += batch) {
        const inputs = Array.from({ length: Math.min(batch, PARKED - i) }, () =>
          onboardingInput('parked', 'review.stall', {}),
        );
        await Promise.all(inputs.map((input) => startOnboarding(env.client, input, { taskQueue: ctx.taskQueue })));
      }
      const query = `WorkflowType = 'cardholderOnboarding' AND TaskQueue = '${ctx.taskQueue}' AND ExecutionStatus = 'Running'`;
      let parked = 0;
      const deadline = Date.now() + PHASE_TIMEOUT_MS;
      while (Date.now() < deadline) {
        parked = (await env.client.workflow.count(query)).count;
        if (parked >= PARKED) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      await new Promise((resolve) => setTimeout(resolve, 5000));
      collectGarbage();
      const after = process.memoryUsage();
      const status = ctx.worker.getStatus();
      say(
        `  parked: ${parked} cardholder children running (of ${PARKED} onboardings) after ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      say(
        `  bench process (worker + sandbox + receiver): RSS ${mib(before.rss)} -> ${mib(after.rss)}, heap used ${mib(before.heapUsed)} -> ${mib(after.heapUsed)}`,
      );
      say(
        `  per parked onboarding: RSS +${((after.rss - before.rss) / 1024 / Math.max(parked, 1)).toFixed(1)} KiB, heap +${((after.heapUsed - before.heapUsed) / 1024 / Math.max(parked, 1)).toFixed(1)} KiB`,
      );
      say(
        `  worker: ${status.numCachedWorkflows} workflows in cache, ${status.numInFlightActivities} activities in flight`,
      );
    },
    maxCachedWorkflows === undefined ? {} : { maxCachedWorkflows },
  );
}

/** (a) and (c) again on the production topology's Temporal cluster, for comparison with the dev server's. */
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
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  try {
    say(`Temporal dev server (in memory) at ${env.address}`);
    const bundle = await bundleCardflowWorkflows();
    if (PHASES.has('a') || PHASES.has('c')) await throughput(env, bundle);
    if (PHASES.has('b')) await actionsPerOnboarding(env, bundle);
    if (PHASES.has('d')) {
      await parkedMemory(env, bundle, undefined);
      await parkedMemory(env, bundle, PARKED_CACHE);
    }
  } finally {
    await env.teardown();
  }
  if (PHASES.has('e')) await onCluster(await bundleCardflowWorkflows());
  say(`\nbench done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  });
}

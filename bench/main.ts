/**
 * `npm run bench`: figures printed, nothing asserted. Everything on loopback:
 * a Temporal dev server this run starts (in memory, free port), the sandbox, the webhook receiver
 * and workers in this process. Bounded in count and time; sizes through the environment:
 *
 * | variable | default | |
 * |---|---|---|
 * | BENCH_ONBOARDINGS | 50 | onboardings (and baseline workflows) for the throughput figure |
 * | BENCH_PARKED | 10000 | onboardings parked in review for the memory figure |
 * | BENCH_WAIT_REAL_S | 12 | real seconds each wait of (b) lasts on the compressed clock (at least 120x) |
 * | BENCH_PHASE_TIMEOUT_S | 300 | the most any phase waits |
 * | BENCH_PHASES | a,b,d,e | which figures to produce ((c) comes with (a); (e) is (a) and (c) on the Temporal cluster of `npm run cluster`) |
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { TEST_SLOW_WAIT, TEST_WAIT, type WaitOverrides } from '../domain/wait-profile';
import { cardflowSearchAttributes } from '../domain/search-attributes';
import { onboardingWorkflowId } from '../domain/workflow-ids';
import { ZERO_DELAYS } from '../sandbox/index';
import { resolveTemporalCli } from '../scripts/lib/temporal-cli';
import { bundleCardflowWorkflows } from '../workers/create-worker';
import { collectHistories } from './actions';
import * as baselineActivities from './baseline.activities';
import { ONBOARDINGS, PHASES, runOnboardings, say, setMetricsUrl, withCardflow, withTimeout } from './harness';
import { percentile } from './stats';
import { type BenchCluster, type BenchTemporal, startBenchCluster } from './cluster';
import { freePort } from '../scripts/lib/free-port';
import { waitCost } from './wait-cost';
import { parkedMemory } from './parked-memory';

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
  setMetricsUrl(`http://127.0.0.1:${metricsPort}/metrics`);
  try {
    say(`Temporal dev server (in memory) at ${env.address}`);
    const bundle = await bundleCardflowWorkflows();
    if (PHASES.has('a') || PHASES.has('c')) await throughput(env, bundle);
    if (PHASES.has('b')) await waitCost(env, bundle);
    if (PHASES.has('d')) {
      await parkedMemory(env);
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
    if (error instanceof Error && error.cause) console.error('caused by', error.cause);
    process.exit(1);
  });
}

/**
 * Bench (d): memory of a worker with thousands of onboardings parked in review, each configuration
 * in a fresh production worker process (`node dist/workers/main.js`, prebuilt bundle) so one run's
 * heap cannot flatter the next; RSS and peak RSS from /proc. Also: the cache size, the cost of
 * waking an evicted workflow (a query to an evicted against a cached one), the probes' provider
 * calls per second against the budget, and how long onboardings started beside them take.
 * BENCH_PARKED_CONFIGS picks configurations (`default`, `budget`, `cached`); BENCH_WORKER_NODE
 * runs the worker on another node binary.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startBenchOnboarding } from './reference';
import { progressQuery } from '../../domain/customer-onboarding';
import { onboardingWorkflowId } from '../../domain/workflow-ids';
import { cacheSizeFor, DEFAULT_CACHE_BUDGET_MIB } from '../../workers/config';
import { onboardingInput, PARKED, PHASE_TIMEOUT_MS, say, withTimeout } from './harness';
import { TEST_SLOW_WAIT, TEST_WAIT, type WaitOverrides } from '../../domain/wait-profile';
import { DEFAULT_PROBES_PER_SECOND } from '../../workers/create-worker';
import { buildWorker, startProcessStack, startWorkerProcess, stopWorkerProcess } from './process-stack';
import { mib, percentile } from './stats';

interface Configuration {
  /** Its name in BENCH_PARKED_CONFIGS. */
  key: string;
  label: string;
  env: Record<string, string>;
}

const CONFIGURATIONS: Configuration[] = [
  {
    key: 'default',
    label: `default (a ${DEFAULT_CACHE_BUDGET_MIB} MiB cache budget: ${cacheSizeFor(DEFAULT_CACHE_BUDGET_MIB)} cached)`,
    env: {},
  },
  {
    // Shows the probe budget holding where the parked reviews' probes ask for more than it allows.
    key: 'budget',
    label: 'default, with the probe budget lowered to 5 per second',
    env: { CARDFLOW_PROBES_PER_SECOND: '5' },
  },
  {
    key: 'cached',
    label: 'every parked workflow cached (as the SDK sizes the cache from a large heap)',
    env: { CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS: String(PARKED * 2) },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory by kind (anonymous: heaps and caches; file: mapped code), for the breakdown. */
function residentOf(pid: number): string {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) * 1024;
  return `anonymous ${mib(kib('Anonymous'))}, file-backed ${mib(kib('Rss') - kib('Anonymous'))}`;
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
  return Number(kib ?? 0) * 1024;
}
const rssOf = (pid: number) => statusField(pid, 'VmRSS');
/** The most the process has held resident since it started. */
const peakRssOf = (pid: number) => statusField(pid, 'VmHWM');

/**
 * Onboardings started beside the parked ones, to see that probes do not hold up a customer's card.
 */
const URGENT = 10;
/**
 * Onboardings started together while parking: half the default cache's workflows (a parent and a
 * child each).
 */
const PARKING_BATCH = 50;
/** The most parked onboardings the every-workflow-cached configuration is run with. */
const CACHED_AT_MOST = 2000;
const FAST: WaitOverrides = { cardOperation: TEST_WAIT, review: TEST_SLOW_WAIT };

async function measure(env: TestWorkflowEnvironment, config: Configuration): Promise<void> {
  say(`\n  ${config.label}:`);
  const stack = await startProcessStack(env.address, 'cardflow-bench-');
  const { client, sandbox } = stack;
  const taskQueue = `bench-parked-${randomUUID().slice(0, 8)}`;
  // Every provider operation the sandbox serves passes through its engine's handle().
  let requests = 0;
  let byOperation = new Map<string, number>();
  const handle = sandbox.engine.handle.bind(sandbox.engine);
  let holdersInReview = 0;
  sandbox.engine.handle = (...args) => {
    requests += 1;
    byOperation.set(args[0], (byOperation.get(args[0]) ?? 0) + 1);
    const answer = handle(...args);
    // A parked onboarding is one whose cardholder the provider holds in review.
    if (args[0] === 'createCardholder') holdersInReview += 1;
    return answer;
  };
  const worker = await startWorkerProcess({ ...stack.workerEnv, ...config.env, CARDFLOW_TASK_QUEUE: taskQueue });
  try {
    const idle = rssOf(worker.pid!);
    const t0 = performance.now();
    const refs: string[] = [];
    // Customers arrive over days, not at once: batches smaller than the cache, each started once
    // the previous one is in review, so the figure is of onboardings parked, not of a backlog of
    // ten thousand first workflow tasks replaying through a small cache.
    const deadline = Date.now() + PHASE_TIMEOUT_MS + PARKED * 500;
    for (let i = 0; i < PARKED && Date.now() < deadline; i += PARKING_BATCH) {
      const inputs = Array.from({ length: Math.min(PARKING_BATCH, PARKED - i) }, () =>
        onboardingInput('parked', 'review.stall', {}),
      );
      await Promise.all(inputs.map((input) => startBenchOnboarding(client, input, { taskQueue })));
      refs.push(...inputs.map((input) => input.customerRef));
      while (Date.now() < deadline && holdersInReview < refs.length) await sleep(200);
    }
    const parked = holdersInReview;
    // Let the last ones' workflow tasks finish and their first probes be scheduled.
    await sleep(5000);
    const parkedRss = rssOf(worker.pid!);
    say(
      `    parked: ${parked} of ${PARKED} onboardings in review after ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    say(`    resident with them parked: ${residentOf(worker.pid!)}`);
    say(
      `    worker process RSS: ${mib(idle)} idle -> ${mib(parkedRss)} with them parked (${((parkedRss - idle) / 1024 / Math.max(parked, 1)).toFixed(1)} KiB per onboarding)`,
    );

    // Waking: the first query to an onboarding long since evicted replays its history; a second one
    // finds it cached.
    const sample = refs.slice(0, 20);
    const latency = async (ref: string) => {
      const start = performance.now();
      await client.workflow.getHandle(onboardingWorkflowId(ref)).query(progressQuery);
      return performance.now() - start;
    };
    const cold: number[] = [];
    const warm: number[] = [];
    for (const ref of sample) {
      cold.push(await latency(ref));
      warm.push(await latency(ref));
    }
    say(
      `    query to a parked onboarding: first p50 ${percentile(cold, 50).toFixed(1)} ms (replay when evicted), again p50 ${percentile(warm, 50).toFixed(1)} ms (cached)`,
    );

    // The probe budget: reads the parked reviews' probes make, against the configured rate.
    requests = 0;
    byOperation = new Map();
    const window = 60_000;
    await sleep(window);
    const operations = [...byOperation].map(([operation, n]) => `${operation} ${n}`).join(', ');
    const budget = config.env.CARDFLOW_PROBES_PER_SECOND ?? String(DEFAULT_PROBES_PER_SECOND);
    say(
      `    provider requests meanwhile (probes of ${parked} parked reviews, ${window / 1000} s window): ${(requests / (window / 1000)).toFixed(2)} per second against a probe budget of ${budget}/s (${operations || 'none'})`,
    );

    // Urgent work beside the probes: onboardings started now, from start to card with its deposit.
    const urgent = await Promise.all(
      Array.from({ length: URGENT }, async () => {
        const start = performance.now();
        const { handle } = await startBenchOnboarding(client, onboardingInput('urgent', 'bench', FAST), { taskQueue });
        await withTimeout(handle.result(), 'an urgent onboarding');
        return performance.now() - start;
      }),
    );
    say(
      `    ${URGENT} onboardings started beside them: card with deposit in p50 ${(percentile(urgent, 50) / 1000).toFixed(1)} s, max ${(Math.max(...urgent) / 1000).toFixed(1)} s`,
    );
    say(
      `    worker process RSS at the end: ${mib(rssOf(worker.pid!))}, peak over the run ${mib(peakRssOf(worker.pid!))}`,
    );
  } finally {
    await stopWorkerProcess(worker);
    await stack.stop();
  }
}

export async function parkedMemory(env: TestWorkflowEnvironment): Promise<void> {
  say(
    `\n(d) a worker process with ${PARKED} onboardings parked in cardholder review (sandbox review stalled), each configuration in a fresh worker process`,
  );
  const wanted = new Set((process.env.BENCH_PARKED_CONFIGS ?? 'default,budget,cached').split(',').map((c) => c.trim()));
  buildWorker();
  for (const config of CONFIGURATIONS.filter((c) => wanted.has(c.key))) {
    // Every workflow cached costs about 3 MiB of RSS each (measured at 1,000): beyond a few
    // thousand, more than the machine.
    if (config.key === 'cached' && PARKED > CACHED_AT_MOST) {
      say(
        `\n  ${config.label}: not run with more than ${CACHED_AT_MOST} parked (BENCH_PARKED=${CACHED_AT_MOST} measures it)`,
      );
      continue;
    }
    await measure(env, config);
  }
}

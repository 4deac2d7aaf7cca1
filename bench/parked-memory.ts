/**
 * Bench (d): memory of a worker with thousands of onboardings parked in cardholder review, each
 * configuration in a fresh worker process (the production entry point, `workers/main.ts`), so
 * one run's heap cannot flatter the next. The sandbox, the webhook receiver and the client stay
 * in the bench process; the figure is the worker process's own RSS (from /proc).
 *
 * Also printed: the cache size in use, the cost of waking an evicted workflow (a query makes the
 * worker replay its history: the latency of a query to an evicted onboarding against one to a
 * cached one), and the provider calls per second the parked onboardings' probes make.
 */
import { Client, Connection } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startOnboarding } from '../client/onboarding';
import { createDataConverter } from '../codec/data-converter';
import { KEYS_ENV, parseKeyList } from '../codec/keys';
import { progressQuery } from '../domain/customer-onboarding';
import { onboardingWorkflowId } from '../domain/workflow-ids';
import { startSandbox, ZERO_DELAYS } from '../sandbox/index';
import { startWebhookReceiver } from '../webhooks/receiver';
import { cacheSizeFor, DEFAULT_CACHE_BUDGET_MIB } from '../workers/config';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onboardingInput, PARKED, PHASE_TIMEOUT_MS, say } from './harness';
import { mib, percentile } from './stats';

interface Configuration {
  label: string;
  env: Record<string, string>;
}

const CONFIGURATIONS: Configuration[] = [
  {
    label: `default (a ${DEFAULT_CACHE_BUDGET_MIB} MiB cache budget: ${cacheSizeFor(DEFAULT_CACHE_BUDGET_MIB)} cached)`,
    env: {},
  },
  {
    label: 'every parked workflow cached (as the SDK sizes the cache from a large heap)',
    env: { CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS: String(PARKED * 2) },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kib ?? 0) * 1024;
}

/** Starts `workers/main.ts` in its own process and resolves once it polls. */
async function startWorkerProcess(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../workers/main.ts')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 120_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('polling')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}):\n${output}`)));
  });
  child.stdout.resume();
  child.stderr.resume();
  return child;
}

async function stopWorkerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
}

async function measure(env: TestWorkflowEnvironment, config: Configuration): Promise<void> {
  say(`\n  ${config.label}:`);
  const codecKeys = `bench:${randomBytes(32).toString('base64')}`;
  const dataConverter = createDataConverter(parseKeyList(codecKeys));
  const connection = await Connection.connect({ address: env.address });
  const client = new Client({ connection, dataConverter });
  const sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'real', seed: Math.floor(Math.random() * 2 ** 31) });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cardflow-bench-'));
  const receiver = await startWebhookReceiver({ platformPublicKey: sandbox.keys.platform.publicKey, client, dataDir });
  sandbox.setWebhookUrl(receiver.url);
  const taskQueue = `bench-parked-${randomUUID().slice(0, 8)}`;
  // Every provider operation the sandbox serves passes through its engine's handle().
  let requests = 0;
  const handle = sandbox.engine.handle.bind(sandbox.engine);
  sandbox.engine.handle = (...args) => {
    requests += 1;
    return handle(...args);
  };
  const worker = await startWorkerProcess({
    ...process.env,
    ...sandbox.env,
    ...config.env,
    CARDFLOW_ENV: 'sandbox',
    // The bench measures parked onboardings, not the reconciliation schedule's runs.
    CARDFLOW_RECONCILE_SCHEDULE: '0',
    TEMPORAL_ADDRESS: env.address,
    TEMPORAL_NAMESPACE: 'default',
    CARDFLOW_TASK_QUEUE: taskQueue,
    [KEYS_ENV]: codecKeys,
  });
  try {
    const idle = rssOf(worker.pid!);
    const t0 = performance.now();
    const refs: string[] = [];
    for (let i = 0; i < PARKED; i += 200) {
      const inputs = Array.from({ length: Math.min(200, PARKED - i) }, () =>
        onboardingInput('parked', 'review.stall', {}),
      );
      await Promise.all(inputs.map((input) => startOnboarding(client, input, { taskQueue })));
      refs.push(...inputs.map((input) => input.customerRef));
    }
    const query = `WorkflowType = 'cardholderOnboarding' AND TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running'`;
    let parked = 0;
    const deadline = Date.now() + PHASE_TIMEOUT_MS;
    while (Date.now() < deadline && parked < PARKED) {
      parked = (await client.workflow.count(query)).count;
      await sleep(1000);
    }
    await sleep(5000);
    const parkedRss = rssOf(worker.pid!);
    say(
      `    parked: ${parked} of ${PARKED} onboardings in review after ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
    say(
      `    worker process RSS: ${mib(idle)} idle -> ${mib(parkedRss)} with them parked (${((parkedRss - idle) / 1024 / Math.max(parked, 1)).toFixed(1)} KiB per onboarding)`,
    );

    // Waking: the first query to an onboarding long since evicted replays its history; a second one finds it cached.
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

    requests = 0;
    const window = 30_000;
    await sleep(window);
    say(
      `    provider requests meanwhile (probes of ${parked} parked reviews, ${window / 1000} s window): ${(requests / (window / 1000)).toFixed(2)} per second`,
    );
  } finally {
    await stopWorkerProcess(worker);
    await receiver.stop();
    await sandbox.stop();
    await connection.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function parkedMemory(env: TestWorkflowEnvironment): Promise<void> {
  say(
    `\n(d) a worker process with ${PARKED} onboardings parked in cardholder review (sandbox review stalled), each configuration in a fresh worker process`,
  );
  for (const config of CONFIGURATIONS) await measure(env, config);
}

/**
 * (f) What faults cost an onboarding: the same onboardings run twice on real worker processes
 * with the sandbox's real delays, once calm, once with a worker SIGKILLed every
 * BENCH_FAULT_KILL_EVERY_S seconds and the provider failing 10% of calls (HTTP 500) and dropping 5%
 * of answers after committing; prints each run's p50 and p90. Each mode of BENCH_FAULT_MODES runs
 * the pair: `idle`, and `hog` with a process this phase starts spinning on one core, so the busy
 * figure can be reproduced anywhere.
 */
import { Client, Connection } from '@temporalio/client';
import { decodeOptionalFailureToOptionalError } from '@temporalio/common/lib/internal-non-workflow/codec-helpers';
import { temporal } from '@temporalio/proto';
import { randomBytes, randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBenchOnboarding } from './reference';
import { createDataConverter } from '../../platform/codec/data-converter';
import { parseKeyList } from '../../platform/codec/keys';
import { DEFAULT_DELAYS, startSandbox } from '../sandbox/index';
import { startWorkerProcess, type WorkerProcess } from '../../test/integration/support/worker-process';
import { buildWorker, startPhaseReceiver } from './process-stack';
import { num, onboardingInput, say, withTimeout } from './harness';
import { percentile } from './stats';

const COUNT = num('BENCH_FAULT_ONBOARDINGS', 24);
const KILL_EVERY_MS = num('BENCH_FAULT_KILL_EVERY_S', 10) * 1000;
/** Onboardings start one per this many ms, so kills land on every stage of them. */
const START_EVERY_MS = 1_000;
const WORKERS = 3;
const PROVIDER_FAULTS = { errorRate: 0.1, dropResponseRate: 0.05 };
const MODES = (process.env.BENCH_FAULT_MODES ?? 'idle,hog').split(',').map((m) => m.trim());
for (const mode of MODES) {
  if (mode !== 'idle' && mode !== 'hog') throw new Error(`BENCH_FAULT_MODES: ${mode} is not one of idle, hog`);
}

const ROOT = path.join(__dirname, '..', '..');
const COMPILED_WORKER = path.join(ROOT, 'dist/workers/main.js');

interface Run {
  seconds: number[];
  kills: number;
}

export async function faultCost(address: string): Promise<void> {
  say(
    `\n(f) onboarding execution time with and without faults (${COUNT} onboardings each, B2B holder with a review, card with its deposit; sandbox's real delays; ${WORKERS} compiled worker processes; modes ${MODES.join(', ')})`,
  );
  // Built from the sources as checked out: a dist/ left by an earlier build would measure older
  // code.
  buildWorker();
  for (const mode of MODES) {
    const hog = mode === 'hog' ? startCpuHog() : undefined;
    try {
      say(`  ${mode === 'hog' ? 'with a CPU hog spinning on one core' : 'idle machine'}:`);
      const calm = await onboardings(address, false);
      say(`    calm:   ${describe(calm)}`);
      const faulty = await onboardings(address, true);
      say(
        `    faults: ${describe(faulty)}; ${faulty.kills} worker processes SIGKILLed (one each ${KILL_EVERY_MS / 1000} s), provider: ${PROVIDER_FAULTS.errorRate * 100}% HTTP 500, ${PROVIDER_FAULTS.dropResponseRate * 100}% answers dropped after commit`,
      );
      const ratio = percentile(faulty.seconds, 90) / percentile(calm.seconds, 90);
      say(`    p90 with faults / calm p90: ${ratio.toFixed(2)}x (target <= 1.5)`);
    } finally {
      hog?.kill('SIGKILL');
    }
  }
}

/** A process that keeps one core busy until killed: a loop with nothing to wait on. */
function startCpuHog(): ChildProcess {
  const hog = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  hog.unref();
  return hog;
}

function describe(run: Run): string {
  const p = (q: number) => percentile(run.seconds, q).toFixed(1);
  return `p50 ${p(50)} s, p90 ${p(90)} s, max ${Math.max(...run.seconds).toFixed(1)} s`;
}

function workerProcess(env: Record<string, string>): WorkerProcess {
  // The compiled worker loads the prebuilt workflow bundle: seconds to start instead of tens.
  return startWorkerProcess(env, { compiled: COMPILED_WORKER });
}

async function onboardings(address: string, faults: boolean): Promise<Run> {
  const sandbox = await startSandbox({
    delays: DEFAULT_DELAYS,
    clock: 'real',
    seed: Math.floor(Math.random() * 2 ** 31),
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cardflow-bench-faults-'));
  const codecKeys = `bench-faults:${randomBytes(32).toString('base64')}`;
  const taskQueue = `bench-faults-${randomUUID().slice(0, 8)}`;
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, dataConverter: createDataConverter(parseKeyList(codecKeys)) });
  const { receiver, routeDir } = await startPhaseReceiver(sandbox, client, dataDir);
  const env = {
    ...sandbox.env,
    CARDFLOW_TEMPORAL_ADDRESS: address,
    CARDFLOW_TEMPORAL_NAMESPACE: 'default',
    CARDFLOW_TASK_QUEUE: taskQueue,
    CARDFLOW_CODEC_KEYS: codecKeys,
    CARDFLOW_FILE_STORE_DIR: dataDir,
    CARDFLOW_ROUTE_DIR: routeDir,
  };
  const workers: WorkerProcess[] = [];
  const all: WorkerProcess[] = [];
  const add = () => {
    const worker = workerProcess(env);
    workers.push(worker);
    all.push(worker);
    return worker;
  };
  let kills = 0;
  let running = true;
  try {
    await Promise.all(Array.from({ length: WORKERS }, () => add().polling(180_000)));
    if (faults) sandbox.setFaults(PROVIDER_FAULTS);
    const killer = (async () => {
      while (faults && running) {
        await sleep(KILL_EVERY_MS);
        if (!running) break;
        const victim = workers.shift();
        if (!victim) continue;
        await victim.stop('SIGKILL');
        kills += 1;
        add();
      }
    })();
    const handles = [];
    for (let i = 0; i < COUNT; i += 1) {
      const input = onboardingInput(faults ? 'faults' : 'calm', 'bench', {});
      handles.push((await startBenchOnboarding(client, input, { taskQueue })).handle);
      await sleep(START_EVERY_MS);
    }
    await withTimeout(Promise.all(handles.map((h) => h.result())), `(f) ${COUNT} onboardings`);
    running = false;
    await killer;
    const seconds: number[] = [];
    for (const handle of handles) {
      const { startTime, closeTime } = await handle.describe();
      seconds.push((closeTime!.getTime() - startTime.getTime()) / 1000);
    }
    if (process.env.BENCH_FAULT_TRACE) {
      // The three slowest: the p90 of 24 is the third from the top.
      const slowest = handles
        .map((handle, i) => ({ handle, seconds: seconds[i]! }))
        .sort((a, b) => b.seconds - a.seconds)
        .slice(0, 3);
      for (const { handle, seconds: took } of slowest) {
        say(`  ${handle.workflowId}: ${took.toFixed(1)} s`);
        await traceGaps(client, [handle.workflowId, `${handle.workflowId}/cardholder`, `${handle.workflowId}/card`]);
      }
    }
    return { seconds, kills };
  } finally {
    running = false;
    await Promise.all(all.map((w) => w.stop('SIGKILL')));
    await receiver.stop();
    await sandbox.stop();
    await connection.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `WORKFLOW_EXECUTION_SIGNALED` for the event type's number, as the UI and the CLI name it. */
const eventName = (type: temporal.api.enums.v1.EventType | null | undefined): string =>
  (type === null || type === undefined ? undefined : temporal.api.enums.v1.EventType[type])?.replace(
    /^EVENT_TYPE_/,
    '',
  ) ?? String(type);

/**
 * Prints the events after the longest silences in these workflows' histories (BENCH_FAULT_TRACE=1:
 * the three slowest runs).
 */
async function traceGaps(client: Client, workflowIds: string[]): Promise<void> {
  for (const workflowId of workflowIds) {
    const history = await client.workflow
      .getHandle(workflowId)
      .fetchHistory()
      .catch(() => undefined);
    const events = history?.events ?? [];
    const at = (i: number) => {
      const t = events[i]!.eventTime!;
      return Number(t.seconds) * 1000 + Math.round((t.nanos ?? 0) / 1e6);
    };
    say(`  trace ${workflowId}: ${events.length} events`);
    for (let i = 1; i < events.length; i += 1) {
      const gap = at(i) - at(i - 1);
      if (gap < 1_500) continue;
      const e = events[i]!;
      const started = e.activityTaskStartedEventAttributes;
      // The attempt before's failure, its message decrypted with the run's codec.
      const lastFailure = await decodeOptionalFailureToOptionalError(
        client.options.loadedDataConverter,
        started?.lastFailure,
      ).catch(() => undefined);
      const failure = lastFailure?.message ?? e.workflowTaskTimedOutEventAttributes?.timeoutType ?? '';
      say(
        `    +${(gap / 1000).toFixed(1)} s -> #${i + 1} ${eventName(e.eventType)} ${started ? `attempt ${started.attempt} (${failure})` : String(failure)}`,
      );
    }
  }
}

/**
 * (a) continued: what metrics and tracing cost. Two compiled workers run side by side on the same
 * dev server and sandbox, each on a task queue of its own: one with telemetry off, one with
 * `CARDFLOW_METRICS_ADDRESS` (scraped every 5 s, as Prometheus would, more often) and
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (an OTLP sink here that takes and drops the spans). Batches of
 * happy onboardings alternate between them, and each worker process's CPU (all its threads,
 * /proc) is divided by the onboardings it completed: CPU per onboarding is steadier than
 * throughput on two shared cores.
 */
import { Client, Connection } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startOnboarding } from '../client/onboarding';
import { createDataConverter } from '../codec/data-converter';
import { KEYS_ENV, parseKeyList } from '../codec/keys';
import { TEST_SLOW_WAIT, TEST_WAIT, type WaitOverrides } from '../domain/wait-profile';
import { onboardingWorkflowId } from '../domain/workflow-ids';
import { startSandbox, ZERO_DELAYS } from '../sandbox/index';
import { freePort } from '../scripts/lib/free-port';
import { startWebhookReceiver } from '../webhooks/receiver';
import { ONBOARDINGS, ROUNDS, onboardingInput, say, withTimeout } from './harness';
import { buildWorker, startWorkerProcess, stopWorkerProcess } from './parked-memory';
import { percentile } from './stats';

const FAST: WaitOverrides = { cardOperation: TEST_WAIT, review: TEST_SLOW_WAIT };

/** CPU ms (user + system, every thread) of a process so far. */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** An OTLP/HTTP endpoint that accepts spans and drops them, counting requests. */
async function startOtlpSink(): Promise<{ url: string; requests: () => number; stop: () => Promise<void> }> {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function telemetryCost(env: TestWorkflowEnvironment): Promise<void> {
  say(
    `\n(a) telemetry cost: CPU per onboarding of the compiled worker process, metrics and tracing off vs on, ${ONBOARDINGS} onboardings a batch, ${ROUNDS} rounds`,
  );
  buildWorker();
  const codecKeys = `bench:${randomBytes(32).toString('base64')}`;
  const connection = await Connection.connect({ address: env.address });
  const client = new Client({ connection, dataConverter: createDataConverter(parseKeyList(codecKeys)) });
  const sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'real', seed: Math.floor(Math.random() * 2 ** 31) });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cardflow-bench-telemetry-'));
  const receiver = await startWebhookReceiver({ platformPublicKey: sandbox.keys.platform.publicKey, client, dataDir });
  sandbox.setWebhookUrl(receiver.url);
  const sink = await startOtlpSink();
  const metricsAddress = `127.0.0.1:${await freePort()}`;
  const common = {
    ...process.env,
    ...sandbox.env,
    CARDFLOW_ENV: 'sandbox',
    CARDFLOW_RECONCILE_SCHEDULE: '0',
    TEMPORAL_ADDRESS: env.address,
    TEMPORAL_NAMESPACE: 'default',
    [KEYS_ENV]: codecKeys,
  };
  const kinds = ['off', 'metrics', 'on'] as const;
  type Kind = (typeof kinds)[number];
  const queues = Object.fromEntries(kinds.map((k) => [k, `bench-tel-${k}-${randomUUID().slice(0, 8)}`])) as Record<
    Kind,
    string
  >;
  const metricsOnlyAddress = `127.0.0.1:${await freePort()}`;
  const workers: Partial<Record<Kind, ChildProcess>> = {};
  let scraper: NodeJS.Timeout | undefined;
  let scrapes = 0;
  try {
    workers.off = await startWorkerProcess({ ...common, CARDFLOW_TASK_QUEUE: queues.off });
    workers.metrics = await startWorkerProcess({
      ...common,
      CARDFLOW_TASK_QUEUE: queues.metrics,
      CARDFLOW_METRICS_ADDRESS: metricsOnlyAddress,
    });
    workers.on = await startWorkerProcess({
      ...common,
      CARDFLOW_TASK_QUEUE: queues.on,
      CARDFLOW_METRICS_ADDRESS: metricsAddress,
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    });
    scraper = setInterval(() => {
      for (const address of [metricsAddress, metricsOnlyAddress])
        fetch(`http://${address}/metrics`).then(
          (r) => r.text().then(() => (scrapes += 1)),
          () => undefined,
        );
    }, 5000);
    const batch = async (which: Kind, count: number) => {
      const pid = workers[which]!.pid!;
      const before = processCpuMs(pid);
      const inputs = Array.from({ length: count }, () => onboardingInput(`tel-${which}`, 'tel', FAST));
      await Promise.all(inputs.map((input) => startOnboarding(client, input, { taskQueue: queues[which] })));
      await withTimeout(
        Promise.all(inputs.map((input) => client.workflow.getHandle(onboardingWorkflowId(input.customerRef)).result())),
        `${count} onboardings (telemetry ${which})`,
      );
      return (processCpuMs(pid) - before) / count;
    };
    // Warm-up: the first onboardings pay for JIT and connections.
    for (const kind of kinds) await batch(kind, 5);
    const perOnboarding: Record<Kind, number[]> = { off: [], metrics: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in another order, so a neighbour's load does not always fall on the same one.
      const order = [...kinds.slice(round % 3), ...kinds.slice(0, round % 3)];
      for (const which of order) perOnboarding[which].push(await batch(which, ONBOARDINGS));
      say(
        `  round ${round + 1}: worker CPU per onboarding ${kinds.map((k) => `${k} ${perOnboarding[k].at(-1)!.toFixed(1)} ms`).join(', ')}`,
      );
    }
    const off = percentile(perOnboarding.off, 50);
    const versus = (k: Kind) => {
      const value = percentile(perOnboarding[k], 50);
      return `median ${value.toFixed(1)} ms (${(((value - off) / off) * 100).toFixed(1)}% vs off)`;
    };
    say(`  worker CPU per onboarding, telemetry off: median ${off.toFixed(1)} ms`);
    say(`  worker CPU per onboarding, metrics on: ${versus('metrics')}`);
    say(
      `  worker CPU per onboarding, metrics + tracing on: ${versus('on')} (${scrapes} scrapes, ${sink.requests()} OTLP exports)`,
    );
  } finally {
    if (scraper) clearInterval(scraper);
    await Promise.all(Object.values(workers).map((w) => stopWorkerProcess(w)));
    await receiver.stop();
    await sandbox.stop();
    await sink.stop();
    await connection.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

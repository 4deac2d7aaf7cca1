/**
 * (a) continued: what metrics and tracing cost. Four compiled workers on one dev server, each on
 * its own queue: telemetry off; metrics (scraped every 5 s); metrics and tracing with the default
 * sampling (spans to an OTLP sink that drops them); the same keeping every trace. This process
 * traces its starts as a backend would. Batches alternate between the workers, and each process's
 * CPU (all threads) is divided by the onboardings it completed, steadier than throughput on two
 * shared cores; the split by thread says where a difference lies.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startBenchOnboarding } from './reference';
import { TEST_SLOW_WAIT, TEST_WAIT, type WaitOverrides } from '../../domain/wait-profile';
import { onboardingWorkflowId } from '../../domain/workflow-ids';
import { freePort } from '../scripts/lib/free-port';
import { samplerFor } from '../../platform/telemetry/sampler';
import { DEFAULT_TRACE_RATIO } from '../../platform/config/values/sampler';
import { startTracing } from '../../platform/telemetry/tracing';
import { ONBOARDINGS, ROUNDS, onboardingInput, say, withTimeout } from './harness';
import { buildWorker, startProcessStack, startWorkerProcess, stopWorkerProcess } from './process-stack';
import { percentile } from './stats';

const FAST: WaitOverrides = { cardOperation: TEST_WAIT, review: TEST_SLOW_WAIT };

/** CPU ms (user + system) of one /proc stat line. */
function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * A thread's group: the JS main thread; Node's other threads (unnamed: the workflow thread, V8's
 * and libuv's helpers); core's Rust threads (tokio's, workflow-processing); others by name.
 */
function threadGroup(pid: number, tid: string, name: string): string {
  if (tid === String(pid)) return 'main thread';
  if (name === 'node') return 'workflow thread + V8/libuv helpers';
  if (/^(tokio|workflow-proces)/.test(name)) return 'core (Rust)';
  return name.replace(/[-\s]?\d+$/, '');
}

/** CPU ms so far of a process, by {@link threadGroup}. */
function threadCpuMs(pid: number): Record<string, number> {
  const byGroup: Record<string, number> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let ms: number;
    let name: string;
    try {
      ms = statCpuMs(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue; // the thread ended meanwhile
    }
    const group = threadGroup(pid, tid, name);
    byGroup[group] = (byGroup[group] ?? 0) + ms;
  }
  return byGroup;
}

/** CPU ms (user + system, every thread, ended ones included) of a process so far. */
function processCpuMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
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

/** Scrapes timed back to back at the end (/proc counts CPU in 10 ms ticks). */
const SCRAPES = 50;

/** The telemetry settings compared, each on a worker of its own. */
const KINDS = ['off', 'metrics', 'traced', 'traced-all'] as const;
type Kind = (typeof KINDS)[number];

const LABELS: Record<Kind, string> = {
  off: 'telemetry off',
  metrics: 'metrics on',
  traced: `metrics + tracing on, default sampling (${DEFAULT_TRACE_RATIO * 100}% of traces begun)`,
  'traced-all': 'metrics + tracing on, every trace kept',
};

/** Each setting's median CPU per onboarding against telemetry off, and where it goes by thread. */
function reportTelemetry(perOnboarding: Record<Kind, BatchCpu[]>): void {
  const median = (k: Kind) =>
    percentile(
      perOnboarding[k].map((b) => b.total),
      50,
    );
  const off = median('off');
  for (const kind of KINDS) {
    const value = median(kind);
    const versus = kind === 'off' ? '' : ` (${(((value - off) / off) * 100).toFixed(1)}% vs off)`;
    say(`  worker CPU per onboarding, ${LABELS[kind]}: median ${value.toFixed(1)} ms${versus}`);
  }
  // Where it goes: each thread group's median over the rounds, ms per onboarding.
  const groups = [...new Set(KINDS.flatMap((k) => perOnboarding[k].flatMap((b) => Object.keys(b.threads))))];
  const groupMedian = (k: Kind, g: string) =>
    percentile(
      perOnboarding[k].map((b) => b.threads[g] ?? 0),
      50,
    );
  const shown = groups.filter((g) => KINDS.some((k) => groupMedian(k, g) >= 1));
  say(`  by thread (median ms per onboarding): ${shown.join(' / ')}`);
  for (const kind of KINDS)
    say(`    ${kind.padEnd(10)} ${shown.map((g) => groupMedian(kind, g).toFixed(1)).join(' / ')}`);
}

/** What one scrape costs the worker (the core's exporter renders every series each time). */
async function reportScrapeCost(scraped: number, address: string): Promise<void> {
  const beforeScrapes = processCpuMs(scraped);
  let text = '';
  for (let i = 0; i < SCRAPES; i++) text = await (await fetch(`http://${address}/metrics`)).text();
  const series = text.split('\n').filter((line) => line && !line.startsWith('#')).length;
  say(
    `  one scrape of the metrics worker: ${((processCpuMs(scraped) - beforeScrapes) / SCRAPES).toFixed(1)} ms CPU, ${series} series, ${(text.length / 1024).toFixed(0)} KiB`,
  );
}

/** CPU per onboarding of one batch: the process's, and by thread group (ms). */
interface BatchCpu {
  total: number;
  threads: Record<string, number>;
}

export async function telemetryCost(env: TestWorkflowEnvironment): Promise<void> {
  say(
    `\n(a) telemetry cost: CPU per onboarding of the compiled worker process, metrics and tracing off vs on, ${ONBOARDINGS} onboardings a batch, ${ROUNDS} rounds (median)`,
  );
  buildWorker();
  const stack = await startProcessStack(env.address, 'cardflow-bench-telemetry-');
  const { connection, dataConverter, client } = stack;
  const sink = await startOtlpSink();
  // The backend this process plays: its starts traced with the default sampling (registered
  // globally, as a backend's own set-up would) or keeping every trace, spans to the sink.
  const backend = startTracing('bench-backend', { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url })!;
  const keepAll = new BasicTracerProvider({
    sampler: samplerFor({ name: 'parentbased_always_on' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${sink.url}/v1/traces` }))],
  });
  const tracedClient = (tracer: otel.Tracer) =>
    new Client({
      connection,
      dataConverter,
      interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer })] },
    });
  const clients: Record<Kind, Client> = {
    off: client,
    metrics: client,
    traced: tracedClient(backend.tracer),
    'traced-all': tracedClient(keepAll.getTracer('bench-backend')),
  };
  const common: NodeJS.ProcessEnv = { ...stack.workerEnv };
  for (const name of ['OTEL_TRACES_SAMPLER', 'OTEL_TRACES_SAMPLER_ARG', 'OTEL_EXPORTER_OTLP_ENDPOINT'])
    delete common[name];
  const queues = Object.fromEntries(KINDS.map((k) => [k, `bench-tel-${k}-${randomUUID().slice(0, 8)}`])) as Record<
    Kind,
    string
  >;
  const metricsAddresses: Partial<Record<Kind, string>> = {};
  for (const kind of KINDS) if (kind !== 'off') metricsAddresses[kind] = `127.0.0.1:${await freePort()}`;
  const kindEnv: Record<Kind, NodeJS.ProcessEnv> = {
    off: {},
    metrics: {},
    traced: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url },
    'traced-all': { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'parentbased_always_on' },
  };
  const workers: Partial<Record<Kind, ChildProcess>> = {};
  let scraper: NodeJS.Timeout | undefined;
  let scrapes = 0;
  try {
    for (const kind of KINDS)
      workers[kind] = await startWorkerProcess({
        ...common,
        ...kindEnv[kind],
        CARDFLOW_TASK_QUEUE: queues[kind],
        ...(metricsAddresses[kind] ? { CARDFLOW_METRICS_ADDRESS: metricsAddresses[kind] } : {}),
      });
    scraper = setInterval(() => {
      for (const address of Object.values(metricsAddresses))
        fetch(`http://${address}/metrics`).then(
          (r) => r.text().then(() => (scrapes += 1)),
          () => undefined,
        );
    }, 5000);
    const batch = async (which: Kind, count: number): Promise<BatchCpu> => {
      const pid = workers[which]!.pid!;
      const before = { total: processCpuMs(pid), threads: threadCpuMs(pid) };
      const inputs = Array.from({ length: count }, () => onboardingInput(`tel-${which}`, 'tel', FAST));
      await Promise.all(
        inputs.map((input) => startBenchOnboarding(clients[which], input, { taskQueue: queues[which] })),
      );
      await withTimeout(
        Promise.all(inputs.map((input) => client.workflow.getHandle(onboardingWorkflowId(input.customerRef)).result())),
        `${count} onboardings (${which})`,
      );
      const threads = threadCpuMs(pid);
      for (const group of Object.keys(threads))
        threads[group] = (threads[group]! - (before.threads[group] ?? 0)) / count;
      return { total: (processCpuMs(pid) - before.total) / count, threads };
    };
    // Warm-up: the first onboardings pay for JIT and connections.
    for (const kind of KINDS) await batch(kind, 5);
    const perOnboarding = Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Record<Kind, BatchCpu[]>;
    for (let round = 0; round < ROUNDS; round++) {
      // Each round in another order, so a neighbour's load does not always fall on the same one.
      const shift = round % KINDS.length;
      const order = [...KINDS.slice(shift), ...KINDS.slice(0, shift)];
      for (const which of order) perOnboarding[which].push(await batch(which, ONBOARDINGS));
      say(
        `  round ${round + 1}: worker CPU per onboarding ${KINDS.map((k) => `${k} ${perOnboarding[k].at(-1)!.total.toFixed(1)} ms`).join(', ')}`,
      );
    }
    reportTelemetry(perOnboarding);
    say(`  (${scrapes} scrapes, ${sink.requests()} OTLP exports)`);
    await reportScrapeCost(workers.metrics!.pid!, metricsAddresses.metrics!);
  } finally {
    if (scraper) clearInterval(scraper);
    await Promise.all(Object.values(workers).map((w) => stopWorkerProcess(w)));
    await keepAll.shutdown();
    await backend.shutdown();
    // The backend's global registration ends with this phase.
    otel.trace.disable();
    otel.context.disable();
    otel.propagation.disable();
    await sink.stop();
    await stack.stop();
  }
}

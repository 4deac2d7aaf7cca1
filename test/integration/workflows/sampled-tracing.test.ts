/**
 * Workflows trace the runs whose trace was kept where it began, and only those
 * (workflows/interceptors/tracing.ts): a worker with tracing on, its spans sent to a
 * local OTLP receiver, runs an onboarding a backend started with a sampled trace, one it started
 * with an unsampled trace, and one started with no trace at all, and a reconciliation run the
 * backend started with a sampled trace. The sampled ones are traced from the start through the
 * workflows to their activities; of the other two no workflow span is exported, and the unsampled
 * one's activities trace nothing either.
 */
import * as otel from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { Client } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import { startOnboarding } from '../../../client/onboarding';
import { startReconciliation } from '../../../client/reconciliation';
import { samplerFor } from '../../../platform/telemetry/sampler';
import { startTracing, type Tracing } from '../../../platform/telemetry/tracing';
import { type OtlpReceiver, startOtlpReceiver } from '../../cluster/support/otlp-receiver';
import { b2bOnboarding, customerRef, runCardflowWorker, startHarness, type Harness } from '../support/harness';
import { testTemporalServer } from '../support/temporal-env';
import { filledReferenceData } from '../support/reference-data';
import type { ReferenceData } from '../../../client/reference-data';

jest.setTimeout(180_000);

let h: Harness;
let otlp: OtlpReceiver;
let tracing: Tracing;
/** Filled before the starts, so a start reads no provider inside a backend's span. */
let reference: ReferenceData;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  // The worker's tracing, as workers/main.ts starts it (its context manager and propagator are
  // the process's, which the backend's tracers below use too). It keeps every trace it begins
  // itself, so only the start's decision can keep a run's activities out of the traces.
  tracing = startTracing('worker', {
    ...otlp.env,
    OTEL_TRACES_SAMPLER: 'parentbased_always_on',
  })!;
  h = await startHarness();
  reference = await filledReferenceData(h.provider);
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await tracing?.shutdown();
  await otlp?.stop();
  otel.trace.disable();
  otel.context.disable();
  otel.propagation.disable();
});

/** A backend whose sampler keeps every trace, or none. */
function backend(keep: boolean): { tracer: otel.Tracer; client: Client } {
  const tracer = new BasicTracerProvider({
    sampler: samplerFor({ name: keep ? 'always_on' : 'always_off' }),
  }).getTracer('backend');
  const client = new Client({
    connection: h.client.connection,
    namespace: testTemporalServer().namespace,
    interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer })] },
  });
  return { tracer, client };
}

function onboarding(tag: string) {
  return b2bOnboarding(tag, { initialDeposit: '25' });
}

/**
 * Starts an onboarding (or a reconciliation run) inside a backend span; returns its trace id and
 * the run's result.
 */
async function startTraced(
  keep: boolean,
  tag: string,
  what: 'onboarding' | 'reconciliation' = 'onboarding',
): Promise<{ traceId: string; workflowId: string; done: Promise<unknown> }> {
  const { tracer, client } = backend(keep);
  return tracer.startActiveSpan(`backend ${tag}`, async (span) => {
    const handle =
      what === 'onboarding'
        ? (await startOnboarding(client, onboarding(tag), { taskQueue: h.taskQueue, referenceData: reference })).handle
        : await startReconciliation(
            client,
            { since: Date.now() - 60_000 },
            { taskQueue: h.taskQueue, workflowId: `${customerRef(tag)}-reconcile` },
          );
    span.end();
    return { traceId: span.spanContext().traceId, workflowId: handle.workflowId, done: handle.result() };
  });
}

it('a sampled start is traced through the workflows to the activities; an unsampled or untraced one exports no workflow span', async () => {
  const tracedWorker = {
    taskQueue: h.taskQueue,
    activityDeps: { provider: h.provider, routes: h.routes },
    tracing,
  };
  const { sampled, unsampled, reconciled, droppedId, untracedId } = await runCardflowWorker(tracedWorker, async () => {
    const kept = await startTraced(true, 'traced-kept');
    const dropped = await startTraced(false, 'traced-dropped');
    const reconciliation = await startTraced(true, 'traced-reconcile', 'reconciliation');
    // A backend that does not trace (the tier's own client traces half of the workflows it calls).
    const plain = new Client({ connection: h.client.connection, namespace: testTemporalServer().namespace });
    const { handle } = await startOnboarding(plain, onboarding('untraced'), {
      taskQueue: h.taskQueue,
      referenceData: reference,
    });
    await Promise.all([kept.done, dropped.done, reconciliation.done, handle.result()]);
    return {
      sampled: kept.traceId,
      unsampled: dropped.traceId,
      reconciled: reconciliation.traceId,
      droppedId: dropped.workflowId,
      untracedId: handle.workflowId,
    };
  });
  await tracing.spanProcessor.forceFlush();

  const names = (traceId: string) => new Set(otlp.spans.filter((s) => s.traceId === traceId).map((s) => s.name));
  const kept = names(sampled);
  for (const name of [
    'RunWorkflow:customerOnboarding',
    'StartChildWorkflow:cardIssuance',
    'RunWorkflow:cardIssuance',
    'StartActivity:createCard',
    'RunActivity:createCard',
  ])
    expect({ name, kept: kept.has(name) }).toEqual({ name, kept: true });
  expect(names(unsampled).size).toBe(0);
  // The unsampled start's decision reaches its activities and children, which trace nothing;
  // the untraced run's activities begin traces of their own (kept here: the worker keeps all).
  const ofRun = (workflowId: string) =>
    otlp.spans.filter((s) => String(s.attributes.temporalWorkflowId ?? '').startsWith(workflowId));
  expect(ofRun(droppedId).map((s) => s.name)).toEqual([]);
  expect(ofRun(untracedId).filter((s) => s.name.startsWith('RunActivity:')).length).toBeGreaterThan(0);
  // A reconciliation run a backend starts is traced the same way.
  const reconciliation = names(reconciled);
  for (const name of ['RunWorkflow:reconciliation', 'RunActivity:beginReconciliation', 'RunActivity:checkBalances'])
    expect({ name, kept: reconciliation.has(name) }).toEqual({ name, kept: true });
  // Workflow spans come only from the sampled runs: the untraced one loaded no tracing.
  const workflowSide = otlp.spans.filter((s) => /^(RunWorkflow|StartActivity|StartChildWorkflow):/.test(s.name));
  expect(workflowSide.length).toBeGreaterThan(0);
  expect(workflowSide.filter((s) => s.traceId !== sampled && s.traceId !== reconciled)).toEqual([]);
});

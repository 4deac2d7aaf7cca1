import { configured } from '../support/configured';
/**
 * What operators see of the production topology: a real Prometheus (Debian's) scrapes every
 * cardflow process (two workers, two receivers, the codec server) and every Temporal host, and
 * evaluates tools/deploy/prometheus/cardflow-rules.yml with short `for:` and SLAs
 * (support/alert-rules.ts). After a full onboarding no metric label on any endpoint carries a
 * customer reference, a holder id, a card id or personal data; an onboarding left in review past
 * its SLA fires the stuck alert and the sandbox's 5xx fire the provider-error alert, both read back
 * from Prometheus's API; a reconciliation run's findings are counted by kind and its drift alerts
 * with the kind; and every query of the Grafana dashboard returns series. Every process also
 * exports traces to a small OTLP receiver in this test: one trace runs from a backend's
 * `startOnboarding` through the workflow and its activities to the signed provider calls, and a
 * webhook's receipt is the parent of the signal it delivered.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type WorkflowHandle } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import { startOnboarding as startOnboardingFromBackend } from '../../client/onboarding';
import { createDataConverter } from '../../platform/codec/data-converter';
import { parseKeyList } from '../../platform/codec/keys';
import { type Tracing, startTracing } from '../../platform/telemetry/tracing';
import { runReconciliation } from '../../client/reconciliation';
import { FINDING_KINDS } from '../../domain/reconciliation';
import type { OnboardingResult } from '../../domain/customer-onboarding';
import { type RunningPrometheus, startPrometheus } from '../../tools/scripts/cluster/prometheus';
import { CARD_TYPES, FAST_WAIT, customerRef, startOnboardingWorkflow } from '../integration/support/harness';
import { b2bHolder, uniqueEmail } from '../integration/support/holders';
import { writeTestRules } from './support/alert-rules';
import { HOSTS } from '../../tools/scripts/cluster/temporal-cluster';
import { CLUSTER_ENV } from './support/control';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver';
import { type ClusterWorld, startClusterWorld, until } from './support/world';
import { sandboxReferenceData } from '../integration/support/reference-data';

let w: ClusterWorld;
let prometheus: RunningPrometheus;
let otlp: OtlpReceiver;
let backendTracing: Tracing;
const temporalTargets = (process.env[CLUSTER_ENV.temporalMetrics] ?? '').split(',').filter(Boolean);

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  // This test process plays the backend: its spans go to the same receiver, and it keeps every
  // trace it begins. So do the cardflow processes here (the webhook receipts begin traces);
  // test/integration/workflows/sampled-tracing.test.ts checks what sampling leaves out.
  const keepAll = { OTEL_TRACES_SAMPLER: 'parentbased_always_on' };
  backendTracing = startTracing('backend', configured({ ...otlp.env, ...keepAll }))!;
  w = await startClusterWorld({
    label: 'observe',
    services: {
      metrics: { sampleSeconds: 1 },
      codecServer: true,
      extraEnv: { ...otlp.env, ...keepAll },
    },
  });
  const byJob = (job: string) => w.services.metricsTargets.filter((t) => t.job === job).map((t) => t.address);
  prometheus = await startPrometheus(w.group, w.dir, {
    intervalSeconds: 1,
    ruleFiles: [writeTestRules(w.dir)],
    jobs: [
      { job: 'cardflow-worker', targets: byJob('worker') },
      { job: 'cardflow-webhooks', targets: byJob('webhooks') },
      { job: 'cardflow-codec-server', targets: byJob('codec-server') },
      { job: 'temporal', targets: temporalTargets },
    ],
  });
});
afterAll(async () => {
  await w?.stop();
  await backendTracing?.shutdown();
  await otlp?.stop();
});

interface Sample {
  metric: Record<string, string>;
}

async function promQuery(expr: string): Promise<Sample[]> {
  const response = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await response.json()) as { status: string; error?: string; data?: { result: Sample[] } };
  if (body.status !== 'success') throw new Error(`${expr}: ${body.error ?? response.status}`);
  return body.data!.result;
}

async function firing(alertname: string): Promise<Array<Record<string, string>>> {
  const response = await fetch(`${prometheus.url}/api/v1/alerts`);
  const body = (await response.json()) as {
    data: { alerts: Array<{ labels: Record<string, string>; state: string }> };
  };
  return body.data.alerts.filter((a) => a.labels.alertname === alertname && a.state === 'firing').map((a) => a.labels);
}

/** Every label value of a Prometheus text exposition. */
function labelValues(text: string): string[] {
  const values: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const labels = /\{(.*)\}/.exec(line)?.[1];
    if (!labels) continue;
    for (const match of labels.matchAll(/[a-zA-Z_][a-zA-Z0-9_]*="((?:[^"\\]|\\.)*)"/g)) values.push(match[1]!);
  }
  return values;
}

/** Each sample line's metric name with its label names. */
function labelNames(text: string): Array<{ metric: string; names: string[] }> {
  const found: Array<{ metric: string; names: string[] }> = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\}/.exec(line);
    if (!match) continue;
    const names = [...match[2]!.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="(?:[^"\\]|\\.)*"/g)].map((m) => m[1]!);
    found.push({ metric: match[1]!, names });
  }
  return found;
}

/**
 * The labels the SDK's worker meter adds to what is recorded through it (docs/observability.md,
 * "Label names").
 */
const SDK_TAGS = new Set(['namespace', 'taskQueue']);

const fullOnboarding = { ref: customerRef('observe-b2b'), email: uniqueEmail('observe.b2b') };

it('after a full onboarding, no label of any endpoint names the customer, the holder, the card or personal data', async () => {
  const holder = b2bHolder(fullOnboarding.email);
  const handle = await startOnboardingWorkflow(w, {
    customerRef: fullOnboarding.ref,
    cardTypeId: CARD_TYPES.b2bWithDeposit,
    holder,
    initialDeposit: '100',
    wait: FAST_WAIT,
  });
  const result = (await handle.result()) as OnboardingResult;
  // The codec server decodes as the Web UI asks it to, once refused (no JSON) and once served.
  const codecUrl = w.services.codecServerUrl!;
  expect((await fetch(`${codecUrl}/decode`, { method: 'POST', body: 'not json' })).status).toBe(400);
  const encoded = await fetch(`${codecUrl}/encode`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      payloads: [{ metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: 'e30=' }],
    }),
  });
  expect(encoded.status).toBe(200);

  const secrets = [
    fullOnboarding.ref,
    fullOnboarding.email,
    result.cardholder?.holderId,
    result.card.merchantOrderNo,
    result.card.cardNo,
    holder.firstName,
    holder.lastName,
    holder.mobile,
    ...w.sandbox.commits().flatMap((c) => Object.values(c.refs)),
  ].filter((s): s is string => typeof s === 'string' && s.length >= 4);
  const endpoints = [...w.services.metricsTargets.map((t) => t.address), ...temporalTargets];
  // Two workers, two receivers, the codec server; the Temporal hosts, the internal frontend
  // included.
  expect(endpoints.length).toBe(2 + 2 + 1 + HOSTS.length);
  const scraped: Record<string, string> = {};
  for (const address of endpoints) scraped[address] = await (await fetch(`http://${address}/metrics`)).text();
  const all = Object.values(scraped).join('\n');
  // What this onboarding did is there, by operation and outcome only.
  expect(all).toMatch(/cardflow_provider_calls_total\{[^}]*operation="createCard"[^}]*outcome="ok"/);
  expect(all).toMatch(/cardflow_webhook_deliveries_total\{[^}]*outcome="forwarded"/);
  expect(all).toMatch(
    /cardflow_workflows_closed_total\{[^}]*outcome="completed"[^}]*workflow_type="customerOnboarding"/,
  );
  expect(all).toMatch(/cardflow_codec_requests_total\{[^}]*code="400"/);
  expect(all).toMatch(/temporal_workflow_task_schedule_to_start_latency_seconds_bucket/);
  // Every cardflow process says which build it runs and how much memory it holds, and names
  // every label of its cardflow_ metrics in snake_case (the SDK's own tags aside).
  for (const { address } of w.services.metricsTargets) {
    const text = scraped[address]!;
    expect({
      address,
      buildInfo: /^cardflow_build_info\{(?=[^}]*build_id="\w+")(?=[^}]*version="[^"]+")[^}]*\} 1$/m.test(text),
    }).toEqual({ address, buildInfo: true });
    expect({ address, rss: /^process_resident_memory_bytes(\{[^}]*\})? [1-9]/m.test(text) }).toEqual({
      address,
      rss: true,
    });
    const camel = labelNames(text)
      .filter(({ metric }) => metric.startsWith('cardflow_'))
      .flatMap(({ metric, names }) =>
        names.filter((n) => !SDK_TAGS.has(n) && !/^[a-z][a-z0-9_]*$/.test(n)).map((n) => `${metric}{${n}}`),
      );
    expect({ address, camel }).toEqual({ address, camel: [] });
  }
  for (const [address, text] of Object.entries(scraped)) {
    const values = labelValues(text);
    expect(values.length).toBeGreaterThan(0);
    const leaks = values.filter((value) => secrets.some((secret) => value.includes(secret)));
    expect({ address, leaks }).toEqual({ address, leaks: [] });
  }
});

it('Prometheus scrapes every cardflow process and every Temporal host', async () => {
  const up = await until(
    () => promQuery('up == 1'),
    (samples) => samples.length === 5 + HOSTS.length,
    { timeoutMs: 60_000 },
  );
  const jobs = up.map((s) => s.metric.job).sort();
  expect(jobs).toEqual([
    'cardflow-codec-server',
    'cardflow-webhooks',
    'cardflow-webhooks',
    'cardflow-worker',
    'cardflow-worker',
    ...HOSTS.map(() => 'temporal'),
  ]);
});

it('an onboarding left in review past its SLA fires CardflowOnboardingStuck for that stage', async () => {
  const ref = customerRef('observe-stall');
  const handle = await startOnboardingWorkflow(w, {
    customerRef: ref,
    cardTypeId: CARD_TYPES.b2bWithDeposit,
    // The sandbox keeps this holder in review until a helper decides it.
    holder: b2bHolder(uniqueEmail('review.stall')),
    initialDeposit: '20',
    wait: FAST_WAIT,
  });
  try {
    const alerts = await until(
      () => firing('CardflowOnboardingStuck'),
      (found) => found.some((labels) => labels.stage === 'cardholder_review'),
      { timeoutMs: 90_000 },
    );
    expect(alerts.find((labels) => labels.stage === 'cardholder_review')).toMatchObject({ severity: 'warning' });
  } finally {
    await handle.cancel();
  }
});

it("the provider's 5xx fire CardflowProviderErrorRatioHigh, and the onboardings still complete once", async () => {
  w.sandbox.setFaults({ errorRate: 0.5 });
  const handles: WorkflowHandle[] = [];
  try {
    for (let i = 0; i < 2; i++)
      handles.push(
        await startOnboardingWorkflow(w, {
          customerRef: customerRef(`observe-faults-${i}`),
          cardTypeId: CARD_TYPES.b2bWithDeposit,
          holder: b2bHolder(uniqueEmail(`observe.faults${i}`)),
          initialDeposit: '10',
          wait: FAST_WAIT,
        }),
      );
    const alerts = await until(
      () => firing('CardflowProviderErrorRatioHigh'),
      (found) => found.length > 0,
      { timeoutMs: 120_000 },
    );
    expect(alerts[0]).toMatchObject({ severity: 'critical' });
    // A mutation answered 500 is looked up before it is sent again, and that shows too.
    await until(
      () => promQuery('sum by (reason, result) (cardflow_provider_lookups_total)'),
      (samples) => samples.length > 0,
      { timeoutMs: 120_000 },
    );
  } finally {
    w.sandbox.setFaults({ reset: true });
  }
  await Promise.all(handles.map((h) => h.result()));
});

/** `cardflow_reconciliation_findings_total` by kind, summed over every worker's endpoint now. */
async function findingsByKind(): Promise<Record<string, number>> {
  const byKind: Record<string, number> = {};
  for (const target of w.services.metricsTargets.filter((t) => t.job === 'worker')) {
    const text = await (await fetch(`http://${target.address}/metrics`)).text();
    for (const match of text.matchAll(/^cardflow_reconciliation_findings_total\{([^}]*)\} (\S+)$/gm)) {
      const kind = /kind="([^"]*)"/.exec(match[1]!)?.[1] ?? '';
      byKind[kind] = (byKind[kind] ?? 0) + Number(match[2]);
    }
  }
  return byKind;
}

it("a reconciliation run's findings are counted by kind, and its drift alerts with the kind", async () => {
  // Every kind has its series from the workers' start, so a first run's findings are an increase.
  const before = await findingsByKind();
  expect(Object.keys(before).sort()).toEqual(Object.values(FINDING_KINDS).sort());
  // A wallet floor above any balance: the run reports the wallet below it, drift for an operator.
  const report = await runReconciliation(
    w.client,
    { config: { walletFloor: '1000000000.00' } },
    { taskQueue: w.taskQueue },
  );
  expect(report.counts[FINDING_KINDS.belowFloor]).toBeGreaterThan(0);
  // The workflow's records reach the worker's meter once its last activation is done.
  const counted = (now: Record<string, number>) =>
    Object.values(FINDING_KINDS).every((kind) => now[kind]! - before[kind]! === (report.counts[kind] ?? 0));
  const after = await until(findingsByKind, counted, { timeoutMs: 30_000 }).catch(() => findingsByKind());
  for (const kind of Object.values(FINDING_KINDS))
    expect({ kind, counted: after[kind]! - before[kind]! }).toEqual({ kind, counted: report.counts[kind] ?? 0 });
  const alerts = await until(
    () => firing('CardflowReconciliationDrift'),
    (found) => found.some((labels) => labels.kind === FINDING_KINDS.belowFloor),
    { timeoutMs: 60_000 },
  );
  expect(alerts.find((labels) => labels.kind === FINDING_KINDS.belowFloor)).toMatchObject({ severity: 'warning' });
});

it('every query of the Grafana dashboard returns series', async () => {
  // Reconciliation's gauges need a completed run.
  await runReconciliation(w.client, {}, { taskQueue: w.taskQueue });
  await until(
    () => promQuery('cardflow_reconciliation_last_success_timestamp_seconds'),
    (samples) => samples.length > 0,
    { timeoutMs: 60_000 },
  );
  const dashboard = JSON.parse(
    readFileSync(join(__dirname, '../../tools/deploy/grafana/cardflow-dashboard.json'), 'utf8'),
  ) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
  };
  const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
  expect(queries.length).toBeGreaterThan(20);
  const empty: string[] = [];
  for (const { panel, expr } of queries) {
    const samples = await promQuery(expr.replaceAll('$__rate_interval', '1m'));
    if (samples.length === 0) empty.push(`${panel}: ${expr}`);
  }
  expect(empty).toEqual([]);
});

it("one trace runs from a backend's startOnboarding to each signed provider call; a webhook's receipt is the parent of its signal", async () => {
  const client = new Client({
    connection: w.client.connection,
    namespace: w.client.options.namespace,
    dataConverter: createDataConverter(parseKeyList(w.codecKeys)),
    interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] },
  });
  const email = uniqueEmail('observe.trace');
  const holder = b2bHolder(email);
  const { backendSpan, handle } = await backendTracing.tracer.startActiveSpan(
    'backend onboards a customer',
    async (span) => {
      const started = await startOnboardingFromBackend(
        client,
        {
          customerRef: customerRef('observe-trace'),
          cardTypeId: CARD_TYPES.b2bWithDeposit,
          holder,
          initialDeposit: '30',
          wait: FAST_WAIT,
        },
        // Checked against the reference data as a backend with the provider settings reads it.
        { taskQueue: w.taskQueue, referenceData: sandboxReferenceData(w.provider) },
      );
      span.end();
      return { backendSpan: span.spanContext(), handle: started.handle };
    },
  );
  const result = await handle.result();
  await backendTracing.spanProcessor.forceFlush();

  const inTrace = (): ReceivedSpan[] => otlp.spans.filter((s) => s.traceId === backendSpan.traceId);
  const named = (name: string) => inTrace().filter((s) => s.name === name);
  // The workers export in batches (each second), a workflow's run span once it has ended.
  await until(
    async () => [...new Set(inTrace().map((s) => s.name))].sort(),
    (names) =>
      ['provider createCard', 'RunWorkflow:cardIssuance', 'RunWorkflow:customerOnboarding'].every((n) =>
        names.includes(n),
      ),
    { timeoutMs: 60_000 },
  );
  const start = named('StartWorkflow:customerOnboarding');
  expect(start).toHaveLength(1);
  expect(start[0]!.parentSpanId).toBe(backendSpan.spanId);
  expect(named('RunWorkflow:customerOnboarding').length).toBeGreaterThan(0);
  expect(named('RunWorkflow:cardIssuance').length).toBeGreaterThan(0);
  // The provider call is a child of its activity's span, with its operation and key, never a body.
  const createCard = named('provider createCard');
  expect(createCard).toHaveLength(1);
  expect(createCard[0]!.attributes).toEqual({
    'cardflow.provider.operation': 'createCard',
    'cardflow.merchant_order_no': result.card.merchantOrderNo,
  });
  const activity = inTrace().find((s) => s.spanId === createCard[0]!.parentSpanId);
  expect(activity?.name).toMatch(/^RunActivity:/);
  expect(activity?.service).toBe('cardflow-worker');
  const personal = [email, holder.firstName, holder.lastName, holder.mobile];
  const values = otlp.spans.flatMap((s) => Object.values(s.attributes).map(String));
  expect(values.filter((v) => personal.some((p) => v.includes(p)))).toEqual([]);

  // Webhooks: the receiver's span of a delivery is the parent of the signal the client sent.
  const receipts = otlp.spans.filter((s) => s.service === 'cardflow-webhooks' && s.name.startsWith('webhook '));
  expect(receipts.length).toBeGreaterThan(0);
  const signals = otlp.spans.filter(
    (s) => s.name === 'SignalWorkflow:providerEvent' && receipts.some((r) => r.spanId === s.parentSpanId),
  );
  expect(signals.length).toBeGreaterThan(0);
  // ... and the workflow's handling of it is in the receipt's trace.
  await until(
    async () => otlp.spans.filter((s) => s.name === 'HandleSignal:providerEvent'),
    (handled) => handled.some((h) => signals.some((s) => s.traceId === h.traceId)),
    { timeoutMs: 30_000 },
  );
});

/**
 * The secrets scan of metrics and spans (test/integration/support/telemetry-scan.ts) finds what it
 * looks for where it can hide: secrets planted in a span's attribute, event, link and status and in
 * the resource, exported by cardflow's own tracing over OTLP to a real endpoint, and in the label
 * of a real prom-client registry scraped over HTTP. The same outputs without them give no find.
 */
import { randomBytes } from 'node:crypto';
import * as otel from '@opentelemetry/api';
import { Counter, Registry } from 'prom-client';
import { startMetricsServer } from '../../../../platform/telemetry/metrics-server';
import { startTracing } from '../../../../platform/telemetry/tracing';
import { startOtlpReceiver, type OtlpReceiver } from '../../../cluster/support/otlp-receiver';
import { configured } from '../../../support/configured';
import {
  documentSecrets,
  metricFields,
  secretsIn,
  spanOutputs,
  type SecretsToFind,
} from '../../../integration/support/telemetry-scan';

const document = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(`passport ${randomBytes(12).toString('hex')} page`),
]);
const marker = document.subarray(8).toString('latin1');
const secrets: SecretsToFind = {
  values: [
    { what: 'the card number', value: '5229810012345678' },
    { what: 'the expiry', value: '11/29' },
    { what: 'the PIN', value: '246810' },
    { what: 'the activation code', value: '975310' },
    ...documentSecrets('passport', document, marker),
  ],
  cvv: { cvv: '417', expiry: '11/29' },
};

let otlp: OtlpReceiver;
beforeEach(async () => {
  otlp = await startOtlpReceiver();
});
afterEach(async () => {
  await otlp.stop();
  otel.trace.disable();
  otel.context.disable();
  otel.propagation.disable();
});

/** Exports what `record` makes with cardflow's tracing (resource from `resource`), all of it. */
async function exported(record: (tracer: otel.Tracer) => void, resource = 'deployment.environment=test') {
  const tracing = startTracing(
    'scan',
    configured({ ...otlp.env, OTEL_TRACES_SAMPLER: 'always_on', OTEL_RESOURCE_ATTRIBUTES: resource }),
  )!;
  record(tracing.tracer);
  await tracing.shutdown();
  expect(otlp.requests.length).toBeGreaterThan(0);
  return spanOutputs(otlp.requests);
}

/** Spans as cardflow makes them: ids, operation names and merchantOrderNos, numbers. */
function ordinarySpans(tracer: otel.Tracer): void {
  const span = tracer.startSpan('provider updatePin', {
    attributes: { 'cardflow.provider.operation': 'updatePin', 'cardflow.merchant_order_no': 'T4c1d9e0' },
  });
  span.addEvent('answered', { 'cardflow.provider.code': 200, durationMs: 246 });
  span.setStatus({ code: otel.SpanStatusCode.ERROR, message: 'card 1234567890123456789 is Freeze' });
  span.end();
}

it('finds a secret in a span attribute, an event, a link, a status message and the resource', async () => {
  const outputs = await exported(
    (tracer) => {
      const linked = tracer.startSpan('linked');
      linked.end();
      const span = tracer.startSpan('RunActivity:activatePhysicalCard', {
        attributes: { card: '5229810012345678', detail: '{"cvv":"417","expireDate":"11/29"}' },
        links: [{ context: linked.spanContext(), attributes: { pins: ['000000', '246810'] } }],
      });
      span.addEvent('upload', { body: document.toString('base64') });
      span.setStatus({ code: otel.SpanStatusCode.ERROR, message: 'activeCode 975310 refused' });
      span.end();
      tracer.startSpan(`echo ${marker}`).end();
    },
    `cardflow.note=${document.subarray(8).toString('hex')}`,
  );
  expect(secretsIn(outputs, secrets).sort()).toEqual(
    [
      'span "RunActivity:activatePhysicalCard" of cardflow-scan holds the card number',
      'span "RunActivity:activatePhysicalCard" of cardflow-scan holds the expiry',
      'span "RunActivity:activatePhysicalCard" of cardflow-scan holds the CVV',
      'span "RunActivity:activatePhysicalCard" of cardflow-scan holds the PIN',
      'span "RunActivity:activatePhysicalCard" of cardflow-scan holds the activation code',
      'span "RunActivity:activatePhysicalCard" of cardflow-scan holds passport bytes in base64',
      `span "echo ${marker}" of cardflow-scan holds passport bytes`,
      'the resource of cardflow-scan holds passport bytes in hex',
    ].sort(),
  );
});

it('finds nothing in spans that carry ids, names and numbers only', async () => {
  const outputs = await exported(ordinarySpans);
  expect(outputs.map((o) => o.where)).toContain('span "provider updatePin" of cardflow-scan');
  expect(secretsIn(outputs, secrets)).toEqual([]);
});

it('finds a secret in a metric label of a scraped endpoint, and none in sample values or bounds', async () => {
  const registry = new Registry();
  const calls = new Counter({
    name: 'cardflow_provider_calls_total',
    help: 'Provider calls sent',
    labelNames: ['operation', 'outcome'],
    registers: [registry],
  });
  // Numbers are never searched: a count that equals the PIN is no leak.
  calls.inc({ operation: 'updatePin', outcome: 'ok' }, 246810);
  const server = await startMetricsServer({ host: '127.0.0.1', port: 0, bindAddress: '127.0.0.1:0' }, registry);
  try {
    const scrape = async () => metricFields(await (await fetch(server.url)).text());
    const clean = await scrape();
    expect(clean).toEqual(expect.arrayContaining(['cardflow_provider_calls_total', 'updatePin', 'ok']));
    expect(secretsIn([{ where: 'metrics', fields: clean }], secrets)).toEqual([]);

    calls.inc({ operation: 'updatePin', outcome: 'refused pin 246810' });
    calls.inc({ operation: 'uploadFile', outcome: `"${marker}"\n` });
    calls.inc({ operation: 'card 5229810012345678', outcome: '417' });
    expect(secretsIn([{ where: 'metrics', fields: await scrape() }], secrets).sort()).toEqual(
      [
        'metrics holds the PIN',
        'metrics holds passport bytes',
        'metrics holds the card number',
        'metrics holds the CVV',
      ].sort(),
    );
  } finally {
    await server.stop();
  }
});

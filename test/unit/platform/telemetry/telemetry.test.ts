/**
 * The pieces of cardflow's metrics and tracing that decide something: the metrics address, the
 * outcome of a provider call, the receiver's and codec server's counters (bounded labels), when
 * tracing is on, and which traces are kept.
 */
import * as otel from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { defaultPayloadConverter } from '@temporalio/common';
import { Registry } from 'prom-client';
import { callOutcomeOf } from '../../../../provider/call-outcome';
import * as errors from '../../../../provider/errors';
import { codecServerMetrics } from '../../../../platform/codec/metrics';
import { parseMetricsAddress } from '../../../../platform/config/values/metrics-address';
import { samplerFor } from '../../../../platform/telemetry/sampler';
import { samplerSetting } from '../../../../platform/telemetry/sampler-setting';
import { tracingConfigured } from '../../../../platform/telemetry/tracing-config';
import { receiverMetrics } from '../../../../webhooks/metrics';
import { workerMetrics } from '../../../../workers/telemetry';
import { sampledTraceIn } from '../../../../workflows/interceptors/tracing';
import { configured } from '../../../support/configured';

describe('CARDFLOW_METRICS_ADDRESS', () => {
  it('takes host:port, IPv6 in brackets, and is off when unset', () => {
    expect(parseMetricsAddress('0.0.0.0:9464')).toEqual({ host: '0.0.0.0', port: 9464, bindAddress: '0.0.0.0:9464' });
    expect(parseMetricsAddress('[::]:9464')).toEqual({ host: '::', port: 9464, bindAddress: '[::]:9464' });
    expect(parseMetricsAddress('worker.internal:9000').host).toBe('worker.internal');
    expect(configured({}).CARDFLOW_METRICS_ADDRESS).toBeUndefined();
    expect(configured({ CARDFLOW_METRICS_ADDRESS: '  ' }).CARDFLOW_METRICS_ADDRESS).toBeUndefined();
  });

  it.each(['9464', ':9464', 'host:0', 'host:70000', 'http://host:9464', 'a b:1'])(
    'refuses %p naming the variable',
    (raw) => {
      expect(() => configured({ CARDFLOW_METRICS_ADDRESS: raw })).toThrow(
        /\n- CARDFLOW_METRICS_ADDRESS: must be host:port/,
      );
    },
  );

  it("the worker's sample interval is whole seconds, at least 1", () => {
    expect(workerMetrics(configured({}))).toBeUndefined();
    expect(workerMetrics(configured({ CARDFLOW_METRICS_ADDRESS: '127.0.0.1:9464' }))).toEqual({
      bindAddress: '127.0.0.1:9464',
      sampleIntervalMs: 30_000,
    });
    expect(
      workerMetrics(configured({ CARDFLOW_METRICS_ADDRESS: '127.0.0.1:9464', CARDFLOW_METRICS_SAMPLE_SECONDS: '5' }))
        ?.sampleIntervalMs,
    ).toBe(5000);
    expect(() =>
      workerMetrics(configured({ CARDFLOW_METRICS_ADDRESS: '127.0.0.1:9464', CARDFLOW_METRICS_SAMPLE_SECONDS: '0' })),
    ).toThrow(/\n- CARDFLOW_METRICS_SAMPLE_SECONDS: must be a whole number of seconds/);
  });
});

it("a provider call's outcome: refused is the provider's decision, ambiguous may have gone through", () => {
  expect(callOutcomeOf(new errors.ProviderBusinessError({ code: 40001, msg: 'insufficient balance' }))).toBe('refused');
  expect(callOutcomeOf(new errors.ProviderServerError({ httpStatus: 502 }))).toBe('ambiguous');
  expect(callOutcomeOf(new errors.ProviderTimeoutError(1000))).toBe('ambiguous');
  expect(callOutcomeOf(new errors.ProviderTransportError('socket hang up'))).toBe('ambiguous');
  expect(callOutcomeOf(new errors.ProviderAbortedError())).toBe('aborted');
  expect(callOutcomeOf(new errors.ProviderSignatureError('mismatch'))).toBe('failed');
  expect(callOutcomeOf(new Error('other'))).toBe('failed');
});

describe('receiver metrics', () => {
  it('count deliveries by known category and outcome, and time only the forwarded ones, to their signal', async () => {
    const registry = new Registry();
    const hooks = receiverMetrics(registry);
    const handled = { requestId: 'r', workflowIds: [], receivedAtMs: 1000, verifiedAtMs: 1001 };
    // Signalled at 1200, acknowledged at 1250 after the delivery log's sync: the histogram times
    // the signal.
    hooks.onHandled({
      ...handled,
      category: 'card_holder',
      outcome: 'signalled',
      signalledAtMs: 1200,
      settledAtMs: 1250,
    });
    hooks.onHandled({ ...handled, category: 'card_holder', outcome: 'duplicate', settledAtMs: 1001 });
    hooks.onHandled({
      ...handled,
      category: 'holder-42-jane@example.com',
      outcome: 'unknown_category',
      settledAtMs: 1001,
    });
    hooks.onRefused({ httpStatus: 401, kind: 'refused', reason: 'bad signature' });
    hooks.onRefused({ httpStatus: 503, kind: 'failed', reason: 'unavailable' });
    const text = await registry.metrics();
    expect(text).toContain('cardflow_webhook_deliveries_total{category="card_holder",outcome="forwarded"} 1');
    expect(text).toContain('cardflow_webhook_deliveries_total{category="card_holder",outcome="duplicate"} 1');
    expect(text).toContain('cardflow_webhook_deliveries_total{category="other",outcome="unknown_category"} 1');
    expect(text).toContain('cardflow_webhook_deliveries_total{category="none",outcome="rejected_signature"} 1');
    expect(text).toContain('cardflow_webhook_deliveries_total{category="none",outcome="failed"} 1');
    expect(text).toContain('cardflow_webhook_receipt_to_signal_seconds_count{category="card_holder"} 1');
    expect(text).toContain('cardflow_webhook_receipt_to_signal_seconds_sum{category="card_holder"} 0.2');
    expect(text).not.toContain('jane');
  });
});

it('codec server metrics count requests by operation and status, payloads by operation', async () => {
  const registry = new Registry();
  const { onAnswered } = codecServerMetrics(registry);
  onAnswered({ op: 'decode', status: 200, payloads: 3 });
  onAnswered({ op: 'decode', status: 401 });
  onAnswered({ status: 404 });
  const text = await registry.metrics();
  expect(text).toContain('cardflow_codec_requests_total{operation="decode",code="200"} 1');
  expect(text).toContain('cardflow_codec_requests_total{operation="decode",code="401"} 1');
  expect(text).toContain('cardflow_codec_requests_total{operation="other",code="404"} 1');
  expect(text).toContain('cardflow_codec_payloads_total{operation="decode"} 3');
});

it('tracing is on only with an OTLP endpoint, and the standard switches turn it off', () => {
  expect(tracingConfigured({})).toBe(false);
  expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
  expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
  expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
});

describe('trace sampling', () => {
  it('keeps one trace in ten begun here, and every trace a caller kept, unless told otherwise', () => {
    expect(samplerSetting(configured({}))).toEqual({ name: 'parentbased_traceidratio', ratio: 0.1 });
    expect(samplerSetting(configured({ OTEL_TRACES_SAMPLER_ARG: '0.25' }))).toEqual({
      name: 'parentbased_traceidratio',
      ratio: 0.25,
    });
    // OpenTelemetry's rule: a ratio sampler named without its argument keeps everything.
    expect(samplerSetting(configured({ OTEL_TRACES_SAMPLER: 'traceidratio' }))).toEqual({
      name: 'traceidratio',
      ratio: 1,
    });
    expect(samplerSetting(configured({ OTEL_TRACES_SAMPLER: 'ParentBased_Always_On' }))).toEqual({
      name: 'parentbased_always_on',
    });
  });

  it.each([
    [{ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, /\n- OTEL_TRACES_SAMPLER: must be one of/],
    [{ OTEL_TRACES_SAMPLER_ARG: '1.5' }, /\n- OTEL_TRACES_SAMPLER_ARG: must be a ratio from 0 to 1/],
    [{ OTEL_TRACES_SAMPLER_ARG: 'half' }, /\n- OTEL_TRACES_SAMPLER_ARG: must be a ratio from 0 to 1/],
  ])('refuses %p naming the variable', (env, message) => {
    expect(() => samplerSetting(configured(env))).toThrow(message);
  });

  it('the parent-based sampler follows the caller, and decides by ratio where a trace begins', () => {
    const sampler = samplerFor({ name: 'parentbased_traceidratio', ratio: 0 });
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const parent = (traceFlags: number) =>
      otel.trace.setSpanContext(otel.ROOT_CONTEXT, { traceId, spanId: 'b7ad6b7169203331', traceFlags });
    const decide = (context: otel.Context) =>
      sampler.shouldSample(context, traceId, 'span', otel.SpanKind.INTERNAL, {}, []).decision;
    expect(decide(parent(otel.TraceFlags.SAMPLED))).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(parent(otel.TraceFlags.NONE))).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(otel.ROOT_CONTEXT)).toBe(SamplingDecision.NOT_RECORD);
    expect(
      samplerFor({ name: 'parentbased_traceidratio', ratio: 1 }).shouldSample(
        otel.ROOT_CONTEXT,
        traceId,
        's',
        otel.SpanKind.INTERNAL,
        {},
        [],
      ).decision,
    ).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });

  it("a workflow run traces only when a start's or signal's trace context is sampled", () => {
    const headers = (carrier: unknown) => ({ '_tracer-data': defaultPayloadConverter.toPayload(carrier) });
    const traceparent = (flags: string) => ({
      traceparent: `00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-${flags}`,
    });
    expect(sampledTraceIn(headers(traceparent('01')))).toBe(true);
    expect(sampledTraceIn(headers(traceparent('03')))).toBe(true);
    expect(sampledTraceIn(headers(traceparent('00')))).toBe(false);
    expect(sampledTraceIn(headers({ traceparent: 'garbage' }))).toBe(false);
    expect(sampledTraceIn(headers('not a carrier'))).toBe(false);
    expect(sampledTraceIn({})).toBe(false);
    expect(sampledTraceIn(undefined)).toBe(false);
  });
});

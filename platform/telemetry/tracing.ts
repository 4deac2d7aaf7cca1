/**
 * OpenTelemetry traces, off unless an OTLP endpoint is configured with the standard variables:
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL, e.g. `http://collector:4318/v1/traces`) or
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (the base, `/v1/traces` added), OTLP over HTTP in the encoding of
 * `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL` (`http/protobuf` unless `http/json`), or
 * `OTEL_TRACES_EXPORTER=console` (spans printed, no endpoint). Also read: `OTEL_SERVICE_NAME`
 * (default `cardflow-<process>`), `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_BSP_SCHEDULE_DELAY`,
 * `OTEL_SDK_DISABLED=true` and `OTEL_TRACES_EXPORTER=none` (off whatever the endpoint), and the
 * sampler (platform/telemetry/sampler.ts: by default one trace in ten begun here is kept, and every
 * trace a caller kept); the exporter reads `OTEL_EXPORTER_OTLP_HEADERS` and `_TIMEOUT` itself.
 *
 * A setup of its own rather than OpenTelemetry's Node SDK: the SDK reads `process.env` by itself
 * (no `_FILE` secrets, no error naming the variable before start, a second parse of what the
 * configuration already checked), starts metrics and logs pipelines cardflow does not use (metrics
 * go to Prometheus), and hides the span processor the worker's workflow span sink must share. What
 * it would honour beyond these variables (propagators other than W3C trace context, resource
 * detectors, grpc) cardflow does not use. Off, nothing is installed: no tracer provider, no
 * interceptor, no span, and workers load the workflow bundle without the tracing interceptors
 * (workers/create-worker.ts).
 *
 * On, one trace runs from a backend's start (the client interceptor) through the workflow (its
 * interceptors in the bundle, spans exported through the worker's sink), each activity, and each
 * signed provider call ({@link traceProviderCall}: operation and merchantOrderNo as attributes,
 * never bodies); a webhook's receipt is the parent of the signal it delivers, which the workflow's
 * signal handling links to.
 */
import * as otel from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { cardflowVersion } from '../config/version';
import { samplerFor } from './sampler';
import { configured, type ConfigurationSlice } from '../config/schema';
import { samplerSetting } from './sampler-setting';
import { tracingConfigured, type TracingVariables } from './tracing-config';

export { tracingConfigured };

/** What {@link startTracing} reads: where traces go, the service's name, the sampler. */
export type TracingSettings = TracingVariables &
  ConfigurationSlice<
    | 'OTEL_SERVICE_NAME'
    | 'OTEL_RESOURCE_ATTRIBUTES'
    | 'OTEL_TRACES_SAMPLER'
    | 'OTEL_TRACES_SAMPLER_ARG'
    | 'OTEL_EXPORTER_OTLP_PROTOCOL'
    | 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    | 'OTEL_BSP_SCHEDULE_DELAY'
  >;

export interface Tracing {
  tracer: otel.Tracer;
  resource: Resource;
  /** The processor the worker's workflow span sink exports through. */
  spanProcessor: SpanProcessor;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Installs the global tracer provider exporting to the configured endpoint, with an
 * AsyncLocalStorage context (an activity's span is the parent of the provider calls it makes);
 * undefined when tracing is off. `service` names the process (`worker`, `webhooks`, ...).
 */
export function startTracing(service: string, config: TracingSettings): Tracing | undefined {
  if (!tracingConfigured(config)) return undefined;
  const resource = tracingResource(service, config);
  const spanProcessor = new BatchSpanProcessor(traceExporter(config), {
    scheduledDelayMillis: configured(config, 'OTEL_BSP_SCHEDULE_DELAY'),
  });
  const provider = new BasicTracerProvider({
    resource,
    sampler: samplerFor(samplerSetting(config)),
    spanProcessors: [spanProcessor],
  });
  provider.register({ contextManager: new AsyncLocalStorageContextManager().enable() });
  return {
    tracer: provider.getTracer('cardflow'),
    resource,
    spanProcessor,
    shutdown: () => provider.shutdown(),
  };
}

/**
 * What the exported spans say about their process: `OTEL_RESOURCE_ATTRIBUTES`, then
 * `service.version` (the package's, unless set there) and `service.name` (`OTEL_SERVICE_NAME`,
 * else one set there, else `cardflow-<process>`), as the specification orders them.
 */
export function tracingResource(
  service: string,
  config: ConfigurationSlice<'OTEL_SERVICE_NAME' | 'OTEL_RESOURCE_ATTRIBUTES'>,
): Resource {
  const given = config.OTEL_RESOURCE_ATTRIBUTES ?? {};
  return new Resource({
    'service.version': cardflowVersion(),
    ...given,
    'service.name': config.OTEL_SERVICE_NAME ?? given['service.name'] ?? `cardflow-${service}`,
  });
}

/** Where spans go: stdout, or the OTLP endpoint in the configured encoding. */
function traceExporter(config: TracingSettings): SpanExporter {
  if (config.OTEL_TRACES_EXPORTER === 'console') return new ConsoleSpanExporter();
  const protocol = config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? configured(config, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  // The exporters read OTEL_EXPORTER_OTLP_HEADERS and _TIMEOUT themselves; the URL comes from the
  // configuration.
  const url = tracesUrl(config);
  return protocol === 'http/json' ? new OtlpJsonExporter({ url }) : new OtlpProtobufExporter({ url });
}

/**
 * The OTLP/HTTP traces URL: the signal's own variable, else the base endpoint plus `/v1/traces`.
 */
function tracesUrl(config: TracingVariables): string {
  const own = config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (own) return own;
  return `${config.OTEL_EXPORTER_OTLP_ENDPOINT!.replace(/\/+$/, '')}/v1/traces`;
}

/** Span attributes of a provider call: what was called and with which idempotency key. */
export interface ProviderCallSpan {
  operation: string;
  merchantOrderNo?: string;
}

/**
 * Runs a provider call inside a client span `provider <operation>` (status error when it throws).
 */
export async function traceProviderCall<T>(
  tracer: otel.Tracer,
  call: ProviderCallSpan,
  run: () => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(
    `provider ${call.operation}`,
    {
      kind: otel.SpanKind.CLIENT,
      attributes: {
        'cardflow.provider.operation': call.operation,
        ...(call.merchantOrderNo ? { 'cardflow.merchant_order_no': call.merchantOrderNo } : {}),
      },
    },
    async (span) => {
      try {
        return await run();
      } catch (error) {
        span.setStatus({ code: otel.SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

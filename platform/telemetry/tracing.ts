/**
 * OpenTelemetry traces, off unless an OTLP endpoint (or the console exporter) is configured with
 * the standard `OTEL_*` variables (which ones: docs/observability.md). A setup of its own rather
 * than OpenTelemetry's Node SDK, which reads `process.env` itself (no `_FILE` secrets, no error
 * before start), starts metrics and logs pipelines cardflow does not use, and hides the span
 * processor the worker's workflow sink must share. Off, nothing is installed and workers load the
 * bundle without tracing. On, one trace runs from a backend's start through the workflow, each
 * activity and each signed provider call ({@link traceProviderCall}: operation and
 * merchantOrderNo, never bodies); a webhook's receipt is the parent of the signal it delivers.
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

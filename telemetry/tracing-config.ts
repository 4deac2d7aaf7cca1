/**
 * Whether the environment asks for OpenTelemetry traces (telemetry/tracing.ts), without loading
 * OpenTelemetry: the client library reads it to add its interceptor.
 */
import type { ConfigurationSlice } from '../config/schema';

/** The variables that say whether and where traces go. */
export type TracingVariables = ConfigurationSlice<
  'OTEL_SDK_DISABLED' | 'OTEL_TRACES_EXPORTER' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT'
>;

/** True when an OTLP traces endpoint is set and neither `OTEL_SDK_DISABLED` nor `OTEL_TRACES_EXPORTER=none` turns it off. */
export function tracingConfigured(config: TracingVariables): boolean {
  if (config.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return false;
  if (config.OTEL_TRACES_EXPORTER?.toLowerCase() === 'none') return false;
  return Boolean(config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? config.OTEL_EXPORTER_OTLP_ENDPOINT);
}

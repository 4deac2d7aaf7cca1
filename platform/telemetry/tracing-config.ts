/**
 * Whether the environment asks for OpenTelemetry traces (platform/telemetry/tracing.ts), without
 * loading OpenTelemetry: the client library reads it to add its interceptor.
 */
import { configured, type ConfigurationSlice } from '../config/schema';

/** The variables that say whether and where traces go. */
export type TracingVariables = ConfigurationSlice<
  'OTEL_SDK_DISABLED' | 'OTEL_TRACES_EXPORTER' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT'
>;

/**
 * True when traces have somewhere to go: `OTEL_TRACES_EXPORTER=console`, or an OTLP traces
 * endpoint with the default exporter; false whenever `OTEL_SDK_DISABLED=true` or the exporter is
 * `none`. An OTLP exporter without an endpoint stays off rather than sending to a default
 * address nobody set up.
 */
export function tracingConfigured(config: TracingVariables): boolean {
  if (config.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return false;
  const exporter = configured(config, 'OTEL_TRACES_EXPORTER');
  if (exporter === 'none') return false;
  if (exporter === 'console') return true;
  return Boolean(config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? config.OTEL_EXPORTER_OTLP_ENDPOINT);
}

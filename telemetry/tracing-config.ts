/**
 * Whether the environment asks for OpenTelemetry traces (telemetry/tracing.ts), without loading
 * OpenTelemetry: the client library reads it to add its interceptor.
 */
import { processEnv } from '../config/process-env';

/** True when an OTLP traces endpoint is set and neither `OTEL_SDK_DISABLED` nor `OTEL_TRACES_EXPORTER=none` turns it off. */
export function tracingConfigured(env: Record<string, string | undefined> = processEnv()): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

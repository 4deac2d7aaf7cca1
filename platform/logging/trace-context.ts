/**
 * The trace a log line was written in: `trace_id`, `span_id` and `trace_flags`, the field names
 * OpenTelemetry gives trace context in log formats of its own, so a log search finds a trace's
 * lines and a trace viewer links to them. Read from the active OpenTelemetry context (the
 * receiver's webhook spans, an activity's span, a provider call's span:
 * platform/telemetry/tracing.ts installs the context manager); the workflow threads add the same
 * fields to their own lines (workflows/interceptors/tracing.ts, getLogAttributes), as metadata that
 * wins over these. Outside any span, or with tracing off, nothing is added.
 */
import { isSpanContextValid, trace } from '@opentelemetry/api';
import type { LogMetadata } from '@temporalio/common';

export function activeTraceFields(): LogMetadata | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  return {
    trace_id: spanContext.traceId,
    span_id: spanContext.spanId,
    trace_flags: spanContext.traceFlags.toString(16).padStart(2, '0'),
  };
}

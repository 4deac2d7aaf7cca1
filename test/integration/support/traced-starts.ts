/**
 * The integration tier's clients act as a traced backend for half of the workflows they call: a
 * start, signal or Update of such a workflow carries a sampled W3C trace context in the header
 * OpenTelemetry's interceptors read (what a backend with `@temporalio/interceptors-opentelemetry`
 * and a sampler that kept the trace sends). Which half is decided by the workflow id, so every
 * call on one run agrees, and every test file makes traced and untraced histories alike: the
 * tier's teardown (cross-replay.ts) replays each with tracing switched the other way.
 */
import { createHash } from 'node:crypto';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { defaultPayloadConverter, type Headers } from '@temporalio/common';

/** The header OpenTelemetry's Temporal interceptors carry the trace context in. */
const TRACE_HEADER = '_tracer-data';

/** True for the workflow ids whose calls this tier traces (about half, fixed per id). */
export function tracedInTests(workflowId: string): boolean {
  return createHash('sha256').update(workflowId).digest()[0]! % 2 === 0;
}

/**
 * A sampled trace context whose trace id is derived from the workflow id (one trace per workflow).
 */
function sampledContext(workflowId: string): Headers[string] {
  const digest = createHash('sha256').update(`trace:${workflowId}`).digest('hex');
  const traceparent = `00-${digest.slice(0, 32)}-${digest.slice(32, 48)}-01`;
  return defaultPayloadConverter.toPayload({ traceparent });
}

/**
 * A client interceptor that traces the calls on the workflows `traces` picks, as a traced backend
 * would.
 */
export function tracingBackend(traces: (workflowId: string) => boolean): WorkflowClientInterceptor {
  const withTrace = (workflowId: string, headers: Headers): Headers =>
    traces(workflowId) && !headers[TRACE_HEADER] ? { ...headers, [TRACE_HEADER]: sampledContext(workflowId) } : headers;
  return {
    start: (input, next) => next({ ...input, headers: withTrace(input.options.workflowId, input.headers) }),
    startWithDetails: (input, next) => next({ ...input, headers: withTrace(input.options.workflowId, input.headers) }),
    signalWithStart: (input, next) => next({ ...input, headers: withTrace(input.options.workflowId, input.headers) }),
    signal: (input, next) => next({ ...input, headers: withTrace(input.workflowExecution.workflowId, input.headers) }),
    startUpdate: (input, next) =>
      next({ ...input, headers: withTrace(input.workflowExecution.workflowId, input.headers) }),
    startUpdateWithStart: (input, next) =>
      next({
        ...input,
        workflowStartHeaders: withTrace(input.workflowStartOptions.workflowId, input.workflowStartHeaders),
        updateHeaders: withTrace(input.workflowStartOptions.workflowId, input.updateHeaders),
      }),
  };
}

/** The tier's clients: {@link tracedInTests} picks the workflows they trace. */
export const tracedStarts = tracingBackend(tracedInTests);

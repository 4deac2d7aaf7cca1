/**
 * A workflow interceptor module for replays only (cross-replay.ts): every call that reaches the run
 * carries a sampled trace context, so the cardflow bundle behind it replays an untraced history as
 * if a traced backend had started and called the run. Placed before cardflow's own interceptors.
 */
import {
  defaultPayloadConverter,
  workflowInfo,
  type Headers,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';

const TRACE_HEADER = '_tracer-data';

/** 32 hex digits from the run id (a UUID), so every task of the run is in one trace. */
function traceIdOf(runId: string): string {
  const hex = runId.replace(/[^0-9a-f]/g, '');
  return (hex + '0'.repeat(32)).slice(0, 32);
}

function traced(headers: Headers): Headers {
  const traceparent = `00-${traceIdOf(workflowInfo().runId)}-00f067aa0ba902b7-01`;
  return { ...headers, [TRACE_HEADER]: defaultPayloadConverter.toPayload({ traceparent }) };
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      execute: (input, next) => next({ ...input, headers: traced(input.headers) }),
      handleSignal: (input, next) => next({ ...input, headers: traced(input.headers) }),
      handleUpdate: (input, next) => next({ ...input, headers: traced(input.headers) }),
    },
  ],
});

/**
 * A workflow interceptor module for replays only (cross-replay.ts): it takes the trace context off
 * every call that reaches the run, so the cardflow bundle behind it replays a traced history as a
 * worker would that never heard of the trace. Placed before cardflow's own interceptors.
 */
import type { Headers, WorkflowInboundCallsInterceptor, WorkflowInterceptorsFactory } from '@temporalio/workflow';

const TRACE_HEADER = '_tracer-data';

function untraced(headers: Headers): Headers {
  const { [TRACE_HEADER]: _dropped, ...rest } = headers;
  return rest;
}

/** Takes the trace context off the calls that reach the interceptors after it. */
export const untracedInbound: WorkflowInboundCallsInterceptor = {
  execute: (input, next) => next({ ...input, headers: untraced(input.headers) }),
  handleSignal: (input, next) => next({ ...input, headers: untraced(input.headers) }),
  handleUpdate: (input, next) => next({ ...input, headers: untraced(input.headers) }),
};

export const interceptors: WorkflowInterceptorsFactory = () => ({ inbound: [untracedInbound] });

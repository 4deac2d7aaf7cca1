/**
 * A workflow interceptor module for replays only: the earlier build's traced workers, which traced
 * a sampled run with OpenTelemetry's own workflow interceptors (async wrappers that settle a call
 * a few microtasks after it settled). Placed before cardflow's own interceptors, it traces every
 * call that way and takes the trace context off before cardflow's tracing sees it, so the bundle
 * replays a traced history exactly as those workers ran it.
 */
import type { WorkflowInterceptors, WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { untracedInbound } from './untraced';

// OpenTelemetry's module, required as the earlier build's bundle did.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const openTelemetry = require('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors') as {
  interceptors: () => Required<Pick<WorkflowInterceptors, 'inbound' | 'outbound' | 'internals'>>;
};

export const interceptors: WorkflowInterceptorsFactory = () => {
  const made = openTelemetry.interceptors();
  return { inbound: [...made.inbound, untracedInbound], outbound: made.outbound, internals: made.internals };
};

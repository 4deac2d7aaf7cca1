/**
 * A workflow interceptor (in every cardflow bundle, workers/create-worker.ts) counting each
 * workflow's start and how it closed, on the worker's metrics endpoint:
 *
 * - `cardflow_workflows_started_total{workflow_type}`: a new execution (a run continued as new is
 *   the same process and is not counted again);
 * - `cardflow_workflows_closed_total{workflow_type, outcome, failure_type}`: `completed`, `failed`
 *   (with the failure's type, domain/failure-types.ts or provider/errors.ts) or `cancelled`.
 *
 * The workflow meter records nothing while replaying, and records go out through the SDK's
 * built-in sink, never as commands: histories replay unchanged with or without this interceptor.
 * A workflow task that fails and runs again before anything was recorded may count twice; a
 * terminated or timed-out workflow is never seen here (the server's metrics count those).
 *
 * The SDK tags everything recorded through the workflow meter with `workflowType`; it is renamed
 * `workflow_type` here, the snake_case the SDK's own `temporal_` metrics and cardflow's labels use
 * (docs/observability.md, "Label names"). The `namespace` and `taskQueue` the worker adds after
 * this hook stay as the SDK spells them.
 */
import {
  ApplicationFailure,
  ContinueAsNew,
  isCancellation,
  metricMeter,
  workflowInfo,
  type GetMetricTagsInput,
  type Next,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptorsFactory,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';

/**
 * A failure type is a code constant; anything else (a type made of data) is reported as `other`.
 */
function failureType(error: unknown): string {
  const type = error instanceof ApplicationFailure ? error.type : undefined;
  if (!type) return error instanceof Error ? 'Error' : 'other';
  return /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(type) ? type : 'other';
}

class OutcomeMetrics implements WorkflowInboundCallsInterceptor {
  async execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const closed = metricMeter.createCounter('cardflow_workflows_closed', undefined, 'Workflows closed, by outcome');
    if (workflowInfo().continuedFromExecutionRunId === undefined)
      metricMeter.createCounter('cardflow_workflows_started', undefined, 'Workflows started').add(1);
    try {
      const result = await next(input);
      closed.add(1, { outcome: 'completed', failure_type: '' });
      return result;
    } catch (error) {
      if (error instanceof ContinueAsNew) throw error;
      if (isCancellation(error)) closed.add(1, { outcome: 'cancelled', failure_type: '' });
      else closed.add(1, { outcome: 'failed', failure_type: failureType(error) });
      throw error;
    }
  }
}

class SnakeCaseMetricTags implements WorkflowOutboundCallsInterceptor {
  getMetricTags(
    input: GetMetricTagsInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'getMetricTags'>,
  ): GetMetricTagsInput {
    const { workflowType, ...tags } = next(input);
    return workflowType === undefined ? tags : { ...tags, workflow_type: workflowType };
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [new OutcomeMetrics()],
  outbound: [new SnakeCaseMetricTags()],
});

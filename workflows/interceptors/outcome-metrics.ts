/**
 * Counts each workflow's start and how it closed, on the worker's metrics endpoint:
 * `cardflow_workflows_started_total{workflow_type}` (a continue-as-new is not a new start) and
 * `cardflow_workflows_closed_total{workflow_type, outcome, failure_type}`. Records go out through
 * the SDK's sink, never as commands, and nothing is recorded while replaying, so histories replay
 * the same with or without it. A retried workflow task may count twice; terminations and timeouts
 * are the server's to count. The SDK's `workflowType` tag is renamed `workflow_type`, the spelling
 * of cardflow's labels (docs/observability.md, "Label names").
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

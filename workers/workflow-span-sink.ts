/**
 * The sink that exports workflow spans. The SDK's exporter copies the run's whole `WorkflowInfo`
 * onto every span: its memo, search attributes, last result and last failure, any of which may
 * one day hold what a trace must not (a failure message that echoes input). Spans here carry the
 * run's identity only.
 */
import type { InjectedSinks } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import { makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import type { OpenTelemetrySinks } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions';
import type { Tracing } from '../platform/telemetry/tracing';

/** The fields of `WorkflowInfo` a workflow span carries as attributes. */
export const TRACED_RUN_FIELDS = [
  'namespace',
  'taskQueue',
  'workflowId',
  'runId',
  'workflowType',
  'attempt',
  'firstExecutionRunId',
  'continuedFromExecutionRunId',
] as const satisfies readonly (keyof WorkflowInfo)[];

function runIdentity(info: WorkflowInfo): WorkflowInfo {
  const identity: Record<string, unknown> = {};
  for (const field of TRACED_RUN_FIELDS) if (info[field] !== undefined) identity[field] = info[field];
  // The exporter only copies these onto the spans' attributes, so a partial info is all it reads.
  return identity as unknown as WorkflowInfo;
}

/** The worker's `exporter` sink: workflow spans to the span processor, with the run's identity. */
export function workflowSpanSinks(tracing: Tracing): InjectedSinks<OpenTelemetrySinks> {
  const sdk = makeWorkflowExporter(tracing.spanProcessor, tracing.resource);
  return {
    exporter: { export: { ...sdk.export, fn: (info, spans) => sdk.export.fn(runIdentity(info), spans) } },
  };
}

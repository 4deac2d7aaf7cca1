/**
 * The workflows the cardflow worker registers (workflows/registered.ts), each with its versioning
 * behavior.
 */
import { setWorkflowOptions, workflowInfo } from '@temporalio/workflow';
import { WORKFLOW_VERSIONING } from '../domain/workflow-versioning';
import type { WorkflowType } from '../domain/workflows';
import * as workflows from './registered';

export * from './registered';

/**
 * Every registered workflow by its type, so each carries its versioning behavior
 * (domain/workflow-versioning.ts). Declared only on a versioned worker: the server refuses a
 * behavior from a worker that polls unversioned (tests, the move from unversioned workers). The
 * version is the one in history for a replayed run, so a run keeps the answer its first task gave.
 * Typed as a record of every WorkflowType, so a type without its workflow fails to compile.
 */
const registered: Record<WorkflowType, (...args: never[]) => Promise<unknown>> = workflows;
for (const [type, fn] of Object.entries(registered) as [WorkflowType, (...args: never[]) => Promise<unknown>][])
  setWorkflowOptions(
    () =>
      workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: WORKFLOW_VERSIONING[type] } : {},
    fn,
  );

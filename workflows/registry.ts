/**
 * The cardflow workflows, found by their types: every `WorkflowType` (domain/workflows.ts) is the
 * function of that name exported by one top-level module of workflows/, so a new workflow is
 * registered by its definition alone, with no list here to keep. Each carries its versioning
 * behavior.
 */
import { setWorkflowOptions, workflowInfo } from '@temporalio/workflow';
import { nonRetryable } from '../domain/failures';
import { FailureTypes } from '../domain/failure-types';
import { WORKFLOW_VERSIONING } from '../domain/workflow-versioning';
import { WorkflowTypes, type WorkflowType } from '../domain/workflows';

export type WorkflowFunction = (...args: never[]) => Promise<unknown>;

/**
 * Each type's function among the exports of `modules`. A type that no module exports, or that two
 * do, stops the bundle from loading: the worker would otherwise start and fail only when a run of
 * that type arrived.
 */
export function registerWorkflows(modules: readonly object[]): Record<WorkflowType, WorkflowFunction> {
  const found = new Map<WorkflowType, WorkflowFunction[]>();
  for (const module of modules)
    for (const [name, value] of Object.entries(module))
      if (Object.hasOwn(WorkflowTypes, name) && typeof value === 'function') {
        const type = name as WorkflowType;
        found.set(type, [...(found.get(type) ?? []), value as WorkflowFunction]);
      }
  const registered = {} as Record<WorkflowType, WorkflowFunction>;
  for (const type of Object.keys(WorkflowTypes) as WorkflowType[]) {
    const functions = found.get(type) ?? [];
    if (functions.length !== 1)
      throw nonRetryable(
        FailureTypes.unexpected,
        `workflow type ${type} is exported by ${functions.length} modules of workflows/, not one`,
      );
    registered[type] = withVersioning(type, functions[0]!);
  }
  return registered;
}

/**
 * Declared only on a versioned worker: the server refuses a behavior from a worker that polls
 * unversioned (tests, the move from unversioned workers). The version is the one in history for a
 * replayed run, so a run keeps the answer its first task gave.
 */
function withVersioning(type: WorkflowType, fn: WorkflowFunction): WorkflowFunction {
  setWorkflowOptions(
    () =>
      workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: WORKFLOW_VERSIONING[type] } : {},
    fn,
  );
  return fn;
}

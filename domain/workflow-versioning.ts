/**
 * How each workflow type moves between builds (Worker Deployments, docs/versioning.md), declared
 * in its definition (domain/workflows.ts); undeclared is PINNED.
 * - PINNED: a run stays on the build that started it, so its code may change without `patched()`;
 *   a build's workers run until its pinned runs have drained. Every process that ends within days
 *   is pinned, and its children start on its build.
 * - AUTO_UPGRADE: a run moves to the current build at its next task, so its code must replay every
 *   earlier build's histories. `cardEntity`, which lives as long as its card, is the one.
 */
import { WORKFLOWS, type WorkflowType } from './workflows';

export type WorkflowVersioning = 'PINNED' | 'AUTO_UPGRADE';

/** Each workflow type's behavior, as its definition (domain/workflows.ts) declares it. */
export const WORKFLOW_VERSIONING: Readonly<Record<WorkflowType, WorkflowVersioning>> = Object.fromEntries(
  Object.values(WORKFLOWS).map((definition) => [definition.type, definition.versioning]),
) as Record<WorkflowType, WorkflowVersioning>;

/**
 * The behavior of a worker's workflows that declare none (a workflow added without an entry above).
 */
export const DEFAULT_WORKFLOW_VERSIONING: WorkflowVersioning = 'PINNED';

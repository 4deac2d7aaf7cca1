/**
 * How each workflow type moves between builds of the worker (Worker Deployments,
 * docs/versioning.md). Each workflow declares it in its definition (domain/workflows.ts);
 * `workflows/index.ts` attaches it to the workflow function, and the worker's default for anything
 * undeclared is PINNED.
 *
 * - PINNED: a run stays on the build that started it until it closes. Its code may change in the
 *   next build without `patched()`, because no history it wrote ever meets the new code. The
 *   build's workers must keep running until its pinned runs have drained.
 * - AUTO_UPGRADE: a run moves to the deployment's current build at its next workflow task. Its code
 *   must replay every earlier build's histories (`patched()` where commands change), in exchange
 *   for never being left on a retired build.
 *
 * Every process that ends within days (an onboarding waits days in review, a card operation
 * seconds) is pinned; children of a pinned parent on the same task queue start on the parent's
 * build, so an onboarding and its children run one build's code end to end. `cardEntity` lives as
 * long as its card (years): it follows the current build and changes with patches.
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

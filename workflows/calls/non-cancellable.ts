/**
 * How an operator's cancel meets a workflow: waits (a review, a delivery, a customer's payment, a
 * work order's decision) stop at once; a mutation, once it may have reached the provider, is
 * followed to its final status first ({@link nonCancellable}), so a cancelled process never leaves
 * money or a card half-made and unrecorded. The workflow then ends cancelled at its next wait.
 */
import { CancellationScope } from '@temporalio/workflow';

/**
 * Runs `send` (a mutation and the wait for its outcome) to its end even if the workflow is
 * cancelled meanwhile.
 */
export function nonCancellable<T>(send: () => Promise<T>): Promise<T> {
  return CancellationScope.nonCancellable(send);
}

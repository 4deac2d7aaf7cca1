/**
 * How the activities start a card's workflow (ActivityDeps.cardEntities), built by the worker from
 * its own connection and data converter: `cardEntity`, id `card-<cardNo>`, on the worker's task
 * queue, with the start options every starter shares (client/card-entity.ts). A card whose workflow
 * runs already is left as it is (conflict policy USE_EXISTING), and a cancelled card's completed
 * workflow is never started again (reuse ALLOW_DUPLICATE_FAILED_ONLY). A replaced card is frozen
 * through that workflow's `freeze` Update, as a backend's client freezes it.
 */
import type { DataConverter } from '@temporalio/common';
import {
  ApplicationFailure,
  Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowUpdateFailedError,
  type ConnectionLike,
} from '@temporalio/client';
import type { CardEntityPort } from '../activities/deps';
import { cardEntityStartOptions, CardWorkflowClosedError, freezeCard, getCardSnapshot } from '../client/card-entity';
import { FailureTypes } from '../domain/failure-types';
import { ProviderErrorTypes } from '../provider/error-types';
import { cardEntityWorkflow } from '../domain/workflows';

export interface CardEntityPortOptions {
  connection: ConnectionLike;
  namespace: string;
  taskQueue: string;
  dataConverter?: DataConverter;
}

/** A freeze answered with one of these is final: asking again gets the same answer. */
const FINAL_REFUSALS: readonly string[] = [
  FailureTypes.operationNotAllowed,
  FailureTypes.cardCancelled,
  FailureTypes.operationFailed,
  // The provider's own refusal (40005, the card's state), after the operation's retries.
  ProviderErrorTypes.business,
];

export function createCardEntityPort(opts: CardEntityPortOptions): CardEntityPort {
  const client = new Client({
    connection: opts.connection,
    namespace: opts.namespace,
    ...(opts.dataConverter ? { dataConverter: opts.dataConverter } : {}),
  });
  return {
    async freeze(cardNo, requestId) {
      try {
        const done = await freezeCard(client, cardNo, { requestId }, { taskQueue: opts.taskQueue });
        return { outcome: 'frozen', merchantOrderNo: done.merchantOrderNo };
      } catch (error) {
        if (error instanceof CardWorkflowClosedError)
          return { outcome: 'not_frozen', status: 'cancel', reason: error.message };
        const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
        if (!(cause instanceof ApplicationFailure) || !FINAL_REFUSALS.includes(cause.type ?? '')) throw error;
        const status = await getCardSnapshot(client, cardNo).then(
          (card) => card.status,
          () => undefined,
        );
        return { outcome: 'not_frozen', ...(status ? { status } : {}), reason: cause.message };
      }
    },
    async follow(input) {
      try {
        await client.workflow.start(cardEntityWorkflow.type, {
          ...cardEntityStartOptions(input, opts.taskQueue),
          workflowIdConflictPolicy: 'USE_EXISTING',
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
    },
  };
}

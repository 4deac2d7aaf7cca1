/**
 * How the activities start a card's workflow (ActivityDeps.cardEntities), built by the worker from
 * its own connection and data converter: `cardEntity`, id `card-<cardNo>`, on the worker's task
 * queue, with the start options every starter shares (client/card-entity.ts). A card whose workflow
 * runs already is left as it is (conflict policy USE_EXISTING), and a cancelled card's completed
 * workflow is never started again (reuse ALLOW_DUPLICATE_FAILED_ONLY).
 */
import type { DataConverter } from '@temporalio/common';
import { Client, WorkflowExecutionAlreadyStartedError, type ConnectionLike } from '@temporalio/client';
import type { CardEntityPort } from '../activities/deps';
import { cardEntityStartOptions } from '../client/card-entity';
import { cardEntityWorkflow } from '../domain/workflows';

export interface CardEntityPortOptions {
  connection: ConnectionLike;
  namespace: string;
  taskQueue: string;
  dataConverter?: DataConverter;
}

export function createCardEntityPort(opts: CardEntityPortOptions): CardEntityPort {
  const client = new Client({
    connection: opts.connection,
    namespace: opts.namespace,
    ...(opts.dataConverter ? { dataConverter: opts.dataConverter } : {}),
  });
  return {
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

/**
 * Reissue: a new card for the same holder and card type as card `cardNo`, made by `cardIssuance`
 * under its own id `card-reissue-<cardNo>` (domain/workflow-ids.ts), so its merchantOrderNo is a
 * new key and a repeated reissue finds the same issuance: one new card per old card, however often
 * it is asked. Refused while the old card still holds money (its balance must be withdrawn, or a
 * cancelled card's balance be back on the account first), as its card workflow knows it.
 */
import { type Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { cmp } from '../provider/money';
import { exact } from '../domain/exact';
import { ClientErrorTypes } from '../domain/failure-types';
import { CARDFLOW_TASK_QUEUE, WORKFLOW_TASK_TIMEOUT } from '../domain';
import type { CardSnapshot } from '../domain/card-entity';
import type { CardIssuanceInput, CardIssuanceResult } from '../domain/card-issuance';
import { startAttributes } from '../domain/start-attributes';
import { startAttributesOf } from '../domain/workflow-definition';
import { cardReissueWorkflowId } from '../domain/workflow-ids';
import { cardIssuanceWorkflow } from '../domain/workflows';
import { businessRef, cardNoField, positiveAmount } from '../domain/fields';
import { cardEntityHandle, refreshCard, type CardEntityOptions } from './card-entity';
import { parseField } from './inputs';

/** The old card cannot be replaced now; `reason` says why and what to do. */
export class CardReissueRefusedError extends Error {
  readonly type = ClientErrorTypes.cardReissueRefused;
  constructor(
    readonly cardNo: string,
    readonly reason: string,
  ) {
    super(`reissue of card ${cardNo} refused: ${reason}`);
    this.name = 'CardReissueRefusedError';
  }
}

export interface ReissueOptions extends CardEntityOptions {
  /** The new card's initial deposit, when its card type needs one. */
  initialDeposit?: string;
}

type OldCard = Pick<CardSnapshot, 'cardTypeId' | 'holderId' | 'balance' | 'cancellation' | 'cancelled'>;

/** What the old card's workflow knows: its final result once it ended, else a fresh read through it. */
async function oldCard(client: Client, cardNo: string, opts: CardEntityOptions): Promise<OldCard> {
  const handle = cardEntityHandle(client, cardNo);
  try {
    const described = await handle.describe();
    if (described.status.name === 'COMPLETED') {
      const result = await handle.result();
      return {
        cancelled: true,
        ...(result.cardTypeId ? { cardTypeId: result.cardTypeId } : {}),
        ...(result.holderId ? { holderId: result.holderId } : {}),
        ...(result.cancellation ? { cancellation: result.cancellation } : {}),
      };
    }
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
  return refreshCard(client, cardNo, opts);
}

/** The reason the old card cannot be replaced yet, or undefined when it can. */
export function reissueRefusal(card: OldCard): string | undefined {
  if (card.cancelled && card.cancellation?.returnedAmount === undefined)
    return 'the card is cancelled but its balance is not back on the account yet; reissue once it is (cardflow card status shows it)';
  if (!card.cancelled && card.balance && cmp(card.balance.amount, '0') > 0)
    return `the card still holds ${card.balance.amount} ${card.balance.currency}; withdraw it first`;
  if (!card.cardTypeId) return 'its card type is not known (the card was never read)';
  return undefined;
}

/** Makes the card that replaces `cardNo` (or finds the one a earlier reissue made) and waits for it. */
export async function reissueCard(
  client: Client,
  cardNo: string,
  opts: ReissueOptions = {},
): Promise<CardIssuanceResult> {
  const valid = parseField(cardNoField, 'cardNo', cardNo);
  const initialDeposit =
    opts.initialDeposit === undefined ? undefined : parseField(positiveAmount, 'initialDeposit', opts.initialDeposit);
  const customerRef =
    opts.customerRef === undefined ? undefined : parseField(businessRef, 'customerRef', opts.customerRef);
  const card = await oldCard(client, valid, opts);
  const refusal = reissueRefusal(card);
  if (refusal) throw new CardReissueRefusedError(valid, refusal);
  const workflowId = cardReissueWorkflowId(valid);
  const input: CardIssuanceInput = {
    cardTypeId: card.cardTypeId as string,
    ...(card.holderId ? { holderId: card.holderId } : {}),
    ...(initialDeposit ? { initialDeposit } : {}),
    ...(customerRef ? { customerRef } : {}),
    ...(opts.wait ? { wait: exact(opts.wait) } : {}),
  };
  const start = client.workflow.start(cardIssuanceWorkflow.type, {
    workflowId,
    taskQueue: opts.taskQueue ?? CARDFLOW_TASK_QUEUE,
    args: [input],
    // A repeat finds the issuance already made (running or done): never a second card.
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
    typedSearchAttributes: startAttributes(
      startAttributesOf(cardIssuanceWorkflow, workflowId, input, customerRef ? { customerRef } : {}),
    ),
  });
  // Completed already (a repeat after it made the card): its result is the card it made.
  const started = await start.catch((error: unknown) => {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return client.workflow.getHandle(workflowId);
    throw error;
  });
  return (await started.result()) as CardIssuanceResult;
}

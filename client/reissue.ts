/**
 * Reissue: a new card for the same holder and card type as card `cardNo`, made by `cardReissue`
 * (domain/card-reissue.ts) under its own id `card-reissue-<cardNo>`, so one new card is made per
 * old card however often it is asked. A physical card takes the number printed on it and is
 * activated once it reached the customer; the old card is frozen once the new one is active (or
 * first, `freezeOld: 'now'`). Refused while the old card still holds money (the API has no call
 * that moves a card's balance off it) or a cancelled card's balance is not seen back yet.
 */
import { type Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { cmp } from '../provider/money';
import { exact } from '../domain/exact';
import { ClientErrorTypes } from '../domain/failure-types';
import { CARDFLOW_TASK_QUEUE, WORKFLOW_TASK_TIMEOUT } from '../domain';
import type { CardSnapshot } from '../domain/card-entity';
import {
  REPLACED_CARD_FREEZES,
  type CardReissueInput,
  type CardReissueResult,
  type ReplacedCardFreeze,
} from '../domain/card-reissue';
import { activateCardUpdate, type ActivateCardAccepted } from '../domain/onboarding-physical';
import { startAttributes } from '../domain/start-attributes';
import { startAttributesOf } from '../domain/workflow-definition';
import { cardReissueWorkflowId } from '../domain/workflow-ids';
import { cardReissueWorkflow } from '../domain/workflows';
import { businessRef, cardNoField, positiveAmount } from '../domain/fields';
import { cardEntityHandle, refreshCard, type CardEntityOptions } from './card-entity';
import { parseField, refuse } from './inputs';
import { parseActivationRequest } from './validation';

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
  /** The number printed on the new physical card (required for a physical card type). */
  cardNumber?: string;
  /**
   * A physical card's activation request given up front (as `activateReissuedCard` takes it; a
   * clear `pin` is sealed with `merchantPublicKey`), instead of sending it once the card arrived.
   */
  activation?: unknown;
  /** How long a physical card may take to reach the customer; default 60 days. */
  deliveryDeadlineMs?: number;
  /** When the old card is frozen: `when_active` (default), or `now` (a card lost or stolen). */
  freezeOld?: ReplacedCardFreeze;
}

type OldCard = Pick<CardSnapshot, 'cardTypeId' | 'holderId' | 'balance' | 'cancellation' | 'cancelled'>;

/**
 * What the old card's workflow knows: its final result once it ended, else a fresh read through it.
 */
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
    return `the card still holds ${card.balance.amount} ${card.balance.currency} and the API has no call that moves a card's balance off it; reissue once it is spent, or once a cancel has returned it to the account`;
  if (!card.cardTypeId) return 'its card type is not known (the card was never read)';
  return undefined;
}

/** Starts the reissue of `cardNo`, or finds the one already started; its workflow id. */
export async function startCardReissue(client: Client, cardNo: string, opts: ReissueOptions = {}): Promise<string> {
  const valid = parseField(cardNoField, 'cardNo', cardNo);
  const initialDeposit =
    opts.initialDeposit === undefined ? undefined : parseField(positiveAmount, 'initialDeposit', opts.initialDeposit);
  const customerRef =
    opts.customerRef === undefined ? undefined : parseField(businessRef, 'customerRef', opts.customerRef);
  const freezeOld = opts.freezeOld ?? 'when_active';
  if (!(REPLACED_CARD_FREEZES as readonly string[]).includes(freezeOld))
    refuse('reissue', 'freezeOld', `must be one of ${REPLACED_CARD_FREEZES.join(', ')}`);
  if (opts.deliveryDeadlineMs !== undefined && !(opts.deliveryDeadlineMs > 0))
    refuse('reissue', 'deliveryDeadlineMs', 'must be a positive number of milliseconds');
  const activation = opts.activation === undefined ? undefined : parseActivationRequest(opts.activation, opts);
  const card = await oldCard(client, valid, opts);
  const refusal = reissueRefusal(card);
  if (refusal) throw new CardReissueRefusedError(valid, refusal);
  const workflowId = cardReissueWorkflowId(valid);
  const input: CardReissueInput = {
    oldCardNo: valid,
    cardTypeId: card.cardTypeId as string,
    freezeOld,
    ...(card.holderId ? { holderId: card.holderId } : {}),
    ...(initialDeposit ? { initialDeposit } : {}),
    ...(opts.cardNumber ? { cardNumber: opts.cardNumber } : {}),
    ...(activation ? { activation } : {}),
    ...(opts.deliveryDeadlineMs ? { deliveryDeadlineMs: opts.deliveryDeadlineMs } : {}),
    ...(customerRef ? { customerRef } : {}),
    ...(opts.wait ? { wait: exact(opts.wait) } : {}),
  };
  try {
    await client.workflow.start(cardReissueWorkflow.type, {
      workflowId,
      taskQueue: opts.taskQueue ?? CARDFLOW_TASK_QUEUE,
      args: [input],
      // A repeat finds the reissue already made (running or done): never a second card.
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
      typedSearchAttributes: startAttributes(
        startAttributesOf(cardReissueWorkflow, workflowId, input, customerRef ? { customerRef } : {}),
      ),
    });
  } catch (error) {
    // Completed already (a repeat after it made the card): its result is the card it made.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  return workflowId;
}

/**
 * Says the reissued physical card reached the customer and how to activate it: the `activateCard`
 * Update on `card-reissue-<oldCardNo>`, as an onboarding's card is activated (a clear `pin` is
 * sealed with `opts.merchantPublicKey` and never sent).
 */
export async function activateReissuedCard(
  client: Client,
  oldCardNo: string,
  request: unknown,
  opts: Pick<ReissueOptions, 'merchantPublicKey'> = {},
): Promise<ActivateCardAccepted> {
  const valid = parseActivationRequest(request, opts);
  const workflowId = cardReissueWorkflowId(parseField(cardNoField, 'cardNo', oldCardNo));
  return client.workflow.getHandle(workflowId).executeUpdate(activateCardUpdate, { args: [valid] });
}

/**
 * Makes the card that replaces `cardNo` (or finds the one an earlier reissue made) and waits for
 * the reissue's end: the new card, a physical card's activation, and what became of the old card.
 */
export async function reissueCard(
  client: Client,
  cardNo: string,
  opts: ReissueOptions = {},
): Promise<CardReissueResult> {
  const workflowId = await startCardReissue(client, cardNo, opts);
  return (await client.workflow.getHandle(workflowId).result()) as CardReissueResult;
}

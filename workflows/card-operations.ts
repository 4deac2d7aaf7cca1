/**
 * Freeze, unfreeze and update PIN (domain/card-operations.ts): standalone workflows `cardFreeze`,
 * `cardUnfreeze` and `cardPinUpdate`, and {@link runCardOperation}, the step the card entity
 * (card-entity.ts) runs inside its Updates. The operation is sent idempotently by merchantOrderNo
 * and its record awaited with the card-operation wait (webhook first, polling fallback).
 */
import { workflowInfo } from '@temporalio/workflow';
import {
  CARD_OPERATION_FROM,
  cardOperationInputIssues,
  cardOperationStatusQuery,
  type CardOperationInput,
  type CardOperationKind,
  type CardOperationOutcome,
  type CardOperationStatus,
} from '../domain/card-operations';
import { FailureTypes } from '../domain/failure-types';
import type { CardOperation } from '../domain/provider-records';
import type { WaitProfile } from '../domain/wait-profile';
import { nonCancellable } from './calls/non-cancellable';
import { EventInbox } from './events/inbox';
import { cardOperationWait, providerCallsFor, type ProviderCalls } from './calls/profiles';
import { Attributes, isChild, type StartedWith } from './reporting/search';
import { trackStatus } from './reporting/tracked-status';
import { waitForCardOperationSuccess } from './events/waits';
import { cardOperationWorkflows } from '../domain/workflows';

export interface CardOperationStep {
  kind: CardOperationKind;
  cardNo: string;
  merchantOrderNo: string;
  clientRemark?: string;
  sealedPin?: string;
  profile: WaitProfile;
  /** The workflow's provider-call proxy (its retry profile). */
  provider: ProviderCalls;
  /** Told when the operation was sent and when its record is final. */
  onProgress?: (stage: 'awaiting_operation', operationStatus: string) => void;
  /**
   * Told the operation's final record, however it was learned (its webhook, a poll, the send's
   * answer).
   */
  onRecord?: (operation: CardOperation) => void;
}

/**
 * Sends the operation, waits for its record, reads the card; a `fail` record becomes
 * OperationFailed.
 */
export async function runCardOperation(inbox: EventInbox, step: CardOperationStep): Promise<CardOperationOutcome> {
  const { kind, cardNo, merchantOrderNo, provider } = step;
  // Once the provider may have it, the operation is followed to its outcome even if cancelled.
  return nonCancellable(async () => {
    const sent = await provider.sendCardOperation({
      kind,
      cardNo,
      merchantOrderNo,
      ...(step.clientRemark === undefined ? {} : { clientRemark: step.clientRemark }),
      ...(step.sealedPin === undefined ? {} : { sealedPin: step.sealedPin }),
    });
    step.onProgress?.('awaiting_operation', sent.status);
    const operation = await waitForCardOperationSuccess(inbox, sent, step.profile, `${kind} ${merchantOrderNo}`, {
      record: step.onRecord,
    });
    const card = await provider.getCardStatus({ cardNo });
    return { cardNo, kind, merchantOrderNo, orderNo: operation.orderNo, status: 'success', cardStatus: card.status };
  });
}

async function cardOperationWorkflow(
  kind: CardOperationKind,
  input: CardOperationInput & StartedWith,
): Promise<CardOperationOutcome> {
  const info = workflowInfo();
  const provider = providerCallsFor(input.wait);
  const attributes = new Attributes(input.startAttributes);
  const inbox = new EventInbox();
  const { status, enter, fail, step } = trackStatus<CardOperationStatus>(
    { stage: 'validating', kind },
    cardOperationStatusQuery,
    inbox,
  );

  const issues = cardOperationInputIssues(kind, input);
  if (issues.length) fail(FailureTypes.invalidInput, issues);
  if (!isChild())
    attributes.set({ cardNo: input.cardNo, customerRef: input.customerRef, flow: cardOperationWorkflows[kind].flow });
  return step(async () => {
    const card = await provider.getCardStatus({ cardNo: input.cardNo });
    if (!CARD_OPERATION_FROM[kind].includes(card.status) || card.blocked) {
      fail(
        FailureTypes.operationNotAllowed,
        `card ${input.cardNo} is ${card.blocked ? 'blocked' : card.status}; ${kind} needs ${CARD_OPERATION_FROM[kind].join(' or ')}`,
      );
    }
    const merchantOrderNo = cardOperationWorkflows[kind].orderKeys(info.workflowId).operation;
    status.merchantOrderNo = merchantOrderNo;
    attributes.addOrderNo(merchantOrderNo);
    enter('sending');
    const outcome = await runCardOperation(inbox, {
      kind,
      cardNo: input.cardNo,
      merchantOrderNo,
      ...(input.clientRemark === undefined ? {} : { clientRemark: input.clientRemark }),
      ...(input.sealedPin === undefined ? {} : { sealedPin: input.sealedPin }),
      profile: cardOperationWait(input.wait),
      provider,
      onProgress: (stage, operationStatus) => {
        enter(stage);
        status.operationStatus = operationStatus;
      },
    });
    status.operationStatus = 'success';
    enter('completed');
    return outcome;
  });
}

/** Freezes a card (v2 freeze) and waits for the Freeze record to succeed. */
export async function cardFreeze(input: CardOperationInput & StartedWith): Promise<CardOperationOutcome> {
  return cardOperationWorkflow('freeze', input);
}

/** Unfreezes a card (v2 unfreeze) and waits for the UnFreeze record to succeed. */
export async function cardUnfreeze(input: CardOperationInput & StartedWith): Promise<CardOperationOutcome> {
  return cardOperationWorkflow('unfreeze', input);
}

/** Changes a physical card's PIN (sealed) and waits for the update_pin record to succeed. */
export async function cardPinUpdate(input: CardOperationInput & StartedWith): Promise<CardOperationOutcome> {
  return cardOperationWorkflow('updatePin', input);
}

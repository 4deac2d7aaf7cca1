/**
 * `cardEntity`, one long-lived workflow per card (domain/card-entity.ts), id `card-<cardNo>`.
 *
 * - Updates (freeze, unfreeze, updatePin, deposit, refresh) are validated against the card's
 *   projected status, then run one at a time in arrival order (a ticket queue). A repeated
 *   requestId returns the first answer; its merchantOrderNo is derived from the requestId, so
 *   even a repeat after continue-as-new makes the provider act once.
 * - Authorization (card_auth_transaction) and fee (card_fee_patch) webhooks are recorded; card
 *   operation webhooks (card_transaction, routed by cardNo) move the status and reveal a cancel.
 * - The card is re-read every `refreshIntervalMs`, so a lost cancel webhook only delays the end.
 * - Before history grows large it waits for its handlers, then continues as new with its state.
 * - It ends when the card is cancelled (e.g. risk control after a high-risk purchase).
 *
 * What it knows of the card is a `CardState` (card-entity/state.ts, no commands), its requests'
 * checks and order a `CardRequests` (card-entity/requests.ts); this function registers the
 * handlers and sends what reaches the provider.
 */
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  ParentClosePolicy,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  cardSnapshotQuery,
  depositUpdate,
  freezeUpdate,
  refreshUpdate,
  unfreezeUpdate,
  updatePinUpdate,
  type CardDepositOutcome,
  type CardEntityInput,
  type CardEntityResult,
  type CardSnapshot,
} from '../domain/card-entity';
import type { CardOperationKind, CardOperationOutcome } from '../domain/card-operations';
import { deriveMerchantOrderNo, entityOrderStep } from '../domain/merchant-order-no';
import { providerEventSignal } from '../domain/provider-event';
import { Flows } from '../domain/workflow-types';
import { cardDepositWorkflow } from '../domain/workflows';
import { runCardOperation } from './card-operations';
import { CardRequests, type OperationFields } from './card-entity/requests';
import { CardState } from './card-entity/state';
import { runChild } from './support/children';
import { failWith, summarize } from './support/failures';
import { EventInbox } from './support/inbox';
import { cardOperationWait, providerCallsFor } from './support/profiles';
import { Attributes, isChild } from './support/search';

export const DEFAULT_MAX_HISTORY_EVENTS = 2000;
export const DEFAULT_REFRESH_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** The clientRemark of a freeze or unfreeze request, when it has one. */
function remarkOf(req: { clientRemark?: string } | undefined): OperationFields {
  return req?.clientRemark === undefined ? {} : { clientRemark: req.clientRemark };
}

export async function cardEntity(input: CardEntityInput): Promise<CardEntityResult> {
  const info = workflowInfo();
  const provider = providerCallsFor(input.wait);
  const { cardNo } = input;
  const card = new CardState(cardNo, input.carried);
  const requests = new CardRequests(card);
  const inbox = new EventInbox();
  const profile = cardOperationWait(input.wait);
  const maxEvents = input.maxHistoryEvents ?? DEFAULT_MAX_HISTORY_EVENTS;

  const refresh = async (): Promise<CardSnapshot> => {
    const sentAt = Date.now();
    const read = await provider.getCardSummary({ cardNo });
    card.learnRead(read, sentAt, requests.pending === 0);
    return card.snapshot(requests.pending);
  };

  const operate = (
    kind: CardOperationKind,
    requestId: string,
    fields: OperationFields,
  ): Promise<CardOperationOutcome> =>
    requests.once(requestId, () => {
      card.project(kind);
      return requests.serialized(async () => {
        const sentAt = Date.now();
        let recordTime: number | undefined;
        const outcome = await runCardOperation(inbox, {
          kind,
          cardNo,
          merchantOrderNo: deriveMerchantOrderNo(info.workflowId, entityOrderStep(kind, requestId)),
          ...fields,
          profile,
          provider,
          onRecord: (operation) => {
            card.learnOwnRecord(operation.merchantOrderNo, operation.status);
            recordTime = operation.transactionTime;
          },
        });
        card.learnOperation(outcome.cardStatus, recordTime, sentAt);
        return card.remember(requestId, outcome);
      });
    });

  const deposit = (req: { requestId: string; amount: string; cardTypeId: string }): Promise<CardDepositOutcome> =>
    requests.once(req.requestId, () =>
      requests.serialized(async () => {
        // ABANDON: a deposit under way finishes even if this card's workflow ends first. Started
        // without CardflowCustomerRef, as the entity has always started its deposits.
        const result = await runChild(
          cardDepositWorkflow,
          {
            cardNo,
            amount: req.amount,
            cardTypeId: req.cardTypeId,
            ...(input.customerRef ? { customerRef: input.customerRef } : {}),
            ...(input.wait ? { wait: input.wait } : {}),
          },
          { suffix: `deposit-${req.requestId}`, parentClosePolicy: ParentClosePolicy.ABANDON },
        );
        card.learnDeposit(result.balance);
        return card.remember<CardDepositOutcome>(req.requestId, {
          cardNo,
          kind: 'deposit',
          merchantOrderNo: result.merchantOrderNo,
          amount: result.amount,
          fee: result.fee,
          ...(result.balance ? { balance: result.balance } : {}),
        });
      }),
    );

  setHandler(providerEventSignal, (event) => {
    inbox.add(event);
    card.learnEvent(event);
  });
  setHandler(cardSnapshotQuery, () => card.snapshot(requests.pending));
  setHandler(freezeUpdate, (req) => operate('freeze', req.requestId, remarkOf(req)), {
    validator: (req) => requests.validateOperation(req?.requestId, 'freeze', remarkOf(req)),
  });
  setHandler(unfreezeUpdate, (req) => operate('unfreeze', req.requestId, remarkOf(req)), {
    validator: (req) => requests.validateOperation(req?.requestId, 'unfreeze', remarkOf(req)),
  });
  setHandler(updatePinUpdate, (req) => operate('updatePin', req.requestId, { sealedPin: req.sealedPin }), {
    validator: (req) => requests.validateOperation(req?.requestId, 'updatePin', { sealedPin: req?.sealedPin }),
  });
  setHandler(depositUpdate, deposit, { validator: (req) => requests.validateDeposit(req) });
  setHandler(refreshUpdate, async () => {
    try {
      return await refresh();
    } catch (error) {
      const summary = summarize(error);
      throw failWith(summary.type, summary.message);
    }
  });

  // Continue-as-new keeps the search attributes: a carried run does not upsert what the first one set.
  const mine = { cardNo, customerRef: input.customerRef, flow: Flows.cardEntity };
  if (!isChild()) new Attributes(input.carried ? mine : {}).set(mine);
  if (card.carried.asOf === undefined) await refresh();

  const historyIsLarge = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= maxEvents;
  const interval = input.refreshIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS;
  while (!card.cancelled) {
    const woke = await condition(() => card.cancelled || historyIsLarge(), interval);
    if (card.cancelled) break;
    if (woke && historyIsLarge()) {
      await condition(allHandlersFinished);
      if (!card.cancelled) {
        const { carried: _previous, ...rest } = input;
        await continueAsNew<typeof cardEntity>({ ...rest, carried: card.carried });
      }
    } else {
      await refresh();
    }
  }
  await condition(allHandlersFinished);
  return card.result();
}

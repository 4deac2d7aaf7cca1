/**
 * `cardEntity`, one long-lived workflow per card (domain/card-entity.ts), id `card-<cardNo>`.
 *
 * - Updates (freeze, unfreeze, updatePin, deposit, refresh) are validated against the card's
 *   projected status, then run one at a time in arrival order (a ticket queue). A repeated
 *   requestId returns the first answer; its merchantOrderNo is derived from the requestId, so
 *   even a repeat after continue-as-new makes the provider act once.
 * - Every provider event of the card reaches `learn` (one place): authorizations, fees and card
 *   operations are booked by type (domain/card-ledger.ts), a `blocked` record makes the card
 *   blocked, a cancel ends it. An event that moved money gets the balance read from the provider.
 * - The receiver starts it with signal-with-start on the first event of a card it does not follow
 *   (webhooks/card-route.ts); the createCard activity starts it for the cards cardflow makes (workers/card-entity-port.ts). A fresh run catches up
 *   from the record queries (and so does `refresh`), so what happened while nobody followed the
 *   card is learned by the same rules, and repeats are ignored.
 * - A blocked card refuses freeze, unfreeze and deposit before any call; `requestUnblock` submits
 *   the OTHER work order with its files, waits for its decision and for the card to be Normal.
 * - Parked, it waits on its handlers alone: no timer fires while nothing happens (runs started
 *   before that re-read the card every `refreshIntervalMs`).
 * - With a notification URL configured (the plan comes with its first catch-up and is carried),
 *   what it learns anew is told to the merchant's backend (docs/notifications.md, card events):
 *   the card issued (its first run, after the first read), transactions, the block set and lifted, status moves, the cancel with what it returned; a 3DS
 *   code or URL is relayed by its ids (workflows/support/three-ds-relay.ts). Without one its
 *   commands are those it always had.
 * - Before history grows large it waits for its handlers, then continues as new with its state.
 * - When the card is cancelled (risk control after a high-risk purchase, or the provider) it
 *   records why, waits for the balance to be back on the account (`card_cancel` in the ledger),
 *   and ends with the amount returned.
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
  patched,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  cardSnapshotQuery,
  depositUpdate,
  freezeUpdate,
  DEFAULT_UNBLOCK_TITLE,
  refreshUpdate,
  requestUnblockUpdate,
  unfreezeUpdate,
  updatePinUpdate,
  type CardDepositOutcome,
  type CardEntityInput,
  type CardEntityResult,
  type CardSnapshot,
  type CardUnblockOutcome,
  type UnblockRequest,
} from '../domain/card-entity';
import type { CardOperationKind, CardOperationOutcome } from '../domain/card-operations';
import { deriveMerchantOrderNo, entityOrderStep } from '../domain/merchant-order-no';
import { cardIssuedEventId, NotificationTypes } from '../domain/notifications';
import { nonEmpty, providerEventSignal, type ProviderEventBody } from '../domain/provider-event';
import { FailureTypes } from '../domain/failure-types';
import { isFinalOperationStatus } from '../api/rules';
import { cardDepositWorkflow, cardEntityWorkflow } from '../domain/workflows';
import { runCardOperation } from './card-operations';
import { CardRequests, type OperationFields } from './card-entity/requests';
import { CardState } from './card-entity/state';
import {
  relayedThreeDs,
  statusNotices,
  transactionNotice,
  type CardMark,
  type CardNotice,
} from './card-entity/notices';
import { runChild } from './support/children';
import { nonRetryable, rethrown, summarize } from '../domain/failures';
import { EventInbox } from './support/inbox';
import { Notifier } from './support/notifier';
import { relayThreeDsRecord } from './support/three-ds-relay';
import { cardOperationWait, longPollCalls, pollSettings, providerCallsFor, reviewWait } from './support/profiles';
import { Attributes, isChild } from './support/search';

export const DEFAULT_MAX_HISTORY_EVENTS = 2000;
export const DEFAULT_REFRESH_INTERVAL_MS = 6 * 60 * 60 * 1000;
/**
 * The card's whole life: catch-up from the record queries, balance reads after money moved, the
 * cancel followed to its return, and no timer while parked. Runs that started before it replay
 * their own commands (the 6-hour re-read, the end right at the cancel).
 */
export const CARD_LIFE_PATCH = 'card-entity-life';
/** `card.issued` told after the first read; runs that read their card before replay without it. */
export const CARD_ISSUED_PATCH = 'card-entity-issued';

/** The clientRemark of a freeze or unfreeze request, when it has one. */
function remarkOf(req: { clientRemark?: string } | undefined): OperationFields {
  return req?.clientRemark === undefined ? {} : { clientRemark: req.clientRemark };
}

export async function cardEntity(input: CardEntityInput): Promise<CardEntityResult> {
  const info = workflowInfo();
  const life = patched(CARD_LIFE_PATCH);
  const provider = providerCallsFor(input.wait);
  const { cardNo } = input;
  const card = new CardState(cardNo, input.carried);
  const requests = new CardRequests(card);
  const inbox = new EventInbox();
  const profile = cardOperationWait(input.wait);
  const maxEvents = input.maxHistoryEvents ?? DEFAULT_MAX_HISTORY_EVENTS;

  // Notifications (docs/notifications.md, card events): on when the first run's catch-up returned
  // a plan, which the carried state keeps. A fresh run learns before its catch-up answers (the
  // event that started it): what that tells waits for the answer, then goes or is dropped.
  const notifier = new Notifier();
  notifier.enable(input.carried);
  let held: (() => void)[] | undefined = life && input.carried === undefined ? [] : undefined;
  const tell = (step: () => void): void => {
    if (held) held.push(step);
    else step();
  };
  const emit = (notice: CardNotice): void => tell(() => notifier.emit(notice.type, notice.data));
  /** The 3DS relays under way: awaited before the run ends or continues as new. */
  const relays: Promise<unknown>[] = [];
  const relayed = new Set<string>();
  const relay = (tradeNo: string): void =>
    tell(() => {
      if (!notifier.current || relayed.has(tradeNo)) return;
      relayed.add(tradeNo);
      relays.push(relayThreeDsRecord({ cardNo, tradeNo }));
    });
  const mark = (): CardMark => ({ status: card.carried.status, blocked: card.blocked });
  /** Tells the block set or lifted, or the status moved, by a step of the state after `before`. */
  const tellMoves = (before: CardMark, merchantOrderNo?: string): void => {
    for (const notice of statusNotices(cardNo, before, mark(), { customerRef: input.customerRef, merchantOrderNo }))
      emit(notice);
  };
  const deliverNotices = async (): Promise<void> => {
    while (relays.length > 0) await Promise.all(relays.splice(0));
    await notifier.flush();
  };

  /**
   * Every provider event of the card, from a webhook or from a catch-up, is learned here and only
   * here, and told here when it is new: a repeat is told once.
   */
  const learn = (event: ProviderEventBody & { requestId?: string }): void => {
    if (event.requestId !== undefined) inbox.add(event as Parameters<typeof inbox.add>[0]);
    const before = mark();
    if (!card.learnEvent(event)) return;
    const transaction = transactionNotice(cardNo, event);
    if (transaction) emit({ type: NotificationTypes.cardTransaction, data: transaction });
    tellMoves(before, event.category === 'card_transaction' ? nonEmpty(event.record.merchantOrderNo) : undefined);
    const threeDs = relayedThreeDs(event);
    if (threeDs) relay(threeDs);
  };

  /** Learns the records the webhooks may have missed (the entity was not running, or one was lost). */
  const catchUp = async (): Promise<void> => {
    const since = card.carried.recordsUpTo;
    const found = await provider.cardRecordsSince({ cardNo, ...(since === undefined ? {} : { since }) });
    notifier.enable(found);
    if (notifier.current) card.carried.notifications = notifier.current;
    const waiting = held;
    held = undefined;
    for (const step of waiting ?? []) step();
    for (const record of found.operations) learn({ category: 'card_transaction', record });
    for (const record of found.authorizations) learn({ category: 'card_auth_transaction', record });
    for (const record of found.fees) learn({ category: 'card_fee_patch', record });
    const times = [...found.operations, ...found.authorizations, ...found.fees].map((r) => r.transactionTime ?? 0);
    card.caughtUp(times.length ? Math.max(...times) : undefined);
  };

  const refresh = async (): Promise<CardSnapshot> => {
    const sentAt = Date.now();
    if (life) card.readingBalance();
    const read = await provider.getCardSummary({ cardNo });
    const before = mark();
    card.learnRead(read, sentAt, requests.pending === 0);
    tellMoves(before);
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
        const before = mark();
        card.learnOperation(outcome.cardStatus, recordTime, sentAt);
        tellMoves(before, outcome.merchantOrderNo);
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

  const unblock = (req: UnblockRequest): Promise<CardUnblockOutcome> =>
    requests.once(req.requestId, () =>
      requests.serialized(async () => {
        requests.requireBlocked();
        const merchantOrderNo = deriveMerchantOrderNo(info.workflowId, entityOrderStep('unblock', req.requestId));
        const fileIds: string[] = [];
        for (const file of req.files) {
          if ('fileId' in file) fileIds.push(file.fileId);
          else
            fileIds.push(
              (
                await provider.uploadStoredFile({
                  ref: file.ref,
                  ...(file.contentType ? { contentType: file.contentType } : {}),
                })
              ).fileId,
            );
        }
        // Spec, States: a block is lifted only by a manual application, the OTHER work order on the card.
        let order = await provider.submitWorkOrder({
          merchantOrderNo,
          title: req.title ?? DEFAULT_UNBLOCK_TITLE,
          target: cardNo,
          ...(req.content === undefined ? {} : { content: req.content }),
          files: fileIds,
          tradeType: 'OTHER',
        });
        if (!isFinalOperationStatus(order.tradeStatus)) {
          const slow = reviewWait(input.wait);
          order = await longPollCalls(slow).awaitWorkOrder({ merchantOrderNo, poll: pollSettings(slow) });
        }
        if (order.tradeStatus === 'fail')
          throw nonRetryable(
            FailureTypes.operationFailed,
            `work order ${order.orderNo} to lift the block of card ${cardNo} failed: ${order.description ?? 'no description'}`,
          );
        await longPollCalls(profile).awaitCardStatus({ cardNo, until: ['Normal'], poll: pollSettings(profile) });
        const before = mark();
        card.learnUnblocked();
        tellMoves(before, merchantOrderNo);
        return card.remember<CardUnblockOutcome>(req.requestId, {
          cardNo,
          kind: 'unblock',
          merchantOrderNo,
          workOrderNo: order.orderNo,
          fileIds,
          cardStatus: 'Normal',
        });
      }),
    );

  /** The loop's read: in a run with the card's life, a read that fails for good is tried at the next event. */
  const refreshQuietly = async (): Promise<void> => {
    if (!life) {
      await refresh();
      return;
    }
    try {
      await refresh();
    } catch {
      card.readingBalance();
    }
  };

  setHandler(providerEventSignal, learn);
  setHandler(requestUnblockUpdate, unblock, { validator: (req) => requests.validateUnblock(req) });
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
      if (life) await catchUp();
      return await refresh();
    } catch (error) {
      const summary = summarize(error);
      throw rethrown(summary);
    }
  });

  // Continue-as-new keeps the search attributes: a carried run does not upsert what the first one
  // set, nor does a run whose starter set them (cardEntityStartAttributes, `attributesSetAtStart`).
  const mine = { cardNo, customerRef: input.customerRef, flow: cardEntityWorkflow.flow };
  if (!isChild()) new Attributes(input.carried || input.attributesSetAtStart ? mine : {}).set(mine);
  if (card.carried.asOf === undefined) {
    if (life) await catchUp();
    const first = await refresh();
    // The card's first run tells the backend the card exists, once per card (its id is the card's).
    // Runs that read the card before this was told replay without it.
    if (life && notifier.current && first.cardTypeId && !first.cancelled && patched(CARD_ISSUED_PATCH))
      notifier.emit(
        NotificationTypes.cardIssued,
        {
          cardNo,
          cardTypeId: first.cardTypeId,
          ...(input.customerRef ? { customerRef: input.customerRef } : {}),
          ...(first.holderId ? { holderId: first.holderId } : {}),
          cardStatus: first.status ?? 'unknown',
        },
        cardIssuedEventId(cardNo),
      );
  }

  const historyIsLarge = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= maxEvents;
  const interval = input.refreshIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS;
  const readBalance = () => life && card.balanceStale;
  while (!card.cancelled) {
    const wake = () => card.cancelled || historyIsLarge() || readBalance();
    // Parked: no timer, only the handlers wake it (a signal, an Update).
    const woke = life ? await condition(wake).then(() => true) : await condition(wake, interval);
    if (card.cancelled) break;
    if (woke && historyIsLarge()) {
      await condition(allHandlersFinished);
      if (notifier.current) await deliverNotices();
      if (!card.cancelled) {
        const { carried: _previous, ...rest } = input;
        await continueAsNew<typeof cardEntity>({ ...rest, carried: card.carried });
      }
    } else {
      await refreshQuietly();
    }
  }
  if (life && !card.cancelReturned) {
    // The cancel is recorded; the card's balance goes back to its account (card_cancel in the ledger).
    const returned = await longPollCalls(profile).awaitCancelReturn({ cardNo, poll: pollSettings(profile) });
    card.learnCancelReturn(returned);
    tell(() =>
      notifier.emit(NotificationTypes.cardCancelled, {
        cardNo,
        ...(input.customerRef ? { customerRef: input.customerRef } : {}),
        cardStatus: 'cancel',
        amountReturned: returned.returnedAmount,
        ...(returned.currency ? { currency: returned.currency } : {}),
      }),
    );
  }
  await condition(allHandlersFinished);
  if (notifier.current) await deliverNotices();
  return card.result();
}

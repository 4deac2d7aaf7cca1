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
  depositRequestIssues,
  depositUpdate,
  freezeUpdate,
  keepLatest,
  KEPT_AUTHORIZATIONS,
  KEPT_EVENT_KEYS,
  KEPT_FEES,
  KEPT_REQUESTS,
  learnCardRead,
  learnCardRecord,
  learnCardStatus,
  recordAuthorization,
  refreshUpdate,
  REQUEST_ID_RE,
  trimRecord,
  unfreezeUpdate,
  updatePinUpdate,
  type AuthorizationSummary,
  type CardDepositOutcome,
  type CardEntityInput,
  type CardEntityOutcome,
  type CardEntityResult,
  type CardEntityState,
  type CardSnapshot,
} from '../domain/card-entity';
import {
  CARD_OPERATION_FROM,
  cardOperationInputIssues,
  type CardOperationKind,
  type CardOperationOutcome,
} from '../domain/card-operations';
import { FailureTypes } from '../domain/failure-types';
import { deriveMerchantOrderNo, entityOrderStep } from '../domain/merchant-order-no';
import { providerEventSignal, type ProviderEvent, cardNoOf, nonEmpty } from '../domain/provider-event';
import { Flows } from '../domain/workflow-types';
import { runCardOperation } from './card-operations';
import { failIssues, failWith, summarize } from './support/failures';
import { EventInbox, SeenKeys } from './support/inbox';
import { cardOperationWait, providerCallsFor } from './support/profiles';
import { Attributes, isChild } from './support/search';
import { cardDepositWorkflow } from '../domain/workflows';
import { runChild } from './support/children';
import { TicketQueue } from './support/ticket-queue';
import { keyBeforeStateFields, recordStateKey } from '../domain/event-identity';
import { readTime } from '../domain/event-order';

export const DEFAULT_MAX_HISTORY_EVENTS = 2000;
export const DEFAULT_REFRESH_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** Status a successful operation leaves the card in, as the validators project it. */
const TARGET_STATUS: Partial<Record<CardOperationKind, string>> = { freeze: 'Freeze', unfreeze: 'Normal' };

function fresh(): CardEntityState {
  return { authorizations: [], fees: [], authorizationCount: 0, completed: {}, run: 0 };
}

export async function cardEntity(input: CardEntityInput): Promise<CardEntityResult> {
  const info = workflowInfo();
  const provider = providerCallsFor(input.wait);
  const { cardNo } = input;
  const state: CardEntityState = input.carried ?? fresh();
  state.run += 1;
  const inbox = new EventInbox();
  const profile = cardOperationWait(input.wait);
  const maxEvents = input.maxHistoryEvents ?? DEFAULT_MAX_HISTORY_EVENTS;
  let cancelled = state.status === 'cancel';
  /** Status after the accepted-but-unfinished operations, for validators. */
  let projected = state.status;
  const queue = new TicketQueue();
  /** Requests accepted and not yet finished, so a repeat sent meanwhile shares the first answer. */
  const running: Record<string, Promise<CardEntityOutcome>> = {};

  const markCancelled = (reason?: string) => {
    cancelled = true;
    state.status = 'cancel';
    projected = 'cancel';
    if (reason) state.cancelReason = reason;
  };

  /** The keys of the events the card's state has learned from, carried across continue-as-new. */
  const seen = new SeenKeys(state.seenKeys, KEPT_EVENT_KEYS);
  /** Records an event's key as handled; false when it already was. */
  const firstSeen = (key: string | undefined): boolean => {
    if (!key) return true;
    if (!seen.first(key)) return false;
    state.seenKeys = seen.record;
    return true;
  };

  const onEvent = (event: ProviderEvent) => {
    inbox.add(event);
    if (cardNoOf(event) !== cardNo) return;
    if (!firstSeen(keyBeforeStateFields(event))) return;
    if (event.category === 'card_auth_transaction') {
      const r = event.record;
      const tradeNo = nonEmpty(r.tradeNo);
      if (!tradeNo) return;
      if (!state.authorizations.some((a) => a.tradeNo === tradeNo)) state.authorizationCount += 1;
      const settleAmount = nonEmpty(r.settleAmount);
      const merchantName = nonEmpty(r.merchantName);
      const description = nonEmpty(r.description);
      const summary: AuthorizationSummary = {
        tradeNo,
        type: r.type,
        status: r.status,
        authorizedAmount: r.authorizedAmount,
        currency: r.authorizedCurrency,
        fee: r.fee,
        crossBoardFee: r.crossBoardFee,
        ...(settleAmount ? { settleAmount } : {}),
        ...(merchantName ? { merchantName } : {}),
        ...(description ? { description } : {}),
      };
      state.authorizations = recordAuthorization(state.authorizations, summary, KEPT_AUTHORIZATIONS);
    } else if (event.category === 'card_fee_patch') {
      const r = event.record;
      const tradeNo = nonEmpty(r.tradeNo);
      if (!tradeNo) return;
      const deduction = nonEmpty(r.deductionSourceFunds);
      state.fees = keepLatest(
        state.fees,
        {
          tradeNo,
          originTradeNo: r.originTradeNo,
          type: r.type,
          amount: r.amount,
          ...(deduction ? { deductionSourceFunds: deduction } : {}),
        },
        (f) => f.tradeNo,
        KEPT_FEES,
      );
    } else if (event.category === 'card_transaction' && !cancelled) {
      // A late retry of an older record (a freeze retried after the unfreeze) leaves the status alone.
      const { type, description, remark } = event.record;
      if (learnCardRecord(state, event.record) && type === 'cancel')
        markCancelled(nonEmpty(description) ?? nonEmpty(remark));
    }
  };

  const snapshot = (): CardSnapshot => ({
    cardNo,
    ...(state.status ? { status: state.status } : {}),
    ...(state.balance ? { balance: state.balance } : {}),
    ...(state.asOf ? { asOf: state.asOf } : {}),
    cancelled,
    pending: queue.pending,
    authorizations: state.authorizations,
    fees: state.fees,
    authorizationCount: state.authorizationCount,
    run: state.run,
  });

  const refresh = async (): Promise<CardSnapshot> => {
    const sentAt = Date.now();
    const card = await provider.getCardSummary({ cardNo });
    state.asOf = Date.now();
    if (card.balance) state.balance = card.balance;
    if (card.status === 'cancel') markCancelled(state.cancelReason);
    else if (!cancelled) learnCardRead(state, card.status, sentAt);
    if (queue.pending === 0) projected = state.status;
    return snapshot();
  };

  /** Runs `work` when every earlier request has finished; a cancelled card refuses what is still queued. */
  const serialized = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await queue.run(
        async () => {
          if (cancelled) throw failWith(FailureTypes.cardCancelled, `card ${cardNo} is cancelled`);
          return await work();
        },
        () => {
          projected = state.status;
        },
      );
    } catch (error) {
      const summary = summarize(error);
      throw failWith(summary.type, summary.message);
    }
  };

  const remember = <T extends CardEntityOutcome>(requestId: string, outcome: T): T => {
    state.completed = trimRecord({ ...state.completed, [requestId]: outcome }, KEPT_REQUESTS);
    return outcome;
  };

  const validate = (
    requestId: unknown,
    kind: CardOperationKind | 'deposit',
    extra: { clientRemark?: string; sealedPin?: string } = {},
  ) => {
    if (typeof requestId !== 'string' || !REQUEST_ID_RE.test(requestId)) {
      throw failIssues(FailureTypes.invalidInput, [
        { path: 'requestId', message: 'must be 1 to 64 letters, digits, "_", "." or "-"' },
      ]);
    }
    if (state.completed[requestId] || requestId in running) return;
    if (cancelled) throw failWith(FailureTypes.cardCancelled, `card ${cardNo} is cancelled`);
    if (kind === 'deposit') return;
    const issues = cardOperationInputIssues(kind, { cardNo, ...extra });
    if (issues.length) throw failIssues(FailureTypes.invalidInput, issues);
    if (projected !== undefined && !CARD_OPERATION_FROM[kind].includes(projected)) {
      throw failWith(
        FailureTypes.operationNotAllowed,
        `card ${cardNo} is (or will be) ${projected}; ${kind} needs ${CARD_OPERATION_FROM[kind].join(' or ')}`,
      );
    }
  };

  /** Runs a request once: a repeat gets the finished answer, or shares the running one. */
  const once = <T extends CardEntityOutcome>(requestId: string, work: () => Promise<T>): Promise<T> => {
    const earlier = state.completed[requestId] ?? running[requestId];
    if (earlier) return Promise.resolve(earlier as T);
    const promise = work();
    running[requestId] = promise;
    const clear = () => {
      delete running[requestId];
    };
    promise.then(clear, clear);
    return promise;
  };

  const operate = (
    kind: CardOperationKind,
    requestId: string,
    extra: { clientRemark?: string; sealedPin?: string },
  ): Promise<CardOperationOutcome> =>
    once(requestId, () => {
      const target = TARGET_STATUS[kind];
      if (target) projected = target;
      return serialized(async () => {
        const sentAt = Date.now();
        let recordTime: number | undefined;
        const outcome = await runCardOperation(inbox, {
          kind,
          cardNo,
          merchantOrderNo: deriveMerchantOrderNo(info.workflowId, entityOrderStep(kind, requestId)),
          ...(extra.clientRemark === undefined ? {} : { clientRemark: extra.clientRemark }),
          ...(extra.sealedPin === undefined ? {} : { sealedPin: extra.sealedPin }),
          profile,
          provider,
          onRecord: (operation) => {
            // Its webhook, retried late (the receiver was down), is then a repeat.
            firstSeen(recordStateKey('card_transaction', operation.merchantOrderNo, operation.status));
            recordTime = operation.transactionTime;
          },
        });
        // The card was read after the operation's record: the read vouches for the state as of that record.
        if (!cancelled) learnCardStatus(state, outcome.cardStatus, Math.max(recordTime ?? 0, readTime(sentAt)));
        state.asOf = Date.now();
        return remember(requestId, outcome);
      });
    });

  setHandler(providerEventSignal, onEvent);
  setHandler(cardSnapshotQuery, snapshot);
  setHandler(
    freezeUpdate,
    (req) => operate('freeze', req.requestId, req.clientRemark === undefined ? {} : { clientRemark: req.clientRemark }),
    {
      validator: (req) =>
        validate(req?.requestId, 'freeze', req?.clientRemark === undefined ? {} : { clientRemark: req.clientRemark }),
    },
  );
  setHandler(
    unfreezeUpdate,
    (req) =>
      operate('unfreeze', req.requestId, req.clientRemark === undefined ? {} : { clientRemark: req.clientRemark }),
    {
      validator: (req) =>
        validate(req?.requestId, 'unfreeze', req?.clientRemark === undefined ? {} : { clientRemark: req.clientRemark }),
    },
  );
  setHandler(updatePinUpdate, (req) => operate('updatePin', req.requestId, { sealedPin: req.sealedPin }), {
    validator: (req) => validate(req?.requestId, 'updatePin', { sealedPin: req?.sealedPin }),
  });
  setHandler(
    depositUpdate,
    (req) =>
      once(req.requestId, () =>
        serialized(async () => {
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
          if (result.balance) state.balance = result.balance;
          state.asOf = Date.now();
          return remember<CardDepositOutcome>(req.requestId, {
            cardNo,
            kind: 'deposit',
            merchantOrderNo: result.merchantOrderNo,
            amount: result.amount,
            fee: result.fee,
            ...(result.balance ? { balance: result.balance } : {}),
          });
        }),
      ),
    {
      validator: (req) => {
        validate(req?.requestId, 'deposit');
        const issues = depositRequestIssues(req);
        if (issues.length) throw failIssues(FailureTypes.invalidInput, issues);
      },
    },
  );
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
  if (state.asOf === undefined) await refresh();

  const historyIsLarge = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= maxEvents;
  const interval = input.refreshIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS;
  while (!cancelled) {
    const woke = await condition(() => cancelled || historyIsLarge(), interval);
    if (cancelled) break;
    if (woke && historyIsLarge()) {
      await condition(allHandlersFinished);
      if (!cancelled) {
        const { carried: _previous, ...rest } = input;
        await continueAsNew<typeof cardEntity>({ ...rest, carried: state });
      }
    } else {
      await refresh();
    }
  }
  await condition(allHandlersFinished);
  return {
    cardNo,
    status: 'cancel',
    ...(state.cancelReason ? { reason: state.cancelReason } : {}),
    authorizationCount: state.authorizationCount,
    runs: state.run,
  };
}

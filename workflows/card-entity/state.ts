/**
 * What the card entity knows of its card: the record it carries across continue-as-new
 * (domain/card-entity.ts `CardEntityState`: status, balance, authorizations, fees, answers), the
 * status its queued operations will leave (what validators check against), and whether the card
 * is cancelled. It learns from provider events, card reads and its own operations' answers, each
 * by the one ordering rule (domain/event-order.ts). It issues no command: the workflow calls the
 * provider and hands it what came back.
 */
import {
  KEPT_AUTHORIZATIONS,
  KEPT_EVENT_KEYS,
  KEPT_FEES,
  KEPT_REQUESTS,
  keepLatest,
  learnCardRead,
  learnCardRecord,
  learnCardStatus,
  recordAuthorization,
  trimRecord,
  type AuthorizationSummary,
  type CardEntityOutcome,
  type CardEntityResult,
  type CardEntityState,
  type CardSnapshot,
} from '../../domain/card-entity';
import type { CardOperationKind } from '../../domain/card-operations';
import { keyBeforeStateFields, recordStateKey } from '../../domain/event-identity';
import { readTime } from '../../domain/event-order';
import { cardNoOf, nonEmpty, type ProviderEvent } from '../../domain/provider-event';
import type { BalanceSummary } from '../../domain/workflow-types';
import { SeenKeys } from '../support/inbox';

/** Status a successful operation leaves the card in, as the validators project it. */
const TARGET_STATUS: Partial<Record<CardOperationKind, string>> = { freeze: 'Freeze', unfreeze: 'Normal' };

function fresh(): CardEntityState {
  return { authorizations: [], fees: [], authorizationCount: 0, completed: {}, run: 0 };
}

export class CardState {
  /** The record carried across continue-as-new; this run counted in `run`. */
  readonly carried: CardEntityState;
  private isCancelled: boolean;
  /** Status after the accepted-but-unfinished operations, for validators. */
  private projection: string | undefined;
  /** The keys of the events the state has learned from, carried in `seenKeys`. */
  private readonly seen: SeenKeys;

  constructor(
    readonly cardNo: string,
    carried: CardEntityState | undefined,
  ) {
    this.carried = carried ?? fresh();
    this.carried.run += 1;
    this.isCancelled = this.carried.status === 'cancel';
    this.projection = this.carried.status;
    this.seen = new SeenKeys(this.carried.seenKeys, KEPT_EVENT_KEYS);
  }

  get cancelled(): boolean {
    return this.isCancelled;
  }

  /** The status validators check a new request against: the card's, after what is queued. */
  get projected(): string | undefined {
    return this.projection;
  }

  /** A request of `kind` was accepted: its success is what later requests are checked against. */
  project(kind: CardOperationKind): void {
    const target = TARGET_STATUS[kind];
    if (target) this.projection = target;
  }

  /** Nothing is queued any more: the projection is the card's status again. */
  settle(): void {
    this.projection = this.carried.status;
  }

  /** Learns from a provider event routed to this workflow (another card's is ignored, a repeat too). */
  learnEvent(event: ProviderEvent): void {
    if (cardNoOf(event) !== this.cardNo) return;
    if (!this.firstSeen(keyBeforeStateFields(event))) return;
    const state = this.carried;
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
    } else if (event.category === 'card_transaction' && !this.isCancelled) {
      // A late retry of an older record (a freeze retried after the unfreeze) leaves the status alone.
      const { type, description, remark } = event.record;
      if (learnCardRecord(state, event.record) && type === 'cancel')
        this.markCancelled(nonEmpty(description) ?? nonEmpty(remark));
    }
  }

  /**
   * Learns from a card read sent at workflow time `sentAt`: its balance, and its status unless the
   * card is already known cancelled. `idle`: nothing is queued, so the projection follows.
   */
  learnRead(card: { status: string; balance?: BalanceSummary | undefined }, sentAt: number, idle: boolean): void {
    const state = this.carried;
    state.asOf = Date.now();
    if (card.balance) state.balance = card.balance;
    if (card.status === 'cancel') this.markCancelled(state.cancelReason);
    else if (!this.isCancelled) learnCardRead(state, card.status, sentAt);
    if (idle) this.settle();
  }

  /**
   * Its own operation's record was seen (its merchantOrderNo and status): the same record's
   * webhook, retried late (the receiver was down), is then a repeat.
   */
  learnOwnRecord(merchantOrderNo: string, status: string): void {
    this.firstSeen(recordStateKey('card_transaction', merchantOrderNo, status));
  }

  /**
   * Learns the status the card was read in after its own operation (sent at workflow time
   * `sentAt`, its record at provider time `recordTime`): the read vouches for the state as of
   * that record.
   */
  learnOperation(cardStatus: string, recordTime: number | undefined, sentAt: number): void {
    if (!this.isCancelled) learnCardStatus(this.carried, cardStatus, Math.max(recordTime ?? 0, readTime(sentAt)));
    this.carried.asOf = Date.now();
  }

  /** A deposit finished; its child read the balance after it. */
  learnDeposit(balance: BalanceSummary | undefined): void {
    if (balance) this.carried.balance = balance;
    this.carried.asOf = Date.now();
  }

  /** The answer to a finished request, if it is among the latest kept. */
  answer(requestId: string): CardEntityOutcome | undefined {
    return this.carried.completed[requestId];
  }

  /** Keeps a finished request's answer for its repeats (the latest {@link KEPT_REQUESTS}). */
  remember<T extends CardEntityOutcome>(requestId: string, outcome: T): T {
    this.carried.completed = trimRecord({ ...this.carried.completed, [requestId]: outcome }, KEPT_REQUESTS);
    return outcome;
  }

  /** What the `card` query answers; `pending`: the requests queued or running. */
  snapshot(pending: number): CardSnapshot {
    const state = this.carried;
    return {
      cardNo: this.cardNo,
      ...(state.status ? { status: state.status } : {}),
      ...(state.balance ? { balance: state.balance } : {}),
      ...(state.asOf ? { asOf: state.asOf } : {}),
      cancelled: this.isCancelled,
      pending,
      authorizations: state.authorizations,
      fees: state.fees,
      authorizationCount: state.authorizationCount,
      run: state.run,
    };
  }

  /** The workflow's result once the card is cancelled. */
  result(): CardEntityResult {
    const state = this.carried;
    return {
      cardNo: this.cardNo,
      status: 'cancel',
      ...(state.cancelReason ? { reason: state.cancelReason } : {}),
      authorizationCount: state.authorizationCount,
      runs: state.run,
    };
  }

  private markCancelled(reason: string | undefined): void {
    this.isCancelled = true;
    this.carried.status = 'cancel';
    this.projection = 'cancel';
    if (reason) this.carried.cancelReason = reason;
  }

  /** Records an event's key as handled; false when it already was. */
  private firstSeen(key: string | undefined): boolean {
    if (!key) return true;
    if (!this.seen.first(key)) return false;
    this.carried.seenKeys = this.seen.record;
    return true;
  }
}

/**
 * The card's state, in one place: the record a card entity carries across continue-as-new
 * (`CardEntityState`), its caps, and every rule that changes it: a provider event, a card read,
 * the entity's own operations and requests, the cancel's return. It learns each by the one
 * ordering rule (domain/event-order.ts) and issues no command: the run (card-entity/run.ts) calls
 * the provider, hands it what came back, and tells what moved (card-entity/notices.ts).
 */
import type { CancelReturn } from '../../activities';
import type {
  AuthorizationSummary,
  CardCancellation,
  CardEntityInput,
  CardEntityOutcome,
  CardEntityResult,
  CardRead,
  CardSnapshot,
  FeeSummary,
} from '../../domain/card-entity';
import {
  appendEntry,
  authorizationStep,
  feeStep,
  operationStep,
  zeroTotals,
  type CardLedgerEntry,
  type CardTotals,
  type LedgerStep,
} from '../../domain/card-ledger';
import type { CardOperationKind } from '../../domain/card-operations';
import { keyBeforeStateFields, recordStateKey } from '../../domain/event-identity';
import { advance, movesForward, readTime, type ReachedState } from '../../domain/event-order';
import type { NotificationPlan } from '../../domain/notifications';
import { cardNoOf, nonEmpty, type ProviderEventBody, type ProviderEventRecords } from '../../domain/provider-event';
import type { BalanceSummary } from '../../domain/summaries';
import { SeenKeys, trimRecord } from '../events/inbox';
import type { CardMark } from './notices';

/**
 * What a card entity carries across continue-as-new. Plain records, never Maps: a Map does not
 * survive the JSON of continue-as-new.
 */
export interface CardEntityState {
  status?: string;
  /**
   * Provider time the status was reached at (domain/event-order.ts): an event or read no newer
   * leaves the status alone. Absent in runs carried before it was kept.
   */
  statusAt?: number;
  /**
   * Keys of the events already handled (domain/event-identity.ts), newest last, at most {@link
   * KEPT_EVENT_KEYS}.
   */
  seenKeys?: Record<string, true>;
  balance?: BalanceSummary;
  /** Workflow time of the last card read. */
  asOf?: number;
  /** The latest authorizations, newest last, at most {@link KEPT_AUTHORIZATIONS}. */
  authorizations: AuthorizationSummary[];
  /** The latest fee records, at most {@link KEPT_FEES}. */
  fees: FeeSummary[];
  /** Totals over the card's life. */
  authorizationCount: number;
  /** Answers to the latest requests by requestId, at most {@link KEPT_REQUESTS}. */
  completed: Record<string, CardEntityOutcome>;
  /** Runs so far (1 + continue-as-new count). */
  run: number;
  cancelReason?: string;
  /**
   * Blocked by the issuing bank (a `blocked` record, or a read with blocked=true), and the
   * workflow time it was learned: only a read sent after that time lifts it (spec: a block is
   * lifted only by a manual application, an OTHER work order).
   */
  blocked?: boolean;
  blockedAt?: number;
  /** Card type and holder, from the card reads: what a reissue needs. */
  cardTypeId?: string;
  holderId?: string;
  /**
   * Money totals over the card's life (domain/card-ledger.ts). Absent in runs carried before they
   * were kept.
   */
  totals?: CardTotals;
  /** The latest authorization steps, fees and money-moving operations, newest last. */
  entries?: CardLedgerEntry[];
  /** An event moved the card's money since the last read: the balance is read from the provider. */
  balanceStale?: boolean;
  /**
   * Newest provider time among the records the last catch-up read: the next catch-up starts there.
   */
  recordsUpTo?: number;
  cancellation?: CardCancellation;
  /**
   * Notifications to the merchant's backend are on (the plan its first run's catch-up returned):
   * a carried run tells what it learns as its first run did. Absent: off.
   */
  notifications?: NotificationPlan;
}

/** The workflow's input as a run sees it: the record its previous run carried, if any. */
export interface CardEntityRunInput extends CardEntityInput {
  /** Set by the workflow itself when it continues as new. */
  carried?: CardEntityState;
}

export const KEPT_AUTHORIZATIONS = 50;
export const KEPT_FEES = 50;
export const KEPT_REQUESTS = 100;
/**
 * Event keys remembered for de-duplication; an older repeat is still refused by its time or status.
 */
export const KEPT_EVENT_KEYS = 500;

/** Authorization statuses that end an authorization (spec: Authorization transaction status). */
export const AUTHORIZATION_FINAL: readonly string[] = ['succeed', 'failed'];

/**
 * Statuses a card leaves without an operation record: creation finishing, or its activation,
 * whose result this workflow may hear of only at its next read. A request is not refused on them.
 */
export const BEFORE_ACTIVATION: readonly string[] = ['pending', 'un_activated'];

/** Status a successful operation leaves the card in, as the validators project it. */
const TARGET_STATUS: Partial<Record<CardOperationKind, string>> = { freeze: 'Freeze', unfreeze: 'Normal' };

function fresh(): CardEntityState {
  return { authorizations: [], fees: [], authorizationCount: 0, completed: {}, run: 0 };
}

/**
 * What a provider event was to the state: `new`; `older`, new but a state of a record older than
 * the one the state holds (its webhook crossed a later one's, or a catch-up read the later one
 * first), which changes nothing; `ignored`, a repeat, another card's, or a record without its id.
 */
export type Learned = 'new' | 'older' | 'ignored';

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

  // How a provider event changes the state (a webhook's, or a catch-up's record).
  /**
   * Learns from a provider event routed to this workflow (another card's is ignored, a repeat
   * too). What tells others about it (a notification) reads the answer: a repeat is told once, and
   * a record's older state is not told after its later one.
   */
  learnEvent(event: ProviderEventBody, learnsActivation: () => boolean = () => false): Learned {
    if (cardNoOf(event) !== this.cardNo) return 'ignored';
    if (!this.firstSeen(keyBeforeStateFields(event))) return 'ignored';
    if (event.category === 'physical_card') {
      if (event.record.status === 'success' && learnsActivation()) this.learnActivated();
      return 'new';
    }
    if (event.category === 'card_auth_transaction') return this.learnAuthorization(event.record);
    if (event.category === 'card_fee_patch') return this.learnFee(event.record);
    if (event.category === 'card_transaction') this.learnOperationRecord(event.record);
    return 'new';
  }

  /** An authorization's step: booked, and kept as the tradeNo's latest state unless it is older. */
  private learnAuthorization(r: ProviderEventRecords['card_auth_transaction']): Learned {
    const state = this.carried;
    const tradeNo = nonEmpty(r.tradeNo);
    if (!tradeNo) return 'ignored';
    const settleAmount = nonEmpty(r.settleAmount);
    const previous = state.authorizations.find((a) => a.tradeNo === tradeNo);
    if (!previous) state.authorizationCount += 1;
    if (previous && !movesForward(previous.status, r.status, (s) => AUTHORIZATION_FINAL.includes(s))) return 'older';
    const origin = nonEmpty(r.originTradeNo);
    const reversed = (state.entries ?? []).some((e) => e.type === 'Void' && e.origin === tradeNo);
    this.book(authorizationStep(this.totals, { ...r, tradeNo, settleAmount, origin }, previous, reversed));
    if (r.type === 'Void' && origin) this.correctReversedOrigin(origin);
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
    return 'new';
  }

  /** A fee record: booked, and kept as the tradeNo's latest. */
  private learnFee(r: ProviderEventRecords['card_fee_patch']): Learned {
    const state = this.carried;
    const tradeNo = nonEmpty(r.tradeNo);
    if (!tradeNo) return 'ignored';
    const deduction = nonEmpty(r.deductionSourceFunds);
    this.book(feeStep(this.totals, { ...r, tradeNo }));
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
    return 'new';
  }

  /** A card operation record: its money booked, and the status, block or cancel it leaves. */
  private learnOperationRecord(record: ProviderEventRecords['card_transaction']): void {
    const state = this.carried;
    const step = operationStep(this.totals, record);
    if (step) this.book(step);
    if (this.isCancelled) return;
    // A late retry of an older record (a freeze retried after the unfreeze) leaves the status
    // alone.
    const { type, description, remark } = record;
    const moved = learnCardRecord(state, record);
    if (moved && type === 'blocked') {
      state.blocked = true;
      state.blockedAt = Date.now();
    }
    if (moved && type === 'cancel') {
      this.markCancelled(nonEmpty(description) ?? nonEmpty(remark));
      state.cancellation = { ...state.cancellation, orderNo: record.orderNo };
    }
  }

  /**
   * The card's activation succeeded: it left un_activated (or a status not read yet). The result
   * carries no provider time, so it stands for the moment it was learned, as a read sent then
   * would; a card already past activation (frozen since, say) keeps the status it was learned in.
   */
  private learnActivated(): void {
    const before = (status: string | undefined) => status === undefined || BEFORE_ACTIVATION.includes(status);
    if (!before(this.carried.status) || !learnCardStatus(this.carried, 'Normal', readTime(Date.now()))) return;
    // A queued operation projects the status it leaves; otherwise the projection is the card's.
    if (before(this.projection)) this.projection = 'Normal';
  }

  /**
   * A Void names the auth it reverses: if that auth was learned failed without its hold first (a
   * catch-up or a reordered webhook), it was booked as a decline, and is a reversal.
   */
  private correctReversedOrigin(origin: string): void {
    const state = this.carried;
    const entries = state.entries ?? [];
    const booked = entries.find((e) => e.kind === 'authorization' && e.ref === origin && e.effect === 'declined');
    if (!booked) return;
    state.entries = entries.map((e) => (e === booked ? { ...e, effect: 'reversed' } : e));
    state.totals = { ...this.totals, declined: Math.max(0, this.totals.declined - 1) };
  }

  /**
   * Keeps a step of the card's money: its totals and its entry; money moved marks the balance
   * stale.
   */
  private book(step: LedgerStep): void {
    const state = this.carried;
    state.totals = step.totals;
    state.entries = appendEntry(state.entries ?? [], step.entry);
    if (step.moved) state.balanceStale = true;
  }

  /** Records an event's key as handled; false when it already was. */
  private firstSeen(key: string | undefined): boolean {
    if (!key) return true;
    if (!this.seen.first(key)) return false;
    this.carried.seenKeys = this.seen.record;
    return true;
  }

  private markCancelled(reason: string | undefined): void {
    this.isCancelled = true;
    this.carried.status = 'cancel';
    this.projection = 'cancel';
    this.carried.blocked = false;
    if (reason) this.carried.cancelReason = reason;
    this.carried.cancellation = { ...this.carried.cancellation, ...(reason ? { reason } : {}) };
  }

  /**
   * A catch-up read the records up to provider time `newest`: the next one starts there. Only a
   * catch-up moves it; a webhook's record can be newer than records no webhook brought.
   */
  caughtUp(newest: number | undefined): void {
    if (newest !== undefined && newest > (this.carried.recordsUpTo ?? 0)) this.carried.recordsUpTo = newest;
  }

  // How a card read changes it.
  /** A balance read is being sent: an event that moves money meanwhile asks for another. */
  readingBalance(): void {
    this.carried.balanceStale = false;
  }

  /**
   * Learns from a card read sent at workflow time `sentAt`: its balance, and its status unless the
   * card is already known cancelled. `idle`: nothing is queued, so the projection follows.
   */
  learnRead(card: CardRead, sentAt: number, idle: boolean): void {
    const state = this.carried;
    state.asOf = Date.now();
    if (card.balance) state.balance = card.balance;
    if (card.cardTypeId) state.cardTypeId = card.cardTypeId;
    if (card.holderId) state.holderId = card.holderId;
    if (card.blocked === true && !state.blocked) {
      state.blocked = true;
      state.blockedAt = sentAt;
    } else if (card.blocked === false && state.blocked && sentAt >= (state.blockedAt ?? 0)) {
      // Only a read sent after the block was learned lifts it (the block's webhook may overtake the
      // read).
      state.blocked = false;
      delete state.blockedAt;
    }
    if (card.status === 'cancel') this.markCancelled(state.cancelReason);
    else if (!this.isCancelled) learnCardRead(state, card.status, sentAt);
    if (idle) this.settle();
  }

  // How the run's own requests and operations change it.
  /** A request of `kind` was accepted: its success is what later requests are checked against. */
  project(kind: CardOperationKind): void {
    const target = TARGET_STATUS[kind];
    if (target) this.projection = target;
  }

  /** Nothing is queued any more: the projection is the card's status again. */
  settle(): void {
    this.projection = this.carried.status;
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

  /**
   * The unblock work order succeeded and the card was then read Normal: that read follows the
   * block's record whatever the clocks say, so it moves the status past it.
   */
  learnUnblocked(): void {
    const state = this.carried;
    state.blocked = false;
    delete state.blockedAt;
    if (!this.isCancelled) learnCardStatus(state, 'Normal', Math.max(Date.now(), (state.statusAt ?? 0) + 1));
    state.asOf = Date.now();
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

  // How the cancel's return changes it.
  /** The cancel record succeeded and its balance is back on the account (or there was none). */
  learnCancelReturn(returned: CancelReturn): void {
    const state = this.carried;
    if (!state.cancelReason && returned.reason) state.cancelReason = returned.reason;
    state.cancellation = {
      ...state.cancellation,
      ...(state.cancelReason ? { reason: state.cancelReason } : {}),
      orderNo: returned.orderNo,
      returnedAmount: returned.returnedAmount,
      ...(returned.currency ? { currency: returned.currency } : {}),
      ...(returned.accountId ? { accountId: returned.accountId } : {}),
      ...(returned.returnedBy ? { returnedBy: returned.returnedBy } : {}),
    };
    state.balance = { amount: '0', currency: returned.currency ?? state.balance?.currency ?? '' };
    state.balanceStale = false;
  }

  /**
   * The balance was not seen back in time: what the cancel left, and the record that reports it.
   */
  learnUnreturned(
    left: { orderNo: string | undefined; amount: string | undefined; currency: string },
    strandedRecord: string,
  ): void {
    const state = this.carried;
    state.cancellation = {
      ...state.cancellation,
      ...(state.cancelReason ? { reason: state.cancelReason } : {}),
      ...(left.orderNo ? { orderNo: left.orderNo } : {}),
      ...(left.currency ? { currency: left.currency } : {}),
      unreturned: { ...(left.amount ? { amount: left.amount } : {}), strandedRecord },
    };
    state.balanceStale = false;
  }

  // The notification plan it carries, and what it shows.
  /** Notifications are on (the plan a catch-up or the card's birth returned): carried on. */
  keepPlan(plan: NotificationPlan | undefined): void {
    if (plan) this.carried.notifications = plan;
  }

  /** The card's status and block, as a notice compares them before and after a step. */
  mark(): CardMark {
    return { status: this.carried.status, blocked: this.blocked };
  }

  get cancelled(): boolean {
    return this.isCancelled;
  }

  /** The status validators check a new request against: the card's, after what is queued. */
  get projected(): string | undefined {
    return this.projection;
  }

  /** The money totals over the card's life (zero in a run carried before they were kept). */
  get totals() {
    return this.carried.totals ?? zeroTotals();
  }

  /** True when an event moved the card's money since the last read: the balance is read next. */
  get balanceStale(): boolean {
    return this.carried.balanceStale === true;
  }

  /** True while the issuing bank's block holds. */
  get blocked(): boolean {
    return this.carried.blocked === true;
  }

  /** What the cancellation returned to the account, once followed to its end. */
  get cancelReturned(): boolean {
    return this.carried.cancellation?.returnedAmount !== undefined;
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
      ...(state.blocked ? { status: 'blocked', blocked: true } : {}),
      totals: this.totals,
      entries: state.entries ?? [],
      ...(state.cancellation ? { cancellation: state.cancellation } : {}),
      ...(state.cardTypeId ? { cardTypeId: state.cardTypeId } : {}),
      ...(state.holderId ? { holderId: state.holderId } : {}),
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
      ...(state.cancellation ? { cancellation: state.cancellation } : {}),
      ...(state.cardTypeId ? { cardTypeId: state.cardTypeId } : {}),
      ...(state.holderId ? { holderId: state.holderId } : {}),
    };
  }
}

// The rules on the record itself, which the state above applies.

/** Appends `item` to a bounded list, replacing an entry with the same key. */
export function keepLatest<T>(list: T[], item: T, key: (t: T) => string, max: number): T[] {
  const k = key(item);
  const next = list.filter((t) => key(t) !== k);
  next.push(item);
  return next.length > max ? next.slice(next.length - max) : next;
}

/**
 * Records an authorization event: the latest event of a tradeNo replaces the earlier one, except
 * that a late `authorized` never replaces a settled (`succeed` / `failed`) state. Webhooks for one
 * tradeNo can arrive out of order (two deliveries in flight, or a provider retry), and the
 * state a query reports must only move forward.
 */
export function recordAuthorization(
  list: AuthorizationSummary[],
  summary: AuthorizationSummary,
  max: number,
): AuthorizationSummary[] {
  const existing = list.find((a) => a.tradeNo === summary.tradeNo);
  if (!movesForward(existing?.status, summary.status, (status) => AUTHORIZATION_FINAL.includes(status))) return list;
  return keepLatest(list, summary, (a) => a.tradeNo, max);
}

/**
 * The status a successful card operation record leaves the card in (spec: Card operation record:
 * a blocked card is frozen at the highest level; a cancelled card is destroyed), or undefined for
 * a record that does not change it.
 */
export function cardStatusAfter(record: { type: string; status: string }): string | undefined {
  if (record.status !== 'success') return undefined;
  if (record.type === 'Freeze' || record.type === 'blocked') return 'Freeze';
  if (record.type === 'UnFreeze') return 'Normal';
  if (record.type === 'cancel') return 'cancel';
  return undefined;
}

/**
 * Moves the card's status to `status`, learned as of provider time `at`, when that is newer than
 * the status it has (domain/event-order.ts). A cancelled card stays cancelled, and a cancel
 * always applies: nothing follows it at the provider. Returns whether it took the observation.
 */
export function learnCardStatus(state: CardEntityState, status: string, at: number): boolean {
  if (state.status === 'cancel') return false;
  const reached: ReachedState = {
    ...(state.status === undefined ? {} : { state: state.status }),
    ...(state.statusAt === undefined ? {} : { at: state.statusAt }),
  };
  if (status !== 'cancel' && !advance(reached, status, at)) return false;
  state.status = status;
  state.statusAt = Math.max(at, state.statusAt ?? at);
  return true;
}

/** A card operation record's effect on the status, as of its `transactionTime`. */
export function learnCardRecord(
  state: CardEntityState,
  record: { type: string; status: string; transactionTime: number },
): boolean {
  const status = cardStatusAfter(record);
  return status !== undefined && learnCardStatus(state, status, record.transactionTime);
}

/** A card read sent at workflow time `sentAt` (a poll, the read after an operation). */
export function learnCardRead(state: CardEntityState, status: string, sentAt: number): boolean {
  return learnCardStatus(state, status, readTime(sentAt));
}

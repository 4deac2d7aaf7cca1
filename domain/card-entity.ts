/**
 * `cardEntity`, the long-lived workflow of one card, id `card-<cardNo>`:
 * serializes operations on the card through validated Updates (freeze, unfreeze, update PIN,
 * deposit, refresh), records authorization and fee events from webhooks, answers balance and
 * status by query, continues as new before its history grows large, and ends when the card is
 * cancelled (e.g. by risk control after spending at a high-risk merchant: spec, Errors).
 *
 * Idempotency: each Update carries a caller `requestId`; the operation's merchantOrderNo is
 * derived from the workflow id and that requestId, so a repeated request (even after a
 * continue-as-new) sends the same key and the provider acts once.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { z } from 'zod';
import type { CancelReturnMatch } from './cancel-return';
import type { FieldIssue } from './cardholder-data';
import { amountString, idDigits } from './fields';
import type { BalanceSummary } from './summaries';
import type { CardOperationOutcome } from './card-operations';
import type { WaitOverrides } from './wait-profile';
import { advance, movesForward, readTime, type ReachedState } from './event-order';
import { workOrderIssues, type WorkOrderFile } from './physical-card-activation';
import type { CardLedgerEntry, CardTotals } from './card-ledger';
import type { NotificationPlan } from './notifications';
import type { CardOperation } from './provider-records';

const REQUEST_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** The latest state of one authorization (same tradeNo pushed again as it settles). */
export interface AuthorizationSummary {
  tradeNo: string;
  type: string;
  status: string;
  authorizedAmount: string;
  currency: string;
  fee: string;
  crossBoardFee: string;
  settleAmount?: string;
  merchantName?: string;
  description?: string;
}

export interface FeeSummary {
  tradeNo: string;
  originTradeNo: string;
  type: string;
  amount: string;
  deductionSourceFunds?: string;
}

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

/**
 * The card's cancellation as the entity followed it (spec: Card operation record, type cancel;
 * domain/cancel-return.ts).
 */
export interface CardCancellation {
  reason?: string;
  /** The cancel record's orderNo, once known. */
  orderNo?: string;
  /** What came back ("0" when the card held nothing). */
  returnedAmount?: string;
  currency?: string;
  /** The account it returned to. */
  accountId?: string;
  /**
   * How it came back: the ledger bizType or the REFUND withdrawal, the orderNo, what tied it to the
   * card.
   */
  returnedBy?: Pick<CancelReturnMatch, 'path' | 'orderNo' | 'matchedBy'>;
  /**
   * Not seen back in time: what was left on the card and the `strandedMoney` record that reports
   * it.
   */
  unreturned?: { amount?: string; strandedRecord: string };
}

export const KEPT_AUTHORIZATIONS = 50;
export const KEPT_FEES = 50;
export const KEPT_REQUESTS = 100;
/**
 * Event keys remembered for de-duplication; an older repeat is still refused by its time or status.
 */
export const KEPT_EVENT_KEYS = 500;

export interface CardEntityInput {
  cardNo: string;
  customerRef?: string;
  wait?: WaitOverrides;
  /**
   * Continue as new once history passes this many events (default 2000; the server suggests it
   * too).
   */
  maxHistoryEvents?: number;
  /**
   * How often the card is re-read when nothing happens (ms; default 6 hours), in runs started
   * before the entity parked without timers; newer runs fire no timer while idle.
   */
  refreshIntervalMs?: number;
  /** Set by the workflow itself when it continues as new. */
  carried?: CardEntityState;
  /**
   * The starter set the card's search attributes at start (domain/card-entity-start.ts): the
   * workflow upserts none.
   */
  attributesSetAtStart?: boolean;
  /**
   * Given by the activity that made the card (activities/cards.ts): what its first run learns
   * instead of reading.
   */
  born?: CardBirth;
}

/** What a card read tells the card's workflow (the card info without sensitive data). */
export interface CardRead {
  status: string;
  balance?: BalanceSummary | undefined;
  blocked?: boolean;
  cardTypeId?: string;
  holderId?: string;
}

/**
 * What the activity that made a card knew when it started the card's workflow: the create record,
 * final, and the card read after it, sent at `readAt` (the activity's clock), with the
 * notification plan a catch-up would have returned. Nothing else has happened to a card this new,
 * so the first run learns these instead of catching up and reading the card: its first task
 * parks it. An event that came first started the workflow itself (signal-with-start), with a
 * catch-up, and this start found it running.
 */
export interface CardBirth {
  create: CardOperation & { transactionTime: number };
  card: CardRead;
  readAt: number;
  notifications?: NotificationPlan;
}

export interface CardEntityResult {
  cardNo: string;
  status: 'cancel';
  reason?: string;
  authorizationCount: number;
  runs: number;
  /**
   * The cancellation with the amount returned to the account (absent in runs from before it was
   * followed).
   */
  cancellation?: CardCancellation;
  cardTypeId?: string;
  holderId?: string;
}

export interface CardSnapshot {
  cardNo: string;
  status?: string;
  balance?: BalanceSummary;
  asOf?: number;
  cancelled: boolean;
  /** Operations queued or running. */
  pending: number;
  authorizations: AuthorizationSummary[];
  fees: FeeSummary[];
  authorizationCount: number;
  run: number;
  /** True while the issuing bank's block holds (status then reads `blocked`). */
  blocked?: boolean;
  totals?: CardTotals;
  /** The latest entries of the card's record, newest last. */
  entries?: CardLedgerEntry[];
  cancellation?: CardCancellation;
  cardTypeId?: string;
  holderId?: string;
}

export interface CardDepositOutcome {
  cardNo: string;
  kind: 'deposit';
  merchantOrderNo: string;
  amount: string;
  fee: string;
  balance?: BalanceSummary;
}

/** A block lifted through an OTHER work order (Update `requestUnblock`). */
export interface CardUnblockOutcome {
  cardNo: string;
  kind: 'unblock';
  merchantOrderNo: string;
  workOrderNo: string;
  fileIds: string[];
  cardStatus: 'Normal';
}

export type CardEntityOutcome = CardOperationOutcome | CardDepositOutcome | CardUnblockOutcome;

export interface OperationRequest {
  /** The caller's id of this request: a repeat returns the first answer and sends nothing new. */
  requestId: string;
  clientRemark?: string;
}
export interface PinRequest {
  requestId: string;
  sealedPin: string;
}
export interface DepositRequest {
  requestId: string;
  amount: string;
  cardTypeId: string;
}
/**
 * The manual application that lifts a bank block (spec: Work orders, tradeType OTHER; target the
 * card).
 */
export interface UnblockRequest {
  requestId: string;
  files: WorkOrderFile[];
  title?: string;
  content?: string;
}

/** The title of an unblock work order when the request names none. */
export const DEFAULT_UNBLOCK_TITLE = 'Request to lift the issuing bank block';

/** The caller's id of a request, checked alike by the client and by the workflow's validators. */
export const RequestIdSchema = z
  .string({ error: 'is required' })
  .regex(REQUEST_ID_RE, { message: 'must be 1 to 64 letters, digits, "_", "." or "-"' });
const RequestIdFieldSchema = z.object({ requestId: RequestIdSchema });

/**
 * A deposit request's amount and card type, by the field rules every cardflow input shares
 * (domain/fields.ts).
 */
const DepositFieldsSchema = z.object({ amount: amountString, cardTypeId: idDigits });

function issuesOf(parsed: z.ZodSafeParseResult<unknown>): FieldIssue[] {
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

/** What is wrong with a request's requestId (nothing: an empty list). */
export function requestIdIssues(requestId: unknown): FieldIssue[] {
  return issuesOf(RequestIdFieldSchema.safeParse({ requestId }));
}

/** What is wrong with an unblock request's files, title and content (nothing: an empty list). */
export function unblockRequestIssues(request: Partial<UnblockRequest> | undefined): FieldIssue[] {
  return workOrderIssues(request, '');
}

/** What is wrong with a deposit request's amount and card type (nothing: an empty list). */
export function depositRequestIssues(request: unknown): FieldIssue[] {
  return issuesOf(DepositFieldsSchema.safeParse(request));
}

export const cardSnapshotQuery = defineQuery<CardSnapshot>('card');
export const freezeUpdate = defineUpdate<CardOperationOutcome, [OperationRequest]>('freeze');
export const unfreezeUpdate = defineUpdate<CardOperationOutcome, [OperationRequest]>('unfreeze');
export const updatePinUpdate = defineUpdate<CardOperationOutcome, [PinRequest]>('updatePin');
export const depositUpdate = defineUpdate<CardDepositOutcome, [DepositRequest]>('deposit');
/** Reads the card now (status and balance). */
export const refreshUpdate = defineUpdate<CardSnapshot, []>('refresh');
/**
 * Lifts a bank block: uploads the files, submits the OTHER work order, waits for it and for the
 * card to be Normal.
 */
export const requestUnblockUpdate = defineUpdate<CardUnblockOutcome, [UnblockRequest]>('requestUnblock');

/** The refusal of an operation the bank's block forbids: it names the block and the way out. */
export function blockedRefusal(cardNo: string, kind: string): string {
  return `card ${cardNo} is blocked by the issuing bank; ${kind} cannot lift or change that. The only way out is a manual application: requestUnblock (cardflow card unblock) submits an OTHER work order with supporting files`;
}

/** Appends `item` to a bounded list, replacing an entry with the same key. */
export function keepLatest<T>(list: T[], item: T, key: (t: T) => string, max: number): T[] {
  const k = key(item);
  const next = list.filter((t) => key(t) !== k);
  next.push(item);
  return next.length > max ? next.slice(next.length - max) : next;
}

/** Authorization statuses that end an authorization (spec: Authorization transaction status). */
export const AUTHORIZATION_FINAL: readonly string[] = ['succeed', 'failed'];

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

/** Keeps the last `max` keys of a record (insertion order). */
export function trimRecord<T>(record: Record<string, T>, max: number): Record<string, T> {
  const keys = Object.keys(record);
  if (keys.length <= max) return record;
  return Object.fromEntries(keys.slice(keys.length - max).map((k) => [k, record[k] as T]));
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

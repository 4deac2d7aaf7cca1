/**
 * The contract of `cardEntity`, the long-lived workflow of one card (id `card-<cardNo>`), as the
 * client, the receiver and the activities use it: its input, result and `card` snapshot, and its
 * Updates (freeze, unfreeze, updatePin, deposit, refresh, requestUnblock) with their requests'
 * shapes and checks. The card's state and every rule that changes it live with the workflow
 * (workflows/card-entity/state.ts). Idempotency: each Update carries a caller `requestId`; the
 * operation's merchantOrderNo is derived from the workflow id and that requestId, so a repeated
 * request (even after a continue-as-new) sends the same key and the provider acts once.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { z } from 'zod';
import type { CancelReturnMatch } from './cancel-return';
import type { FieldIssue } from './cardholder-data';
import { amountString, idDigits } from './fields';
import type { BalanceSummary } from './summaries';
import type { CardOperationOutcome } from './card-operations';
import type { WaitOverrides } from './wait-profile';
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

/**
 * The notifications cardflow sends to the merchant's backend (docs/notifications.md is the
 * catalogue): one zod schema per event type, the envelope every event shares, and how an event's
 * id is derived. Shared by the workflows that emit them (types and ids only), the activity that
 * signs and delivers them, and the client's `constructEvent` that verifies and parses them.
 *
 * No card data: never a PAN, CVV or expiry date. `cardNo` is the provider's id of a card, not its
 * number. Personal data only where the backend needs it: none but the 3DS event's one-time code or
 * authorization URL, which the cardholder needs to finish a purchase.
 */
import { z } from 'zod';
import { amountString as amount } from './fields';
import { FINDING_KINDS, type FindingIds } from './reconciliation';
import { ONBOARDING_STAGES } from './customer-onboarding';
import { TRANSFER_TYPES } from '../provider/rules';

/** Every event type, by the name a backend switches on. */
export const NotificationTypes = {
  onboardingStageChanged: 'onboarding.stage_changed',
  onboardingCompleted: 'onboarding.completed',
  onboardingFailed: 'onboarding.failed',
  onboardingCancelled: 'onboarding.cancelled',
  transferCompleted: 'transfer.completed',
  transferFailed: 'transfer.failed',
  fundingCompleted: 'funding.completed',
  fundingFailed: 'funding.failed',
  reconciliationFindings: 'reconciliation.findings',
  cardThreeDs: 'card.three_ds',
  // The per-card workflow's events (docs/notifications.md, card events).
  cardIssued: 'card.issued',
  cardStatusChanged: 'card.status_changed',
  cardBlocked: 'card.blocked',
  cardUnblocked: 'card.unblocked',
  cardCancelled: 'card.cancelled',
  cardTransaction: 'card.transaction',
} as const;

export type NotificationType = (typeof NotificationTypes)[keyof typeof NotificationTypes];

/** The ids a reconciliation finding may name (domain/reconciliation.ts FindingIds). */
const FINDING_ID_NAMES = [
  'customerRef',
  'merchantOrderNo',
  'orderNo',
  'workflowId',
  'cardNo',
  'holderId',
  'accountId',
  'txId',
  'tradeNo',
] as const satisfies readonly (keyof FindingIds)[];

const failure = z.object({ type: z.string(), message: z.string(), retryable: z.boolean().optional() });
const stage = z.enum(ONBOARDING_STAGES);
/** A block, unblock or cancel of a card: the operation's key and outcome. */
const cardOperation = z.object({
  cardNo: z.string(),
  customerRef: z.string().optional(),
  merchantOrderNo: z.string().optional(),
  cardStatus: z.string(),
});
const customerRef = z.string().optional();

/** What each event type carries in `data`. */
export const NotificationDataSchemas = {
  [NotificationTypes.onboardingStageChanged]: z.object({
    customerRef: z.string(),
    stage,
    previousStage: stage,
  }),
  [NotificationTypes.onboardingCompleted]: z.object({
    customerRef: z.string(),
    cardTypeId: z.string(),
    holderId: z.string().optional(),
    cardNo: z.string(),
    cardStatus: z.string(),
  }),
  [NotificationTypes.onboardingFailed]: z.object({
    customerRef: z.string(),
    /** The stage it failed in. */
    stage,
    failure,
  }),
  [NotificationTypes.onboardingCancelled]: z.object({
    customerRef: z.string(),
    /** The stage an operator's cancel stopped it in. */
    stage,
    pending: z.string().optional(),
  }),
  [NotificationTypes.transferCompleted]: z.object({
    customerRef,
    type: z.enum(TRANSFER_TYPES),
    merchantOrderNo: z.string(),
    amount,
    currency: z.string(),
    payerAccountId: z.string(),
    payeeAccountId: z.string(),
  }),
  [NotificationTypes.transferFailed]: z.object({
    customerRef,
    type: z.enum(TRANSFER_TYPES),
    merchantOrderNo: z.string().optional(),
    /** As requested (a failure may be that it is not a valid amount). */
    amount: z.string(),
    failure,
  }),
  [NotificationTypes.fundingCompleted]: z.object({
    customerRef,
    coinKey: z.string(),
    address: z.string(),
    walletOrderNo: z.string(),
    receivedAmount: amount,
    currency: z.string(),
    txHash: z.string().optional(),
    transfer: z.object({ merchantOrderNo: z.string(), amount }).optional(),
    deposit: z.object({ merchantOrderNo: z.string(), amount, fee: amount.optional() }).optional(),
  }),
  [NotificationTypes.fundingFailed]: z.object({
    customerRef,
    coinKey: z.string(),
    address: z.string().optional(),
    failure,
  }),
  [NotificationTypes.reconciliationFindings]: z.object({
    /** The window the run compares, epoch milliseconds. */
    window: z.object({ start: z.number(), end: z.number() }),
    findings: z.array(
      z.object({
        kind: z.enum(Object.values(FINDING_KINDS) as [string, ...string[]]),
        ids: z.object(
          Object.fromEntries(FINDING_ID_NAMES.map((name) => [name, z.string().optional()])) as Record<
            keyof FindingIds,
            z.ZodOptional<z.ZodString>
          >,
        ),
        detail: z.string(),
        action: z.string(),
        repaired: z.boolean().optional(),
        amount: amount.optional(),
        currency: z.string().optional(),
      }),
    ),
  }),
  [NotificationTypes.cardThreeDs]: z.object({
    cardNo: z.string(),
    tradeNo: z.string(),
    kind: z.enum(['third_3ds_otp', 'auth_url']),
    /**
     * The one-time code (`third_3ds_otp`), in clear: show it to the cardholder, store it nowhere.
     */
    otp: z.string().optional(),
    /** The authorization URL (`auth_url`), in clear. */
    authUrl: z.string().optional(),
    amount,
    currency: z.string(),
    /** Where the cardholder is paying (the record's transaction scenario). */
    merchantName: z.string(),
    /** After this the code is void (ISO time). */
    expiresAt: z.string(),
  }),
  [NotificationTypes.cardIssued]: z.object({
    cardNo: z.string(),
    cardTypeId: z.string(),
    customerRef,
    holderId: z.string().optional(),
    cardStatus: z.string(),
  }),
  [NotificationTypes.cardStatusChanged]: z.object({
    cardNo: z.string(),
    status: z.string(),
    previousStatus: z.string().optional(),
  }),
  [NotificationTypes.cardBlocked]: cardOperation,
  [NotificationTypes.cardUnblocked]: cardOperation,
  [NotificationTypes.cardCancelled]: cardOperation.extend({
    /** What the cancel returned to the account the card is charged to. */
    amountReturned: amount.optional(),
    currency: z.string().optional(),
  }),
  [NotificationTypes.cardTransaction]: z.object({
    cardNo: z.string(),
    kind: z.enum(['authorization', 'settlement', 'refund', 'fee', 'overdraft']),
    tradeNo: z.string(),
    originTradeNo: z.string().optional(),
    amount,
    currency: z.string(),
    /** The provider's status of the record (authorized, settled, declined, ...). */
    status: z.string(),
    merchantName: z.string().optional(),
  }),
} as const satisfies Record<NotificationType, z.ZodType>;

export type NotificationData<T extends NotificationType> = z.output<(typeof NotificationDataSchemas)[T]>;

/** The envelope of one notification: what `constructEvent` returns, typed by `type`. */
export type NotificationEvent<T extends NotificationType = NotificationType> = {
  [K in T]: {
    /** Unique per event and kept by every redelivery: dedupe on it. */
    id: string;
    type: K;
    /** When the event happened (ISO time), not when it was sent. */
    created: string;
    /** The workflow it comes from. */
    workflowId: string;
    data: NotificationData<K>;
  };
}[T];

const envelope = { id: z.string().min(1), created: z.string(), workflowId: z.string() };

/** Every event type's envelope, one schema per type, discriminated by `type`. */
export const NotificationEventSchema = z.discriminatedUnion(
  'type',
  (Object.keys(NotificationDataSchemas) as NotificationType[]).map((type) =>
    z.object({ ...envelope, type: z.literal(type), data: NotificationDataSchemas[type] }),
  ) as unknown as readonly [z.ZodObject, ...z.ZodObject[]],
) as unknown as z.ZodType<NotificationEvent>;

/**
 * What a worker tells a workflow about notifications, in the result of the workflow's first
 * activity (absent: no URL configured, the workflow emits nothing and pays nothing for it).
 */
export interface NotificationPlan {
  /** How long Temporal retries one delivery before the event is recorded undeliverable. */
  deliveryWindowMs: number;
}

/**
 * The id of the `seq`-th event a workflow run emits: derived from the run, so a replay and every
 * retried delivery carry the same id, and two runs never share one.
 */
export function workflowEventId(runId: string, seq: number): string {
  return `evt_${runId.replace(/-/g, '')}_${seq}`;
}

/** The id of the 3DS event of a provider record: one per record, however often it is relayed. */
export function threeDsEventId(tradeNo: string): string {
  return `evt_3ds_${tradeNo}`;
}

/**
 * The id of a card's `card.issued`: one per card, so a card whose workflow an operator terminated
 * and a later event started again is not announced as new under another id.
 */
export function cardIssuedEventId(cardNo: string): string {
  return `evt_issued_${cardNo}`;
}

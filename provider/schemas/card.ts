/**
 * Cards and the results of card operations (spec: Card, Card sensitive data, Card operation
 * record).
 */
import { z } from 'zod';
import {
  CARD_MERCHANT_ORDER_NO,
  CARD_STATUSES,
  CLIENT_REMARK,
  NO_PIN_PAYMENT_AMOUNT,
  CARD_TRANSACTION_SUB_TYPES,
  CARD_TRANSACTION_TYPES,
  FREEZE_V1_STATUSES,
  OPERATION_STATUSES,
  SPENDING_INTERVALS,
} from '../rules';
import { merchantOrderNo, oneOf, pin, reqAmountBetween, reqPositiveAmount, requiredText, optionalText } from './fields';
import { bool, decimal, int, lengthBetween, longId, reqDecimal, reqLong } from './primitives';

export const CardBalanceSchema = z.object({
  cardNo: z.string(),
  /** Available balance. */
  amount: decimal,
  /** Not supported by some bins. */
  usedAmount: decimal.nullish(),
  currency: z.string(),
});

export const CardSpendingControlSchema = z.object({
  interval: oneOf(SPENDING_INTERVALS),
  amount: decimal,
  supportSetting: bool.nullish(),
});

export const CardRiskControlsSchema = z.object({
  allowedMcc: z.array(z.string()).nullish(),
  blockedMcc: z.array(z.string()).nullish(),
});

export const CardHolderInfoSchema = z.object({
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  country: z.string().nullish(),
  state: z.string().nullish(),
  town: z.string().nullish(),
  address: z.string().nullish(),
  addressLine2: z.string().nullish(),
  postCode: z.string().nullish(),
});

export const CardSchema = z.object({
  cardTypeId: longId,
  cardBankBin: z.string(),
  holderId: longId.nullish(),
  cardNo: z.string(),
  status: oneOf(CARD_STATUSES),
  blocked: bool,
  /** Card creation time. */
  bindTime: int,
  remark: z.string().nullish(),
  /** Absent when only simple info is requested (onlySimpleInfo defaults to true). */
  balanceInfo: CardBalanceSchema.nullish(),
  /** Physical-card PIN-free limit. */
  noPinPaymentAmount: decimal,
  spendingControls: z.array(CardSpendingControlSchema).nullish(),
  riskControls: CardRiskControlsSchema.nullish(),
  customCategory: z.string().nullish(),
  holderInfo: CardHolderInfoSchema.nullish(),
  /** Earlier card-info listing: encrypted sensitive values (ciphertext, base64). */
  cardNumber: z.string().nullish(),
  cvv: z.string().nullish(),
  validPeriod: z.string().nullish(),
});

/**
 * Encrypted values (base64 ciphertext); card values are omitted for gift cards, activateUrl is for
 * gift cards only.
 */
export const CardSensitiveDataSchema = z.object({
  cardNumber: z.string().nullish(),
  cvv: z.string().nullish(),
  expireDate: z.string().nullish(),
  activateUrl: z.string().nullish(),
});

/** Card operation record as the queries and webhooks carry it. */
export const CardOperationRecordSchema = z.object({
  orderNo: z.string(),
  originOrderNo: z.string().nullish(),
  merchantOrderNo: z.string().nullish(),
  cardNo: z.string().nullish(),
  currency: z.string(),
  amount: decimal,
  fee: decimal,
  /** Freeze, unfreeze, deposit: present once status=success. */
  receivedAmount: decimal.nullish(),
  receivedCurrency: z.string().nullish(),
  type: oneOf(CARD_TRANSACTION_TYPES),
  subType: oneOf(CARD_TRANSACTION_SUB_TYPES).nullish(),
  status: oneOf(OPERATION_STATUSES),
  description: z.string().nullish(),
  /** Equals description; to be removed. */
  remark: z.string().nullish(),
  transactionTime: int,
});
export type CardOperationRecord = z.output<typeof CardOperationRecordSchema>;

/** Operation response of update PIN: merchantOrderNo is required. */
export const UpdatePinResultSchema = CardOperationRecordSchema.extend({ merchantOrderNo: z.string() });

/**
 * Operation response of create card v2, freeze v2, unfreeze v2 and deposit: merchantOrderNo and
 * cardNo required.
 */
export const CardOperationResultSchema = CardOperationRecordSchema.extend({
  merchantOrderNo: z.string(),
  cardNo: z.string(),
});

/**
 * Deprecated openCard: cardNo only once status=success, remark required; amount is the card fee.
 */
export const OpenCardResultSchema = CardOperationRecordSchema.extend({
  merchantOrderNo: z.string(),
  remark: z.string(),
});

export const ActivateCardResultSchema = z.object({
  merchantOrderNo: z.string(),
  cardNo: z.string(),
  type: oneOf(['card_activated']),
  status: oneOf(OPERATION_STATUSES),
  remark: z.string().nullish(),
});
export type ActivateCardResult = z.output<typeof ActivateCardResultSchema>;

/** Result of the v1 freeze and unfreeze operations. */
export const FreezeResultV1Schema = z.object({
  status: oneOf(FREEZE_V1_STATUSES),
  statusStr: z.string().nullish(),
});

// ---------------------------------------------------------------------------
// Requests (spec: Endpoints, Card types and cards)

const cardNo = requiredText;

/**
 * Deprecated create card; amount defaults to the bin's minimum initial deposit when it needs one.
 */
export const OpenCardRequestSchema = z.object({
  merchantOrderNo: merchantOrderNo(CARD_MERCHANT_ORDER_NO),
  holderId: reqLong.optional(),
  cardTypeId: reqLong,
  amount: reqPositiveAmount.optional(),
  /** Required for a physical card. */
  cardNumber: optionalText,
  accountId: reqLong.optional(),
});

/**
 * Create card v2. The amount's bounds (depositAmountMin/MaxQuotaForActiveCard) depend on the
 * card type, so they are checked by the caller that holds the card type, not here.
 */
export const CreateCardRequestSchema = z.object({
  merchantOrderNo: merchantOrderNo(CARD_MERCHANT_ORDER_NO),
  holderId: reqLong.optional(),
  cardTypeId: reqLong,
  /** Initial deposit. */
  amount: reqDecimal,
  /** Required for a physical card. */
  cardNumber: optionalText,
  /**
   * All payments are deducted from it; shared card mode uses the default wallet account when
   * omitted.
   */
  accountId: reqLong.optional(),
});

/** onlySimpleInfo defaults to true at the provider (balance omitted). */
export const GetCardInfoRequestSchema = z.object({ cardNo, onlySimpleInfo: z.boolean().optional() });

export const CardNoRequestSchema = z.object({ cardNo });

export const ActivatePhysicalCardRequestSchema = z.object({
  merchantOrderNo: merchantOrderNo(),
  cardNo,
  pin,
  activeCode: requiredText,
  /** USD; the provider defaults it to 500. */
  noPinPaymentAmount: reqAmountBetween(NO_PIN_PAYMENT_AMOUNT.min, NO_PIN_PAYMENT_AMOUNT.max).optional(),
});

/** Freeze v2 and unfreeze v2. */
export const FreezeCardRequestSchema = z.object({
  cardNo,
  merchantOrderNo: merchantOrderNo(),
  clientRemark: lengthBetween(CLIENT_REMARK.min, CLIENT_REMARK.max).optional(),
});

/**
 * Deposit; an earlier listing bounds merchantOrderNo at 35, the newer table at 40 (we follow the
 * newer).
 */
export const DepositCardRequestSchema = z.object({
  cardNo,
  merchantOrderNo: merchantOrderNo(),
  amount: reqPositiveAmount,
});

export const UpdatePinRequestSchema = z.object({
  cardNo,
  merchantOrderNo: merchantOrderNo(),
  pin,
});

/** Card activity records (spec: purchase, authorization, authorization fee and 3DS records). */
import { z } from 'zod';
import {
  AUTH_FEE_TYPES,
  AUTH_TRANSACTION_STATUSES,
  AUTH_TRANSACTION_TYPES,
  CARD_FORMS,
  CARD_ORGANIZATIONS,
  CARD_TRANSACTION_TYPES,
  OPERATION_STATUSES,
  THREE_DS_TYPES,
} from '../rules';
import { oneOf, optionalText, pagedTimeRangeQuery } from './fields';
import { decimal, int, longId, reqLong } from './primitives';

/** Card fees and initial deposits (no webhook for these). */
export const CardPurchaseRecordSchema = z.object({
  orderNo: z.string(),
  merchantOrderNo: z.string().nullish(),
  cardTypeId: longId,
  cardType: oneOf(CARD_FORMS),
  organization: oneOf(CARD_ORGANIZATIONS),
  bankCardBin: z.string(),
  currency: z.string(),
  cardFee: decimal,
  /** Initial deposit. */
  depositAmount: decimal,
  status: oneOf(OPERATION_STATUSES),
  transactionTime: int,
});

export const MerchantDataSchema = z.object({
  name: z.string().nullish(),
  /** MCC. */
  categoryCode: z.string().nullish(),
  category: z.string().nullish(),
  /** alpha-2 or alpha-3. */
  country: z.string().nullish(),
  state: z.string().nullish(),
  city: z.string().nullish(),
  zipCode: z.string().nullish(),
  mid: z.string().nullish(),
  walletType: z.string().nullish(),
});

/**
 * Consumption bill; the same tradeNo is pushed again as its status moves (provider-notes,
 * Webhooks).
 */
export const CardAuthTransactionSchema = z.object({
  cardNo: z.string(),
  tradeNo: z.string(),
  originTradeNo: z.string().nullish(),
  currency: z.string().nullish(),
  amount: decimal.nullish(),
  authorizedAmount: decimal,
  authorizedCurrency: z.string(),
  fee: decimal,
  feeCurrency: z.string().nullish(),
  crossBoardFee: decimal,
  crossBoardFeeCurrency: z.string().nullish(),
  settleAmount: decimal.nullish(),
  settleCurrency: z.string().nullish(),
  settleDate: int.nullish(),
  authorizationCode: z.string().nullish(),
  merchantName: z.string().nullish(),
  merchantData: MerchantDataSchema.nullish(),
  type: oneOf(AUTH_TRANSACTION_TYPES),
  status: oneOf(AUTH_TRANSACTION_STATUSES),
  description: z.string(),
  transactionTime: int,
  /** Earlier listing: description texts. */
  typeStr: z.string().nullish(),
  statusStr: z.string().nullish(),
});
export type CardAuthTransaction = z.output<typeof CardAuthTransactionSchema>;

/**
 * Authorization fee record. The spec gives `success` as the status example but no closed set,
 * so status is any string; deductionSourceFunds (e.g. wallet) and statusStr are descriptive.
 */
export const CardAuthFeeRecordSchema = z.object({
  cardNo: z.string(),
  tradeNo: z.string(),
  /** tradeNo of the authorization transaction; treated as present. */
  originTradeNo: z.string(),
  currency: z.string(),
  amount: decimal,
  type: oneOf(AUTH_FEE_TYPES),
  deductionSourceFunds: z.string().nullish(),
  status: z.string(),
  statusStr: z.string().nullish(),
  transactionTime: int,
});
export type CardAuthFeeRecord = z.output<typeof CardAuthFeeRecordSchema>;

/** 3DS code, authorization URL or physical-card activation code; `values` is encrypted. */
export const Card3dsRecordSchema = z.object({
  cardNo: z.string(),
  tradeNo: z.string(),
  originTradeNo: z.string().nullish(),
  currency: z.string(),
  amount: decimal,
  /** Transaction scenario. */
  merchantName: z.string(),
  values: z.string(),
  type: oneOf(THREE_DS_TYPES),
  description: z.string().nullish(),
  transactionTime: int,
  expirationTime: int,
});
export type Card3dsRecord = z.output<typeof Card3dsRecordSchema>;

// ---------------------------------------------------------------------------
// Requests (spec: Endpoints, Card records): all paged, at most 100 per page.

export const ListCardPurchasesRequestSchema = pagedTimeRangeQuery({
  merchantOrderNo: optionalText,
  orderNo: optionalText,
});

const cardTransactionFilters = { merchantOrderNo: optionalText, orderNo: optionalText, cardNo: optionalText };

/** v1 card transaction query: type is required. */
export const ListCardTransactionsV1RequestSchema = pagedTimeRangeQuery({
  ...cardTransactionFilters,
  type: oneOf(CARD_TRANSACTION_TYPES),
});

export const ListCardTransactionsRequestSchema = pagedTimeRangeQuery({
  ...cardTransactionFilters,
  type: oneOf(CARD_TRANSACTION_TYPES).optional(),
});

export const ListCardAuthTransactionsRequestSchema = pagedTimeRangeQuery({
  type: oneOf(AUTH_TRANSACTION_TYPES).optional(),
  tradeNo: optionalText,
  cardNo: optionalText,
});

export const ListCardAuthFeesRequestSchema = pagedTimeRangeQuery({
  cardTypeId: reqLong.optional(),
  tradeNo: optionalText,
  cardNo: optionalText,
  /** tradeNo of the authorization transaction. */
  originTradeNo: optionalText,
  tradeType: oneOf(AUTH_FEE_TYPES).optional(),
});

export const ListCard3dsRecordsRequestSchema = pagedTimeRangeQuery({
  type: oneOf(THREE_DS_TYPES).optional(),
  tradeNo: optionalText,
  cardNo: optionalText,
});

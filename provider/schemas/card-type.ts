/** Card types (bins) with their rules, fees and limits (spec: Card type). */
import { z } from 'zod';
import {
  CARD_CATEGORIES,
  CARD_FORMS,
  CARD_HOLDER_MODELS,
  CARD_MODES,
  CARD_ORGANIZATIONS,
  CARD_TYPE_STATUSES,
  SPENDING_INTERVALS,
} from '../rules';
import { oneOf } from './fields';
import { bool, decimal, int, longId } from './primitives';

export const SpendingControlSchema = z.object({
  interval: oneOf(SPENDING_INTERVALS),
  amount: decimal,
  supportSetting: bool,
});

export const CardTypeMetadataSchema = z.object({
  /** Max cards per cardholder (when needCardHolder is true). */
  cardHolderMaxCardLimit: int,
  /** Internal code selecting the cardholder request shape; unrelated to company vs individual. */
  cardHolderModel: oneOf(CARD_HOLDER_MODELS),
  supportSettingNoPinPaymentAmount: bool.nullish(),
  defaultNoPinPaymentAmount: decimal.nullish(),
  noPinPaymentAmountMinQuota: decimal.nullish(),
  noPinPaymentAmountMaxQuota: decimal.nullish(),
  spendingControls: z.array(SpendingControlSchema).nullish(),
  supportSettingMcc: bool,
});

export const CardTypeSchema = z.object({
  cardTypeId: longId,
  organization: oneOf(CARD_ORGANIZATIONS),
  country: z.string(),
  mode: oneOf(CARD_MODES),
  bankCardBin: z.string(),
  type: oneOf(CARD_FORMS),
  category: oneOf(CARD_CATEGORIES),
  cardName: z.string(),
  cardDesc: z.string(),
  cardPrice: decimal,
  cardPriceCurrency: z.string(),
  /** Supported merchants, for reference only. */
  support: z.array(z.string()),
  /** High-risk merchants: spending there triggers card-cancellation risk control. */
  risk: z.array(z.string()),
  needCardHolder: bool,
  /** ISO 3166-1 alpha-2 nationalities supported. */
  supportHolderRegin: z.array(z.string()),
  supportHolderAreaCode: z.array(z.string()),
  needDepositForActiveCard: bool,
  depositAmountMinQuotaForActiveCard: decimal,
  depositAmountMaxQuotaForActiveCard: decimal,
  fiatCurrency: z.string(),
  balanceRetentionQuota: decimal,
  status: oneOf(CARD_TYPE_STATUSES),
  rechargeCurrency: z.string(),
  rechargeMinQuota: decimal,
  rechargeMaxQuota: decimal,
  /** 1 means 1%. */
  rechargeFeeRate: decimal,
  rechargeFixedFee: decimal,
  rechargeDigital: int,
  enableActiveCard: bool,
  enableDeposit: bool,
  enableFreeze: bool,
  enableUnFreeze: bool,
  metadata: CardTypeMetadataSchema,
});
export type CardType = z.output<typeof CardTypeSchema>;

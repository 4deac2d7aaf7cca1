/**
 * `walletFunding`: fund from an on-chain deposit. Reuse or create the coin's deposit address,
 * wait for the wallet transaction to succeed (webhook, or polling), credit its receivedAmount,
 * then optionally transfer it to a MARGIN account and deposit it to a card (children). A failed or
 * expired deposit moves nothing. Ours is the first DEPOSIT to the address at or after the start
 * (less {@link DEPOSIT_CLOCK_SKEW_MS}), narrowed by `txHash` or `expectedAmount`: addresses are
 * per coin and shared, so two fundings waiting on one coin must each give one of them.
 */
import type { CompensationOutcome } from './compensation';
import { defineQuery } from '@temporalio/workflow';
import type { CardType } from '../provider/schemas/card-type';
import { cmp, depositFee, money, Money, sub } from '../provider/money';
import type { FailureSummary } from './summaries';
import { z } from 'zod';
import { businessRef, cardNoField, idDigits, positiveAmount } from './fields';
import { WaitOverridesSchema, type WaitOverrides } from './wait-profile';

export interface WalletFundingInput {
  coinKey: string;
  /** On-chain amount expected (txAmount), to tell our deposit from others to the same address. */
  expectedAmount?: string;
  /** The deposit's transaction hash, when the payer has given it. */
  txHash?: string;
  /** How long to wait for the deposit to succeed (ms); default 24 hours. */
  deadlineMs?: number;
  /** Then move (part of) the credit to a MARGIN account. */
  transfer?: { payeeAccountId: string; amount?: string };
  /** Then deposit to a card; amount defaults to the most the credit pays for, fee included. */
  cardDeposit?: { cardNo: string; cardTypeId: string; amount?: string };
  customerRef?: string;
  wait?: WaitOverrides;
  /**
   * Deposits since this time (epoch ms) are candidates; default: from this workflow's start, less
   * the clock skew.
   */
  depositSince?: number;
}

export interface WalletFundingResult {
  coinKey: string;
  address: string;
  /** The provider's wallet transaction id (orderNo). */
  walletOrderNo: string;
  txHash?: string;
  txAmount?: string;
  /** What was credited to the WALLET: the deposit after platform fees. */
  receivedAmount: string;
  currency: string;
  confirmations: number;
  transfer?: { merchantOrderNo: string; amount: string };
  deposit?: { merchantOrderNo: string; amount: string; fee: string };
}

export const FUNDING_STAGES = [
  'validating',
  'awaiting_deposit',
  'transferring',
  'depositing',
  'completed',
  'failed',
  /** Stopped by an operator's cancel (a mutation under way was finished first). */
  'cancelled',
] as const;
export type FundingStage = (typeof FUNDING_STAGES)[number];

export interface WalletFundingStatus {
  stage: FundingStage;
  address?: string;
  walletOrderNo?: string;
  /** wait_process, processing, success or fail, as last seen. */
  depositStatus?: string;
  receivedAmount?: string;
  failure?: FailureSummary;
  /**
   * After it failed or was cancelled with the credit in hand: what went back (the transfer's
   * unspent part) and what stays at the provider (the credit in the WALLET: no wallet withdraw).
   */
  compensation?: CompensationOutcome;
}

export const fundingStatusQuery = defineQuery<WalletFundingStatus>('fundingStatus');

export const DEFAULT_FUNDING_DEADLINE_MS = 24 * 60 * 60 * 1000;
/** Tolerance between the worker's clock and the provider's createTime. */
export const DEPOSIT_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** What identifies our deposit among the address's transactions. */
export interface DepositMatch {
  address: string;
  since: number;
  txHash?: string;
  expectedAmount?: string;
}

export function matchesDeposit(
  tx: {
    type: string;
    destinationAddress: string;
    createTime: number;
    txHash?: string | null | undefined;
    txAmount?: string | null | undefined;
  },
  match: DepositMatch,
): boolean {
  if (tx.type !== 'DEPOSIT' || tx.destinationAddress !== match.address || tx.createTime < match.since) return false;
  if (match.txHash !== undefined && tx.txHash !== match.txHash) return false;
  if (match.expectedAmount !== undefined && (tx.txAmount == null || cmp(tx.txAmount, match.expectedAmount) !== 0))
    return false;
  return true;
}

/**
 * The largest deposit `amount` (rechargeDigital decimals, within rechargeMaxQuota) whose amount +
 * fee (provider/money depositFee) fits in `available`; undefined when even rechargeMinQuota does
 * not fit.
 */
export function maxDepositFor(
  available: string,
  cardType: Pick<
    CardType,
    'rechargeFeeRate' | 'rechargeFixedFee' | 'rechargeDigital' | 'rechargeMinQuota' | 'rechargeMaxQuota'
  >,
): string | undefined {
  const digits = cardType.rechargeDigital;
  const unit = new Money(1).dividedBy(new Money(10).pow(digits));
  const rate = money(cardType.rechargeFeeRate).dividedBy(100);
  let amount = money(sub(available, cardType.rechargeFixedFee))
    .dividedBy(rate.plus(1))
    .toDecimalPlaces(digits, Money.ROUND_DOWN);
  if (amount.greaterThan(cardType.rechargeMaxQuota))
    amount = money(cardType.rechargeMaxQuota).toDecimalPlaces(digits, Money.ROUND_DOWN);
  const total = (a: Money) =>
    money(a.toFixed(digits)).plus(
      depositFee(a.toFixed(digits), cardType.rechargeFeeRate, cardType.rechargeFixedFee, digits),
    );
  // Rounding the fee up can push the total a unit or two over; step down until it fits.
  for (let i = 0; i < 10 && amount.greaterThan(0) && total(amount).greaterThan(available); i++)
    amount = amount.minus(unit);
  if (amount.lessThan(cardType.rechargeMinQuota) || total(amount).greaterThan(available)) return undefined;
  return amount.toFixed(digits);
}

/**
 * What a backend hands a funding's start: the caller's `fundingRef` (the business key its workflow
 * id is built from) and the input.
 */
export const FundingRequestSchema = z
  .object({
    fundingRef: businessRef,
    coinKey: z
      .string({ error: 'is required' })
      .regex(/^[A-Za-z0-9_]{1,32}$/, { message: 'must be a coin key such as USDT_TRC20' }),
    expectedAmount: positiveAmount.optional(),
    txHash: z
      .string()
      .regex(/^[A-Za-z0-9]{8,128}$/, { message: 'must be a transaction hash (letters and digits)' })
      .optional(),
    deadlineMs: z.number().int().positive().optional(),
    transfer: z.object({ payeeAccountId: idDigits, amount: positiveAmount.optional() }).strict().optional(),
    cardDeposit: z
      .object({ cardNo: cardNoField, cardTypeId: idDigits, amount: positiveAmount.optional() })
      .strict()
      .optional(),
    customerRef: businessRef.optional(),
    wait: WaitOverridesSchema,
  })
  .strict();

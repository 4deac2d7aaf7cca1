/**
 * `fundTransfer`: TRANSFER moves WALLET → MARGIN (ledger bizType
 * fund_transfer), COLLECTION moves MARGIN → WALLET (fund_collection) (spec: /account/transfer).
 *
 * The operation answers only `true`, so the workflow confirms the movement in the ledger
 * afterwards. The ledger's orderNo is the provider's id, which the transfer never returns; the
 * merchantOrderNo therefore travels in the transfer's `remark`, and the ledger entries are found
 * by it (or by orderNo, should a provider use the merchantOrderNo there).
 */
import { defineQuery } from '@temporalio/workflow';
import { cmp, scale } from '../provider/money';
import type { FieldIssue } from './cardholder-data';
import type { FailureSummary } from './summaries';
import { z } from 'zod';
import { lengthBetween } from '../provider/schemas/primitives';
import { businessRef, idDigits, positiveAmount } from './fields';
import { WaitOverridesSchema, type WaitOverrides } from './wait-profile';
import { AMOUNT_RE, TRANSFER_TYPES } from '../provider/rules';

export type TransferType = 'TRANSFER' | 'COLLECTION';

export const TRANSFER_DIRECTIONS = {
  TRANSFER: { payer: 'WALLET', payee: 'MARGIN', bizType: 'fund_transfer' },
  COLLECTION: { payer: 'MARGIN', payee: 'WALLET', bizType: 'fund_collection' },
} as const;

export interface FundTransferInput {
  type: TransferType;
  amount: string;
  payerAccountId: string;
  payeeAccountId: string;
  /** Free text appended after the merchantOrderNo in the provider's remark. */
  remark?: string;
  customerRef?: string;
  wait?: WaitOverrides;
}

/** One side of the movement as the ledger states it. */
export interface LedgerLeg {
  accountId: string;
  txId: string;
  orderNo: string;
  direction: 'IN' | 'OUT';
  amount: string;
  beforeBalance: string;
  afterBalance: string;
}

export interface FundTransferResult {
  type: TransferType;
  merchantOrderNo: string;
  amount: string;
  currency: string;
  /** False when the provider said an earlier attempt had already made it. */
  sent: boolean;
  payer: LedgerLeg;
  payee: LedgerLeg;
}

export const TRANSFER_STAGES = [
  'validating',
  'transferring',
  'confirming',
  'completed',
  'failed',
  'cancelled',
] as const;
export type TransferStage = (typeof TRANSFER_STAGES)[number];

export interface FundTransferStatus {
  stage: TransferStage;
  merchantOrderNo?: string;
  failure?: FailureSummary;
}

export const transferStatusQuery = defineQuery<FundTransferStatus>('transferStatus');

/** The provider remark of our transfer: the key first, so the ledger entry can be found by it. */
export function transferRemark(merchantOrderNo: string, remark?: string): string {
  return remark ? `${merchantOrderNo} ${remark}` : merchantOrderNo;
}

/** True when a ledger entry belongs to the transfer keyed `merchantOrderNo`. */
export function isTransferEntry(
  entry: { orderNo: string; remark?: string | null | undefined },
  merchantOrderNo: string,
): boolean {
  return entry.orderNo === merchantOrderNo || (entry.remark ?? '').split(' ')[0] === merchantOrderNo;
}

export interface TransferAccount {
  accountId: string;
  accountType: 'WALLET' | 'MARGIN';
  currency: string;
  availableBalance: string;
}

/**
 * Everything the provider would refuse, checked first: direction, currency, decimals and balance.
 */
export function transferIssues(
  type: TransferType,
  amount: string,
  payer: TransferAccount,
  payee: TransferAccount,
  digits?: number,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const direction = TRANSFER_DIRECTIONS[type];
  if (!direction) return [{ path: 'type', message: 'must be TRANSFER or COLLECTION' }];
  if (typeof amount !== 'string' || !AMOUNT_RE.test(amount) || cmp(amount, '0') <= 0) {
    return [{ path: 'amount', message: 'must be a decimal string greater than 0, such as "10.50"' }];
  }
  if (digits !== undefined && scale(amount) > digits)
    issues.push({ path: 'amount', message: `must have at most ${digits} decimals` });
  if (payer.accountId === payee.accountId)
    issues.push({ path: 'payeeAccountId', message: 'must differ from payerAccountId' });
  if (payer.accountType !== direction.payer) {
    issues.push({
      path: 'payerAccountId',
      message: `a ${type} is paid from a ${direction.payer} account; ${payer.accountId} is ${payer.accountType}`,
    });
  }
  if (payee.accountType !== direction.payee) {
    issues.push({
      path: 'payeeAccountId',
      message: `a ${type} is paid to a ${direction.payee} account; ${payee.accountId} is ${payee.accountType}`,
    });
  }
  if (payer.currency !== payee.currency)
    issues.push({
      path: 'payeeAccountId',
      message: `currency ${payee.currency} differs from the payer's ${payer.currency}`,
    });
  return issues;
}

/**
 * What a backend hands a transfer's start: the caller's `transferRef` (the business key its
 * workflow id is built from) and the input. Balance, account types and currency need the
 * provider: the workflow checks them first ({@link transferIssues}), sending nothing.
 */
export const TransferRequestSchema = z
  .object({
    transferRef: businessRef,
    type: z.enum(TRANSFER_TYPES, { error: `must be one of ${TRANSFER_TYPES.join(', ')}` }),
    amount: positiveAmount,
    payerAccountId: idDigits,
    payeeAccountId: idDigits,
    // The provider's remark is the merchantOrderNo, a space and this (provider/schemas/account.ts:
    // 255 in all).
    remark: lengthBetween(0, 200).optional(),
    customerRef: businessRef.optional(),
    wait: WaitOverridesSchema,
  })
  .strict()
  .refine((request) => request.payerAccountId !== request.payeeAccountId, {
    path: ['payeeAccountId'],
    message: 'must differ from payerAccountId',
    // It compares two account ids, so only once every field passed its own rule.
    when: (payload) => payload.issues.length === 0,
  });

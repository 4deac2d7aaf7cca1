/** Ledger accounts and their history (spec: Account, Ledger entry). */
import { z } from 'zod';
import {
  ACCOUNT_PAGE_SIZE_MAX,
  ACCOUNT_TYPES,
  LEDGER_BIZ_TYPES,
  LEDGER_DIRECTIONS,
  LEDGER_RANGE_DAYS,
  TRANSFER_TYPES,
} from '../rules';
import {
  merchantOrderNo,
  oneOf,
  optionalText,
  pagedTimeRangeQuery,
  pageNum,
  pageSize,
  reqPositiveAmount,
  requiredText,
} from './fields';
import { decimal, int, longId, reqLong } from './primitives';

export const AccountSchema = z.object({
  /** A string in responses ("19847563867367666"), a Long in requests. */
  accountId: longId,
  accountName: z.string(),
  accountType: oneOf(ACCOUNT_TYPES),
  currency: z.string(),
  totalBalance: decimal,
  availableBalance: decimal,
  frozenBalance: decimal,
  /** Decimal precision of the account's amounts. */
  digital: int,
});
export type Account = z.output<typeof AccountSchema>;

export const LedgerEntrySchema = z.object({
  txId: longId,
  accountId: longId,
  currency: z.string().nullish(),
  amount: decimal,
  beforeBalance: decimal,
  afterBalance: decimal,
  orderNo: z.string(),
  bizType: oneOf(LEDGER_BIZ_TYPES),
  direction: oneOf(LEDGER_DIRECTIONS),
  remark: z.string().nullish(),
  createTime: int,
});
export type LedgerEntry = z.output<typeof LedgerEntrySchema>;

// ---------------------------------------------------------------------------
// Requests (spec: Endpoints, Account)

export const ListAccountsRequestSchema = z.object({
  accountId: reqLong.optional(),
  type: oneOf(ACCOUNT_TYPES).optional(),
  pageNum,
  /** The account list pages by at most 10. */
  pageSize: pageSize(ACCOUNT_PAGE_SIZE_MAX),
});

export const GetAccountRequestSchema = z.object({ accountId: reqLong });

/** Ledger history: at most 30 days per query (Limits). */
export const ListLedgerEntriesRequestSchema = pagedTimeRangeQuery(
  {
    orderNo: optionalText,
    accountId: reqLong.optional(),
    bizType: oneOf(LEDGER_BIZ_TYPES).optional(),
  },
  LEDGER_RANGE_DAYS,
);

export const CreateSharedAccountRequestSchema = z.object({ accountName: requiredText });

/** Fund transfer (TRANSFER) or fund collection (COLLECTION) between two accounts. */
export const TransferFundsRequestSchema = z.object({
  type: oneOf(TRANSFER_TYPES),
  merchantOrderNo: merchantOrderNo(),
  amount: reqPositiveAmount,
  /** Typically a WALLET account. */
  payerAccountId: reqLong,
  /** Usually a MARGIN account. */
  payeeAccountId: reqLong,
  remark: optionalText,
});

/**
 * Crypto wallet: coins, deposit addresses, wallet transactions (v2) and the deprecated deposit
 * orders.
 */
import { z } from 'zod';
import { DEPOSIT_CHAINS, OPERATION_STATUSES, WALLET_TX_RANGE_DAYS, WALLET_TX_TYPES } from '../rules';
import { oneOf, optionalText, pagedTimeRangeQuery, reqPositiveAmount, requiredText } from './fields';
import { bool, decimal, int } from './primitives';

export const CoinSchema = z.object({
  coinKey: z.string(),
  chain: z.string(),
  coinFullName: z.string(),
  coinName: z.string(),
  showCoinDecimal: int,
  coinDecimal: int,
  blockChainShowName: z.string(),
  /** Address link template containing `{address}`. */
  browser: z.string(),
  /** Transaction link template containing `{txHash}`. */
  txRefUrl: z.string(),
  contractAddress: z.string(),
  enableDeposit: bool,
  enableWithdraw: bool,
  confirmations: int,
  enabled: bool,
});

export const WalletAddressSchema = z.object({
  coinKey: z.string(),
  chain: z.string(),
  coinName: z.string(),
  address: z.string(),
});

export const WalletTransactionSchema = z.object({
  orderNo: z.string(),
  coinKey: z.string(),
  block: int.nullish(),
  sourceAddress: z.string(),
  destinationAddress: z.string(),
  txHash: z.string().nullish(),
  txAmount: decimal.nullish(),
  transactionTime: int.nullish(),
  confirmTime: int.nullish(),
  coinName: z.string(),
  /** 1 means 1%. */
  feeRate: decimal,
  fee: decimal,
  fixedFee: decimal,
  /** Amount after platform fees, for DEPOSIT and WITHDRAW. */
  receivedAmount: decimal,
  receivedCurrency: z.string(),
  type: oneOf(WALLET_TX_TYPES),
  status: oneOf(OPERATION_STATUSES),
  message: z.string().nullish(),
  createTime: int,
  updateTime: int,
});
export type WalletTransaction = z.output<typeof WalletTransactionSchema>;

/** Response of the deprecated wallet deposit order operation. */
export const DeprecatedWalletDepositOrderSchema = z.object({
  orderNo: z.string(),
  userInputDepositAmount: decimal,
  /** May carry extra decimals added to the input amount. */
  actualDepositAmount: decimal,
  currency: z.string(),
  chain: z.string(),
  toAddress: z.string(),
  createTime: int,
  /** Validity in seconds. */
  expireSecond: int,
});

/**
 * The spec names the fee `feeRateAmount`; an example calls it `fee`. Either is read into
 * feeRateAmount.
 */
export const DeprecatedWalletDepositRecordSchema = z
  .object({
    orderNo: z.string(),
    needDepositTxAmount: decimal,
    txAmount: decimal.nullish(),
    feeRate: decimal,
    feeRateAmount: decimal.nullish(),
    fee: decimal.nullish(),
    fixedFee: decimal,
    currency: z.string(),
    receivedAmount: decimal.nullish(),
    receivedCurrency: z.string().nullish(),
    chain: z.string(),
    fromAddress: z.string().nullish(),
    toAddress: z.string(),
    txId: z.string().nullish(),
    block: int.nullish(),
    confirmTime: int.nullish(),
    type: oneOf(['chain_deposit']),
    status: oneOf(OPERATION_STATUSES),
    remark: z.string().nullish(),
    createTime: int,
    updateTime: int,
  })
  .refine((r) => r.feeRateAmount != null || r.fee != null, {
    path: ['feeRateAmount'],
    message: 'is required (feeRateAmount or fee)',
  })
  .transform(({ fee, feeRateAmount, ...rest }) => ({ ...rest, feeRateAmount: (feeRateAmount ?? fee) as string }));

// ---------------------------------------------------------------------------
// Requests (spec: Endpoints, Wallet)

/** Deprecated deposit order; the provider defaults chain to TRC20. */
export const WalletDepositOrderRequestSchema = z.object({
  chain: oneOf(DEPOSIT_CHAINS).optional(),
  amount: reqPositiveAmount,
});

export const WalletDepositTransactionsRequestSchema = pagedTimeRangeQuery({
  orderNo: optionalText,
  fromAddress: optionalText,
  toAddress: optionalText,
  txId: optionalText,
  status: oneOf(OPERATION_STATUSES).optional(),
});

/** Only for a coin with enabled=true. */
export const CreateWalletAddressRequestSchema = z.object({ coinKey: requiredText });

/** Wallet v2 transactions: at most 90 days per query (Limits). */
export const ListWalletTransactionsRequestSchema = pagedTimeRangeQuery(
  {
    coinKey: optionalText,
    coinName: optionalText,
    txHash: optionalText,
    sourceAddress: optionalText,
    destinationAddress: optionalText,
    orderNo: optionalText,
    type: oneOf(WALLET_TX_TYPES).optional(),
    status: oneOf(OPERATION_STATUSES).optional(),
  },
  WALLET_TX_RANGE_DAYS,
);

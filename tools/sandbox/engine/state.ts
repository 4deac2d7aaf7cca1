/**
 * Everything the sandbox provider holds, in program types (money as decimal strings, ids as
 * digit strings, times as epoch ms). `wire.ts` turns records into the provider's wire shape.
 */
import type { CardTypeDef } from '../data/card-types';
import type { CoinDef } from '../data/coins';

export type OpStatus = 'wait_process' | 'processing' | 'success' | 'fail';
export type CardStatus =
  'pending' | 'un_activated' | 'Normal' | 'Freeze' | 'Freezing' | 'UnFreezing' | 'canceling' | 'cancel' | 'fail';

export interface Account {
  accountId: string;
  accountName: string;
  accountType: 'WALLET' | 'MARGIN';
  currency: string;
  /** available + frozen. */
  totalBalance: string;
  availableBalance: string;
  /** Held for card operations accepted but not yet finished. */
  frozenBalance: string;
  digital: number;
}

export interface LedgerEntry {
  txId: string;
  accountId: string;
  currency: string;
  amount: string;
  beforeBalance: string;
  afterBalance: string;
  orderNo: string;
  bizType: string;
  direction: 'IN' | 'OUT';
  remark: string | null;
  createTime: number;
}

export interface Card {
  cardNo: string;
  cardTypeId: string;
  holderId: string | null;
  status: CardStatus;
  blocked: boolean;
  bindTime: number;
  remark: string | null;
  /** Available balance; may go below 0 until an overdraft statement settles it. */
  balance: string;
  usedAmount: string;
  currency: string;
  /** Account every payment of this card is charged to. */
  accountId: string;
  pan: string;
  cvv: string;
  expireDate: string;
  noPinPaymentAmount: string;
  pinSet: boolean;
  /** Activation code issued for a physical card (issueActivationCode helper). */
  activationCode: string | null;
  /** Created with the deprecated openCard: no create record in the v2 transaction query. */
  deprecatedCreate: boolean;
}

export type CardOpType =
  | 'create'
  | 'deposit'
  | 'cancel'
  | 'Freeze'
  | 'UnFreeze'
  | 'withdraw'
  | 'update_pin'
  | 'blocked'
  | 'card_update'
  | 'overdraft_statement';

export interface CardOperation {
  orderNo: string;
  originOrderNo: string | null;
  merchantOrderNo: string | null;
  cardNo: string | null;
  currency: string;
  amount: string;
  fee: string;
  receivedAmount: string | null;
  receivedCurrency: string | null;
  type: CardOpType;
  subType: 'DEFAULT' | 'REFUND' | null;
  status: OpStatus;
  description: string | null;
  transactionTime: number;
  /** Created by openCard: hidden from the v2 query, cardNo shown only on success. */
  deprecated: boolean;
}

export interface Purchase {
  orderNo: string;
  merchantOrderNo: string | null;
  cardTypeId: string;
  cardType: 'Virtual' | 'Physical';
  organization: string;
  bankCardBin: string;
  currency: string;
  cardFee: string;
  depositAmount: string;
  status: OpStatus;
  transactionTime: number;
}

export interface MerchantData {
  name: string | null;
  categoryCode: string | null;
  category: string | null;
  country: string | null;
  city: string | null;
}

export interface AuthTransaction {
  cardNo: string;
  tradeNo: string;
  originTradeNo: string | null;
  currency: string;
  amount: string;
  authorizedAmount: string;
  authorizedCurrency: string;
  fee: string;
  crossBoardFee: string;
  settleAmount: string | null;
  settleCurrency: string | null;
  settleDate: number | null;
  authorizationCode: string | null;
  merchantName: string | null;
  merchantData: MerchantData | null;
  type: 'auth' | 'refund' | 'verification' | 'Void' | 'maintain_fee';
  status: 'authorized' | 'failed' | 'succeed';
  description: string;
  transactionTime: number;
  /** Amount still held on the card for an authorized (unsettled) auth. */
  held: string;
  crossBorder: boolean;
}

export interface AuthFee {
  cardNo: string;
  cardTypeId: string;
  tradeNo: string;
  originTradeNo: string;
  currency: string;
  amount: string;
  type: 'card_patch_fee' | 'card_patch_cross_border';
  deductionSourceFunds: string;
  status: string;
  statusStr: string;
  transactionTime: number;
}

export interface ThreeDsRecord {
  cardNo: string;
  tradeNo: string;
  originTradeNo: string | null;
  currency: string;
  amount: string;
  merchantName: string;
  /** Clear value; encrypted on the way out. */
  value: string;
  type: 'third_3ds_otp' | 'auth_url' | 'activation_code';
  description: string | null;
  transactionTime: number;
  expirationTime: number;
}

export type HolderStatus = 'wait_audit' | 'pass_audit' | 'under_review' | 'reject';

export interface Holder {
  holderId: string;
  merchantOrderNo: string | null;
  cardTypeId: string;
  /** Which request shape created it: v1, v2 (B2B/B2C) or idv. */
  shape: 'v1' | 'B2B' | 'B2C' | 'idv';
  fields: Record<string, string>;
  statusFlowLocation: 'admin' | 'channel';
  status: HolderStatus;
  description: string | null;
  createTime: number;
  updateTime: number;
  /** Magic: waits at every stage for the decideCardholderReview helper. */
  stall: boolean;
  /** Magic outcome of the review. */
  rejectAt: 'admin' | 'channel' | null;
  /** Why the magic rejects, when it is not the default reason (a document that cannot be read). */
  rejectReason: string | null;
  /** Cancels the pending automatic review step. */
  cancelStep: (() => void) | null;
}

export interface StoredFile {
  fileId: string;
  filename: string;
  contentType: string;
  size: number;
  /** SHA-256 of the content, hex: which uploads carried the same bytes. */
  sha256: string;
  /** When it was uploaded (sandbox clock, ms). */
  uploadedAt: number;
  /**
   * Magic: the content carries the unreadable-document marker (engine/magic.ts); a review rejects
   * it.
   */
  unreadable: boolean;
}

export interface WalletAddress {
  coinKey: string;
  chain: string;
  coinName: string;
  address: string;
}

export interface WalletTransaction {
  orderNo: string;
  coinKey: string;
  block: number | null;
  sourceAddress: string;
  destinationAddress: string;
  txHash: string | null;
  txAmount: string;
  transactionTime: number | null;
  confirmTime: number | null;
  coinName: string;
  feeRate: string;
  fee: string;
  fixedFee: string;
  receivedAmount: string;
  receivedCurrency: string;
  type: 'DEPOSIT' | 'WITHDRAW';
  status: OpStatus;
  message: string | null;
  createTime: number;
  updateTime: number;
}

export interface DepositOrder {
  orderNo: string;
  userInputDepositAmount: string;
  actualDepositAmount: string;
  currency: string;
  chain: string;
  toAddress: string;
  createTime: number;
  expireSecond: number;
  /** The deprecated deposit record of this order. */
  record: {
    txAmount: string | null;
    feeRate: string;
    feeRateAmount: string;
    fixedFee: string;
    receivedAmount: string | null;
    fromAddress: string | null;
    txId: string | null;
    block: number | null;
    confirmTime: number | null;
    status: OpStatus;
    remark: string | null;
    updateTime: number;
  };
}

export interface WorkOrder {
  merchantOrderNo: string;
  orderNo: string;
  title: string;
  target: string;
  content: string | null;
  files: string[];
  tradeType: 'CARD_ACTIVE' | 'OTHER';
  tradeStatus: OpStatus;
  description: string | null;
  createTime: number;
  updateTime: number;
  stall: boolean;
  fail: boolean;
  cancelStep: (() => void) | null;
}

/** A card operation whose outcome waits on the clock (or, when stalled, on a helper). */
export interface PendingOperation {
  orderNo: string;
  finish: (outcome: 'success' | 'fail', reason?: string) => void;
  cancelStep: (() => void) | null;
}

export interface State {
  accounts: Map<string, Account>;
  walletAccountId: string;
  ledger: LedgerEntry[];
  cardTypes: Map<string, CardTypeDef>;
  cards: Map<string, Card>;
  operations: CardOperation[];
  pendingOperations: Map<string, PendingOperation>;
  purchases: Purchase[];
  auths: AuthTransaction[];
  /** tradeNo -> cancels the scheduled settlement of an authorized auth. */
  pendingSettlements: Map<string, () => void>;
  authFees: AuthFee[];
  threeDs: ThreeDsRecord[];
  holders: Map<string, Holder>;
  files: Map<string, StoredFile>;
  coins: CoinDef[];
  addresses: WalletAddress[];
  walletTransactions: WalletTransaction[];
  depositOrders: DepositOrder[];
  workOrders: WorkOrder[];
  /** merchantOrderNo -> what used it (unique across all operation types; provider-notes). */
  merchantOrders: Map<string, { kind: string; orderNo: string }>;
  /** Physical card numbers already bound to a card. */
  usedPans: Set<string>;
  feesCollected: string;
  externalCredits: string;
  /**
   * Messages of scheduled steps that threw (should stay empty; read with the engineErrors helper).
   */
  taskErrors: string[];
}

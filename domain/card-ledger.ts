/**
 * The card's money as its events tell it (spec: Card authorization transaction, Card
 * authorization fee record, Card operation record): what each authorization type, fee record and
 * provider-initiated card operation does to the card, as totals over the card's life and a
 * bounded list of the latest entries. Pure functions over plain records, so the card entity
 * carries them across continue-as-new and a unit test drives them directly.
 *
 * The totals say what happened; the card's balance is never computed from them: after any event
 * that moves money the entity reads the balance from the provider (the provider's fee-offset and
 * overdraft rules decide it, not cardflow).
 */
import { add, cmp, sub } from '../provider/money';

/**
 * Totals over the card's life, decimal strings in the card's currency (counts as numbers).
 * - held: authorized and not yet settled or reversed;
 * - settled: settlement amounts of succeeded auths; settleDifference: settled minus authorized;
 * - voided: released by a Void before settlement; refunded: refunds after settlement;
 * - declined: failed auths that were never authorized (a decline, not a reversal);
 * - maintainFees: card fees (monthly, annual, ATM: type maintain_fee);
 * - feesFromCard / feesFromPlatformReserve: authorization fees and which funds paid them;
 *   feeReversals: the reversal records charging the merchant's reserve account for what the
 *   platform reserve covered (spec: the fee-offset background rule);
 * - overdraft: overdraft statements (the shortfall moved from the merchant's account);
 * - withdrawn / refundWithdrawn: withdrawals from the card (DEFAULT, and REFUND after a cancel).
 */
export interface CardTotals {
  held: string;
  settled: string;
  settleDifference: string;
  voided: string;
  refunded: string;
  declined: number;
  verifications: number;
  maintainFees: string;
  feesFromCard: string;
  feesFromPlatformReserve: string;
  feeReversals: string;
  overdraft: string;
  withdrawn: string;
  refundWithdrawn: string;
}

/**
 * One entry of the card's record, newest last: an authorization step, a fee or a card-level
 * operation.
 */
export interface CardLedgerEntry {
  /** tradeNo (authorizations, fees) or orderNo (card operations). */
  ref: string;
  kind: 'authorization' | 'fee' | 'operation';
  /**
   * Authorization type, fee type, or operation type (with its subType after a dot, e.g.
   * `withdraw.REFUND`).
   */
  type: string;
  status: string;
  amount: string;
  /**
   * What the entry did, in words of the spec (e.g. `settled (difference -0.50)`, `fee paid from
   * platform_reserve`).
   */
  effect: string;
  at: number;
  /** A Void's or refund's originTradeNo: the auth it reverses or refunds. */
  origin?: string;
}

export const KEPT_LEDGER_ENTRIES = 50;

export function zeroTotals(): CardTotals {
  return {
    held: '0',
    settled: '0',
    settleDifference: '0',
    voided: '0',
    refunded: '0',
    declined: 0,
    verifications: 0,
    maintainFees: '0',
    feesFromCard: '0',
    feesFromPlatformReserve: '0',
    feeReversals: '0',
    overdraft: '0',
    withdrawn: '0',
    refundWithdrawn: '0',
  };
}

/**
 * What an authorization step does: the totals it moves and the entry it leaves; `moved`: money
 * moved on the card.
 */
export interface LedgerStep {
  totals: CardTotals;
  entry: CardLedgerEntry;
  moved: boolean;
}

interface AuthorizationStep {
  tradeNo: string;
  type: string;
  status: string;
  authorizedAmount: string;
  settleAmount?: string | undefined;
  origin?: string | undefined;
  transactionTime: number;
}

/**
 * One authorization record, seen for the first time in this `status`; `previous`: the status the
 * same tradeNo had before (undefined: first seen, or no longer among the kept ones); `reversed`:
 * a Void already learned names this auth as its origin (its failure is a reversal, not a decline).
 */
export function authorizationStep(
  totals: CardTotals,
  r: AuthorizationStep,
  previous: { status: string; authorizedAmount: string } | undefined,
  reversed = false,
): LedgerStep {
  const t = { ...totals };
  let effect: string;
  let amount = r.authorizedAmount;
  let moved = true;
  const wasHeld = previous?.status === 'authorized';
  if (r.type === 'auth') {
    if (r.status === 'authorized') {
      t.held = add(t.held, r.authorizedAmount);
      effect = 'held';
    } else if (r.status === 'succeed') {
      if (wasHeld) t.held = sub(t.held, previous.authorizedAmount);
      amount = r.settleAmount ?? r.authorizedAmount;
      const difference = sub(amount, r.authorizedAmount);
      t.settled = add(t.settled, amount);
      t.settleDifference = add(t.settleDifference, difference);
      effect = cmp(difference, '0') === 0 ? 'settled' : `settled (difference ${difference})`;
    } else if (wasHeld) {
      // A held auth that fails was reversed (its Void record carries the amount).
      t.held = sub(t.held, previous.authorizedAmount);
      effect = 'reversed';
    } else if (reversed) {
      effect = 'reversed';
      moved = false;
    } else {
      t.declined += 1;
      effect = 'declined';
      moved = false;
    }
  } else if (r.status === 'failed') {
    if (r.type === 'verification') t.verifications += 1;
    else t.declined += 1;
    effect = `${r.type} declined`;
    moved = false;
  } else if (r.type === 'Void') {
    t.voided = add(t.voided, r.authorizedAmount);
    effect = 'reversal released';
  } else if (r.type === 'refund') {
    t.refunded = add(t.refunded, r.authorizedAmount);
    effect = 'refunded';
  } else if (r.type === 'verification') {
    t.verifications += 1;
    effect = 'card verification';
    moved = false;
  } else if (r.type === 'maintain_fee') {
    t.maintainFees = add(t.maintainFees, r.authorizedAmount);
    effect = 'card fee';
  } else {
    effect = r.type;
  }
  return {
    totals: t,
    entry: {
      ref: r.tradeNo,
      kind: 'authorization',
      type: r.type,
      status: r.status,
      amount,
      effect,
      at: r.transactionTime,
      ...(r.origin ? { origin: r.origin } : {}),
    },
    moved,
  };
}

/**
 * One authorization fee record (spec: Card authorization fee record): paid from the card, offset
 * from the platform reserve, or the reversal that charges the merchant's reserve (`wallet`).
 */
export function feeStep(
  totals: CardTotals,
  r: {
    tradeNo: string;
    type: string;
    amount: string;
    deductionSourceFunds?: string | null | undefined;
    status: string;
    transactionTime?: number | null | undefined;
  },
): LedgerStep {
  const t = { ...totals };
  const source = r.deductionSourceFunds ?? 'card';
  let effect: string;
  if (source === 'platform_reserve') {
    t.feesFromPlatformReserve = add(t.feesFromPlatformReserve, r.amount);
    effect = 'fee offset from the platform reserve';
  } else if (source === 'wallet') {
    t.feeReversals = add(t.feeReversals, r.amount);
    effect = "fee reversal charged to the merchant's reserve";
  } else {
    t.feesFromCard = add(t.feesFromCard, r.amount);
    effect = 'fee paid from the card';
  }
  return {
    totals: t,
    entry: {
      ref: r.tradeNo,
      kind: 'fee',
      type: r.type,
      status: r.status,
      amount: r.amount,
      effect,
      at: r.transactionTime ?? 0,
    },
    moved: source !== 'wallet',
  };
}

/** Card operation types that move the card's money without a request of cardflow's. */
const MONEY_OPERATIONS = ['withdraw', 'overdraft_statement', 'cancel', 'deposit'];

/**
 * A successful card operation record that moves money (withdraw, overdraft statement, cancel,
 * deposit); undefined for one that does not (Freeze, blocked...) or has not succeeded.
 */
export function operationStep(
  totals: CardTotals,
  r: {
    orderNo: string;
    type: string;
    subType?: string | null | undefined;
    status: string;
    amount: string;
    transactionTime: number;
  },
): LedgerStep | undefined {
  if (r.status !== 'success' || !MONEY_OPERATIONS.includes(r.type)) return undefined;
  const t = { ...totals };
  let effect: string;
  if (r.type === 'withdraw' && r.subType === 'REFUND') {
    t.refundWithdrawn = add(t.refundWithdrawn, r.amount);
    effect = "refund withdrawn to the customer's wallet";
  } else if (r.type === 'withdraw') {
    t.withdrawn = add(t.withdrawn, r.amount);
    effect = 'withdrawn to the account';
  } else if (r.type === 'overdraft_statement') {
    t.overdraft = add(t.overdraft, r.amount);
    effect = "overdraft charged to the merchant's account";
  } else if (r.type === 'cancel') {
    effect = 'card cancelled; balance returns to the account';
  } else {
    effect = 'deposit';
  }
  return {
    totals: t,
    entry: {
      ref: r.orderNo,
      kind: 'operation',
      type: r.subType && r.subType !== 'DEFAULT' ? `${r.type}.${r.subType}` : r.type,
      status: r.status,
      amount: r.amount,
      effect,
      at: r.transactionTime,
    },
    moved: true,
  };
}

/** Appends an entry, keeping the latest {@link KEPT_LEDGER_ENTRIES}. */
export function appendEntry(entries: CardLedgerEntry[], entry: CardLedgerEntry): CardLedgerEntry[] {
  const next = [...entries, entry];
  return next.length > KEPT_LEDGER_ENTRIES ? next.slice(next.length - KEPT_LEDGER_ENTRIES) : next;
}

/**
 * The rules of reconciliation, as pure functions the activities apply page by page and the unit
 * tests call directly: whose an order is, what its owner's state says about it, what explains a
 * ledger entry, whether an account's entries add up, and whether a balance is under its floor.
 */
import { add, cmp, sub } from '../provider/money';
import type { LedgerEntry } from '../provider/schemas/account';
import type { WalletTransaction } from '../provider/schemas/wallet';
import { nonEmpty, isFinalEvent, PROVIDER_CARD_OPERATIONS, type ProviderEventBody } from './provider-event';
import { ORDER_NO_LENGTH, ORDER_NO_PREFIX, deriveMerchantOrderNo } from './merchant-order-no';
import { ORDER_STEPS } from './workflows';
import { FINDING_KINDS, type Finding, type LedgerChain, type ReconcileConfig } from './reconciliation';
import { describeLeft } from './compensation';
import type { StrandedMoneyInput } from './stranded-money';

const CARDFLOW_ORDER_NO_RE = new RegExp(`^${ORDER_NO_PREFIX}[0-9a-f]{${ORDER_NO_LENGTH - ORDER_NO_PREFIX.length}}$`);

/**
 * True for a merchantOrderNo of cardflow's own form (`domain/merchant-order-no.ts`); others' are
 * external.
 */
export function isCardflowOrderNo(merchantOrderNo: string | null | undefined): merchantOrderNo is string {
  return typeof merchantOrderNo === 'string' && CARDFLOW_ORDER_NO_RE.test(merchantOrderNo);
}

/**
 * The step of `workflowId` that derives `merchantOrderNo` (a card entity's request steps are not
 * listed).
 */
export function orderStepOf(workflowId: string, merchantOrderNo: string): string | undefined {
  return ORDER_STEPS.find((step) => deriveMerchantOrderNo(workflowId, step) === merchantOrderNo);
}

/** One execution of the workflow that lists an order in CardflowOrderNos. */
export interface OwnerRun {
  workflowId: string;
  runId: string;
  /**
   * Temporal's execution status name: RUNNING, COMPLETED, FAILED, CANCELLED, TERMINATED, TIMED_OUT,
   * CONTINUED_AS_NEW.
   */
  status: string;
  /** When the run closed (epoch ms); absent while it runs. */
  closeTime?: number;
  /** Its CardflowCustomerRef, when set. */
  customerRef?: string;
}

/**
 * The run that speaks for an order: a running one (it may still act), else a completed one, else
 * any (a failed run resumed under the same id leaves both).
 */
export function currentOwner(runs: readonly OwnerRun[]): OwnerRun | undefined {
  return (
    runs.find((r) => r.status === 'RUNNING') ??
    runs.find((r) => r.status === 'COMPLETED' || r.status === 'CONTINUED_AS_NEW') ??
    runs[0]
  );
}

/**
 * An order as the provider records it: its event body (the webhook it would be) and when it last
 * moved.
 */
export interface ProviderOrder {
  event: ProviderEventBody;
  /**
   * Last change if the record has one (updateTime), else its time (transactionTime, createTime).
   */
  time: number;
}

/** The merchantOrderNo an order carries, if any. */
export function merchantOrderNoOf(event: ProviderEventBody): string | undefined {
  const record = event.record as { merchantOrderNo?: string | null };
  return nonEmpty(record.merchantOrderNo);
}

function statusOf(event: ProviderEventBody): string {
  const record = event.record as { status?: string; tradeStatus?: string };
  return record.tradeStatus ?? record.status ?? 'unknown';
}

function idsOf(event: ProviderEventBody): Finding['ids'] {
  const r = event.record as Partial<Record<'merchantOrderNo' | 'orderNo' | 'cardNo' | 'holderId', string | null>>;
  const ids: Finding['ids'] = {};
  for (const key of ['merchantOrderNo', 'orderNo', 'cardNo', 'holderId'] as const) {
    const value = nonEmpty(r[key]);
    if (value) ids[key] = value;
  }
  return ids;
}

function describeOrder(order: ProviderOrder): string {
  const r = order.event.record as { type?: string; tradeType?: string; amount?: string; currency?: string };
  const what = [order.event.category, r.type ?? r.tradeType].filter(Boolean).join(' ');
  const amount = r.amount && r.currency ? ` ${r.amount} ${r.currency}` : '';
  return `${what}${amount} ${statusOf(order.event)} at ${new Date(order.time).toISOString()}`;
}

const isPendingReview = (status: string) => status === 'wait_audit' || status === 'under_review';

/**
 * What to do about one provider order: a finding (or none), and whether to re-deliver its event.
 */
export interface OrderVerdict {
  finding?: Finding;
  redeliver: boolean;
  /**
   * A card's own event (an operation the provider started): delivered to the card's workflow with
   * signal-with-start; `finding` is reported only when that started the workflow (nobody followed
   * the card).
   */
  toCard?: { finding: Finding };
}

/**
 * Compares one provider order with its owner (`runs`: every execution listing its merchantOrderNo):
 * - not cardflow's key: external, nothing changed; with no key it is the provider's own (a risk
 *   cancel, an overdraft), and a final one past the event grace goes to the card's workflow;
 * - cardflow's and no workflow lists it: orphan;
 * - final, past the event grace, its owner running: the event was missed, and is re-delivered;
 * - succeeded, its owner ended otherwise than completed: outcome mismatch (money may have moved);
 * - still pending past its SLA: stuck.
 */
export function judgeOrder(
  order: ProviderOrder,
  runs: readonly OwnerRun[],
  now: number,
  config: ReconcileConfig,
): OrderVerdict {
  const merchantOrderNo = merchantOrderNoOf(order.event);
  const ids = idsOf(order.event);
  const status = statusOf(order.event);
  const review = order.event.category === 'card_holder';
  const pending = review ? isPendingReview(status) : status === 'wait_process' || status === 'processing';
  const age = now - order.time;
  const stuck = (): OrderVerdict => ({
    redeliver: false,
    finding: {
      kind: review ? FINDING_KINDS.stuckReview : FINDING_KINDS.stuckOrder,
      ids,
      detail: `${describeOrder(order)}: pending for ${Math.floor(age / 60_000)} min`,
      action: review
        ? 'ask the provider about the review; the onboarding keeps waiting until its deadline'
        : 'ask the provider why the operation is not final; its workflow keeps waiting',
    },
  });
  if (merchantOrderNo === undefined) {
    if (pending && age > (review ? config.reviewSlaMs : config.operationSlaMs)) return stuck();
    const cardNo = ids.cardNo;
    const ownCardEvent =
      order.event.category === 'card_transaction' && PROVIDER_CARD_OPERATIONS.includes(order.event.record.type);
    if (!ownCardEvent || !cardNo || pending || !isFinalEvent(order.event) || age < config.eventGraceMs)
      return { redeliver: false };
    return {
      redeliver: false,
      toCard: {
        finding: {
          kind: FINDING_KINDS.missedEvent,
          ids,
          detail: `${describeOrder(order)}, while no workflow followed card ${cardNo}`,
          action: `delivered to the card's workflow, which it started (signal-with-start, as the receiver does)`,
        },
      },
    };
  }
  if (!isCardflowOrderNo(merchantOrderNo)) {
    return {
      redeliver: false,
      finding: {
        kind: FINDING_KINDS.externalOrder,
        ids,
        detail: `${describeOrder(order)}: merchantOrderNo is not cardflow's`,
        action: 'made outside cardflow (direct API call or dashboard): confirm it was intended; nothing was changed',
      },
    };
  }
  const owner = currentOwner(runs);
  if (!owner) {
    return {
      redeliver: false,
      finding: {
        kind: FINDING_KINDS.orphanOrder,
        ids,
        detail: `${describeOrder(order)}: no workflow lists this merchantOrderNo`,
        action:
          'find who sent it (a workflow past the visibility retention, or a key reused outside cardflow); nothing was changed',
      },
    };
  }
  const withOwner = { ...ids, workflowId: owner.workflowId };
  if (isFinalEvent(order.event) && !pending) {
    if (owner.status === 'RUNNING') {
      // A rejected holder's workflow rightly waits on, for a correction: only a passed review can
      // be missed.
      if (age < config.eventGraceMs || status === 'reject') return { redeliver: false };
      return {
        redeliver: true,
        finding: {
          kind: FINDING_KINDS.missedEvent,
          ids: withOwner,
          detail: `${describeOrder(order)}, while ${owner.workflowId} still waits on it`,
          action: `re-deliver the ${order.event.category} event to ${owner.workflowId} (the signal its webhook sends)`,
        },
      };
    }
    const succeeded = status === 'success' || status === 'pass_audit';
    if (succeeded && owner.status !== 'COMPLETED' && owner.status !== 'CONTINUED_AS_NEW') {
      return {
        redeliver: false,
        finding: {
          kind: FINDING_KINDS.outcomeMismatch,
          ids: withOwner,
          detail: `${describeOrder(order)}, but ${owner.workflowId} ended ${owner.status}`,
          action: `check ${owner.workflowId}: the provider did the work; resume it (cardflow retry) or account for it by hand`,
        },
      };
    }
    return { redeliver: false };
  }
  if (pending && age > (review ? config.reviewSlaMs : config.operationSlaMs)) {
    const verdict = stuck();
    return { ...verdict, finding: { ...verdict.finding!, ids: withOwner } };
  }
  return { redeliver: false };
}

/** How a ledger entry is accounted for. */
export type LedgerExplanation = 'cardflow' | 'provider' | 'external' | 'unexplained';

/** What the provider's records say about the order a ledger entry names (its `orderNo`). */
export interface LedgerContext {
  /** The card operation of a provider orderNo, when the card records show one. */
  cardOperation(orderNo: string): { merchantOrderNo?: string | null | undefined; type: string } | undefined;
  /**
   * True when the authorization of a tradeNo is in the card records (its fees are the provider's).
   */
  authorizationKnown(tradeNo: string): boolean;
}

/** Ledger bizTypes that record a card operation by its provider orderNo. */
export const CARD_OPERATION_BIZ_TYPES = [
  'card_purchase',
  'card_deposit',
  'card_withdraw',
  'card_cancel',
  'card_overdraft_statement',
] as const;
/**
 * Ledger bizTypes of the provider's charges on an authorization (its tradeNo is the entry's
 * orderNo).
 */
export const AUTHORIZATION_BIZ_TYPES = [
  'card_auth_fee_patch',
  'card_auth_cross_board_patch',
  'card_decline_fee',
  'card_settlement',
  'card_refund',
] as const;

/**
 * Explains one ledger entry (spec: Ledger entry bizType): by a cardflow order (a card operation or
 * a transfer whose key is cardflow's), by a provider record (an authorization's fees, settlement or
 * refund; a card operation the provider made itself, such as a risk-control cancel or an overdraft
 * statement; an on-chain deposit), as external (a fixed adjustment, a global transfer, a transfer
 * or card order made outside cardflow, a withdrawal from the wallet), or as unexplained (it names
 * an order the provider's records do not show).
 */
export function explainLedgerEntry(entry: LedgerEntry, context: LedgerContext): LedgerExplanation {
  const bizType = entry.bizType;
  if ((CARD_OPERATION_BIZ_TYPES as readonly string[]).includes(bizType)) {
    const operation = context.cardOperation(entry.orderNo);
    if (!operation) return 'unexplained';
    if (isCardflowOrderNo(operation.merchantOrderNo)) return 'cardflow';
    return nonEmpty(operation.merchantOrderNo) ? 'external' : 'provider';
  }
  if ((AUTHORIZATION_BIZ_TYPES as readonly string[]).includes(bizType)) {
    return context.authorizationKnown(entry.orderNo) ? 'provider' : 'unexplained';
  }
  if (bizType === 'fund_transfer' || bizType === 'fund_collection') {
    // A cardflow transfer carries its key first in the remark (domain/fund-transfer.ts
    // transferRemark).
    const key = (entry.remark ?? '').split(' ')[0];
    return isCardflowOrderNo(key) || isCardflowOrderNo(entry.orderNo) ? 'cardflow' : 'external';
  }
  if (bizType === 'chain_deposit') return 'provider';
  return 'external';
}

/** The entry's effect on its account's total balance: IN adds, OUT subtracts. */
export function signedAmount(entry: Pick<LedgerEntry, 'amount' | 'direction'>): string {
  return entry.direction === 'IN' ? entry.amount : sub('0', entry.amount);
}

/**
 * Walks a page of one account's entries, newest first, from `chain`: each entry must add up on its
 * own (before ± amount = after) and end where the next newer one began. Returns the chain after the
 * page and a description of each break.
 */
export function walkLedger(
  entries: readonly LedgerEntry[],
  chain: LedgerChain,
): { chain: LedgerChain; breaks: { entry: LedgerEntry; problem: string }[] } {
  const breaks: { entry: LedgerEntry; problem: string }[] = [];
  let { expectedAfter, delta } = chain;
  for (const entry of entries) {
    const signed = signedAmount(entry);
    if (cmp(add(entry.beforeBalance, signed), entry.afterBalance) !== 0) {
      breaks.push({
        entry,
        problem: `before ${entry.beforeBalance} ${entry.direction} ${entry.amount} does not make after ${entry.afterBalance}`,
      });
    }
    if (cmp(entry.afterBalance, expectedAfter) !== 0) {
      breaks.push({ entry, problem: `ends at ${entry.afterBalance}, the next entry began at ${expectedAfter}` });
    }
    expectedAfter = entry.beforeBalance;
    delta = add(delta, signed);
  }
  return { chain: { expectedAfter, delta }, breaks };
}

/** One account's balance against its floor and its pending commitments. */
export function balanceFindings(
  account: { accountId: string; accountType: string; currency: string; availableBalance: string },
  floor: string | undefined,
  commitments: string | undefined,
): Finding[] {
  const findings: Finding[] = [];
  const ids = { accountId: account.accountId };
  const base = { amount: account.availableBalance, currency: account.currency };
  if (floor !== undefined && cmp(account.availableBalance, floor) < 0) {
    findings.push({
      ...base,
      kind: FINDING_KINDS.belowFloor,
      ids,
      detail: `${account.accountType} ${account.accountId} available ${account.availableBalance} ${account.currency} is below the floor ${floor}`,
      action: 'fund the account before card creations and deposits are refused',
    });
  }
  if (commitments !== undefined && cmp(commitments, '0') > 0 && cmp(account.availableBalance, commitments) < 0) {
    findings.push({
      ...base,
      kind: FINDING_KINDS.belowCommitments,
      ids,
      detail: `${account.accountType} ${account.accountId} available ${account.availableBalance} ${account.currency} is below the ${commitments} running workflows are about to spend`,
      action: 'fund the account now: running workflows will fail their balance checks',
    });
  }
  return findings;
}

/**
 * An open `strandedMoney` record: one finding per amount it names, until an operator acknowledges
 * it.
 */
export function strandedFindings(record: { workflowId: string; input: StrandedMoneyInput }): Finding[] {
  const { input } = record;
  return input.left.map((left) => ({
    kind: FINDING_KINDS.strandedMoney,
    ids: {
      workflowId: record.workflowId,
      ...(input.customerRef ? { customerRef: input.customerRef } : {}),
      ...(left.where === 'card' ? { cardNo: left.account } : { accountId: left.account }),
    },
    amount: left.amount,
    currency: left.currency,
    detail: `${input.sourceWorkflowId} (${input.reason}) left ${describeLeft(left)}`,
    action: `account for it with the customer, then: cardflow acknowledge ${record.workflowId} --by <you>`,
  }));
}

/**
 * A customer's on-chain deposit no cardflow funding took: it succeeded after every workflow
 * listing its address (`runs`) had closed, so it sits in the merchant WALLET with no workflow and
 * no `strandedMoney` record naming it. The close time decides because a funding can only take a
 * succeeded deposit, so one that succeeded after every owner closed was taken by none, and what
 * an open owner left behind its compensation already names (never reported twice). It misses a
 * deposit that succeeded before an operator's cancel ended its funding, unseen. An address no
 * workflow listed, or a running owner, gives no finding; the customer is named only when exactly
 * one funding ended without completing (docs/reconciliation.md, Limits).
 */
export function lateDepositFinding(
  deposit: Pick<
    WalletTransaction,
    | 'orderNo'
    | 'type'
    | 'status'
    | 'destinationAddress'
    | 'receivedAmount'
    | 'receivedCurrency'
    | 'coinKey'
    | 'updateTime'
  >,
  runs: readonly OwnerRun[],
  walletAccountId: string | undefined,
): Finding | undefined {
  if (deposit.type !== 'DEPOSIT' || deposit.status !== 'success' || cmp(deposit.receivedAmount, '0') <= 0) return;
  if (!runs.length || runs.some((r) => r.status === 'RUNNING' || r.closeTime === undefined)) return;
  const lastClose = Math.max(...runs.map((r) => r.closeTime!));
  if (deposit.updateTime <= lastClose) return;
  const stopped = runs.filter((r) => r.status !== 'COMPLETED' && r.status !== 'CONTINUED_AS_NEW');
  const customers = [...new Set(stopped.map((r) => r.customerRef).filter((ref): ref is string => !!ref))].sort();
  const last = runs.find((r) => r.closeTime === lastClose)!;
  const account = walletAccountId ?? `WALLET ${deposit.receivedCurrency}`;
  const theirs = customers.length === 1 ? stopped.find((r) => r.customerRef === customers[0])! : undefined;
  const whose = theirs
    ? `customer ${customers[0]}'s funding ${theirs.workflowId} ended ${theirs.status}`
    : customers.length > 1
      ? `the fundings of customers ${customers.join(', ')} ended without it`
      : 'every funding of the address had completed with an earlier deposit';
  return {
    kind: FINDING_KINDS.lateDeposit,
    ids: {
      orderNo: deposit.orderNo,
      workflowId: last.workflowId,
      ...(customers.length === 1 ? { customerRef: customers[0] } : {}),
      accountId: account,
    },
    amount: deposit.receivedAmount,
    currency: deposit.receivedCurrency,
    detail:
      `${deposit.coinKey} deposit ${deposit.orderNo} to ${deposit.destinationAddress} credited ${deposit.receivedAmount} ${deposit.receivedCurrency} ` +
      `to the merchant WALLET ${account} at ${new Date(deposit.updateTime).toISOString()}, after ${whose} ` +
      `(last at ${new Date(lastClose).toISOString()}): no workflow took it`,
    action:
      "confirm whose deposit it is (txHash, payer's address), then put it to use (cardflow retry <customerRef>: a resumed onboarding counts deposits since its first start) or refund the customer outside cardflow",
  };
}

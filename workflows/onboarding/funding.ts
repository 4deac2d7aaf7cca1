/**
 * The funding sources inside `customerOnboarding` (domain/onboarding-funding.ts): the
 * shared_account `fundTransfer` child before card creation, and the on_chain `walletFunding`
 * child after it, whose deposit address and deposit status the onboarding's progress shows.
 */
import { type FundTransferResult } from '../../domain/fund-transfer';
import type { OnboardingProgress } from '../../domain/customer-onboarding';
import type { OnChainFunding } from '../../domain/onboarding-funding';
import { type ProviderEvent, nonEmpty } from '../../domain/provider-event';
import type { WaitOverrides } from '../../domain/wait-profile';
import { matchesDeposit, type DepositMatch, type WalletFundingResult } from '../../domain/wallet-funding';
import { fundTransferWorkflow, walletFundingWorkflow } from '../../domain/workflows';
import { ranksForward } from '../../domain/event-order';
import { runChild } from '../calls/children';

export interface SharedAccountTransfer {
  customerRef: string;
  payerAccountId: string;
  /** The MARGIN account the card will be charged to. */
  accountId: string;
  amount: string;
  /** The child's step (its id under the onboarding's): `transfer`, or a later round's. */
  step: string;
  wait?: WaitOverrides | undefined;
}

/** WALLET → MARGIN (spec: /account/transfer, TRANSFER), confirmed in the ledger by the child. */
export function transferToSharedAccount(t: SharedAccountTransfer): Promise<FundTransferResult> {
  return runChild(
    fundTransferWorkflow,
    {
      type: 'TRANSFER',
      amount: t.amount,
      payerAccountId: t.payerAccountId,
      payeeAccountId: t.accountId,
      customerRef: t.customerRef,
      ...(t.wait ? { wait: t.wait } : {}),
    },
    { customerRef: t.customerRef, suffix: t.step },
  );
}

export interface OnChainChild {
  customerRef: string;
  funding: OnChainFunding;
  /** The merchant's deposit address for the coin (the child finds the same one). */
  address: string;
  cardNo: string;
  cardTypeId: string;
  wait?: WaitOverrides | undefined;
  /**
   * A resumed onboarding: deposits since this time (epoch ms) count, not only those after the child
   * starts.
   */
  depositSince?: number;
}

/**
 * `walletFunding` with a card deposit; the address is listed at start so wallet webhooks reach the
 * child at once.
 */
export function runOnChainFunding(c: OnChainChild): Promise<WalletFundingResult> {
  const { funding } = c;
  return runChild(
    walletFundingWorkflow,
    {
      coinKey: funding.coinKey,
      ...(funding.expectedAmount ? { expectedAmount: funding.expectedAmount } : {}),
      ...(funding.txHash ? { txHash: funding.txHash } : {}),
      ...(funding.deadlineMs ? { deadlineMs: funding.deadlineMs } : {}),
      cardDeposit: {
        cardNo: c.cardNo,
        cardTypeId: c.cardTypeId,
        ...(funding.depositAmount ? { amount: funding.depositAmount } : {}),
      },
      customerRef: c.customerRef,
      ...(c.wait ? { wait: c.wait } : {}),
      ...(c.depositSince === undefined ? {} : { depositSince: c.depositSince }),
    },
    { customerRef: c.customerRef, routeBy: [c.address] },
  );
}

/** A wallet deposit's statuses in the order they are reached (the final two share a rank). */
const DEPOSIT_STATUS_RANK: Readonly<Record<string, number>> = { wait_process: 0, processing: 1, success: 2, fail: 2 };

/**
 * Keeps `progress.funding.depositStatus` current from the `wallet_transaction_v2` webhooks the
 * receiver routes here by address (the onboarding lists it in CardflowOrderNos). Only this
 * customer's deposit counts (same match as walletFunding's), and the status only moves forward,
 * since deliveries are unordered (provider-notes, Webhooks).
 */
export class DepositStatusTracker {
  private match: DepositMatch | undefined;

  constructor(private readonly progress: OnboardingProgress) {}

  watch(match: DepositMatch): void {
    this.match = match;
  }

  onEvent(event: ProviderEvent): void {
    const funding = this.progress.funding;
    if (!this.match || !funding || event.category !== 'wallet_transaction_v2') return;
    const r = event.record;
    const status = r.status;
    if (DEPOSIT_STATUS_RANK[status] === undefined || !matchesDeposit(r, this.match)) return;
    if (!ranksForward(funding.depositStatus, status, (s) => DEPOSIT_STATUS_RANK[s] ?? -1)) return;
    funding.depositStatus = status;
    const orderNo = nonEmpty(r.orderNo);
    if (orderNo) funding.walletOrderNo = orderNo;
  }
}

/**
 * The undo of a WALLET → MARGIN transfer, shared by every workflow that makes one: a COLLECTION
 * (MARGIN → WALLET) of what the transfer left unspent, read at the provider (the transfer's ledger
 * entry, less what the card operations it paid for took, at most the MARGIN account's available
 * balance), never assumed. It runs as a `fundTransfer` child `<transfer step>.return`, so its
 * merchantOrderNo is its own (ORDER_STEPS.collection under that id) and a lost answer is looked
 * up in the ledger by that key, never resent, as the forward transfer's is.
 */
import { cmp } from '../../provider/money';
import type { MoneyLeft } from '../../domain/compensation';
import type { FundTransferResult } from '../../domain/fund-transfer';
import type { WaitOverrides } from '../../domain/wait-profile';
import { fundTransferWorkflow } from '../../domain/workflows';
import { runChild } from '../calls/children';
import { providerCallsFor } from '../calls/profiles';
import type { Saga, Undone } from './saga';

export interface TransferToReturn {
  /** The committed transfer. */
  moved: FundTransferResult;
  /** Its child's step (id suffix); the return is `<step>.return`. */
  step: string;
  /** The merchantOrderNos of the card operations it paid for (charged to the MARGIN account). */
  chargedBy: string[];
  customerRef?: string | undefined;
  wait?: WaitOverrides | undefined;
}

/** Registers, in `saga`, the return of what `t.moved` leaves unspent in its MARGIN account. */
export function returnUnspentTransfer(saga: Saga, t: TransferToReturn): void {
  const { moved } = t;
  const margin = moved.payee.accountId;
  const wallet = moved.payer.accountId;
  // What stays in the MARGIN account if the return fails: all the transfer brought, until read.
  let unspent = moved.amount;
  const leftInMargin = (): MoneyLeft => ({
    where: 'MARGIN',
    account: margin,
    amount: unspent,
    currency: moved.currency,
    why: `the transfer ${moved.merchantOrderNo} was not returned`,
  });
  saga.add(
    `the transfer ${moved.merchantOrderNo}`,
    async (): Promise<Undone> => {
      const left = await providerCallsFor(t.wait).unspentOfTransfer({
        // What the MARGIN account's ledger entry of the transfer says it received.
        transferred: moved.payee.amount,
        accountId: margin,
        chargedBy: t.chargedBy,
      });
      unspent = left.unspent;
      if (cmp(unspent, '0') <= 0) return {};
      const common = t.customerRef ? { customerRef: t.customerRef } : {};
      const collected = await runChild(
        fundTransferWorkflow,
        {
          type: 'COLLECTION',
          amount: unspent,
          payerAccountId: margin,
          payeeAccountId: wallet,
          ...common,
          ...(t.wait ? { wait: t.wait } : {}),
        },
        { ...common, suffix: `${t.step}.return` },
      );
      return {
        returned: {
          fromAccountId: margin,
          toAccountId: wallet,
          amount: collected.amount,
          currency: collected.currency,
          merchantOrderNo: collected.merchantOrderNo,
        },
      };
    },
    () => [leftInMargin()],
  );
}

/**
 * What a workflow that moved money did about it when it then failed for good or was cancelled:
 * the money it moved back (a COLLECTION MARGIN → WALLET, keyed by its own merchantOrderNo) and
 * what stays at the provider because the API has no way back (no card withdraw, no wallet
 * withdraw), each with where it is and why. Progress and the failure name both; reconciliation
 * reports what stays as a `stranded` finding until an operator acknowledges it.
 */
/** Money moved back by a compensation. */
export interface MoneyReturned {
  /** The account it left (the MARGIN account a transfer filled). */
  fromAccountId: string;
  /** The account it went back to (the WALLET that paid). */
  toAccountId: string;
  amount: string;
  currency: string;
  /** The compensation's own key (the fund transfer's `collection` step under its child's id). */
  merchantOrderNo: string;
}

/** Where money left at the provider is. */
export type StrandedWhere = 'card' | 'MARGIN' | 'WALLET';

/** Money a failed or cancelled workflow leaves at the provider. */
export interface MoneyLeft {
  where: StrandedWhere;
  /** The account (MARGIN, WALLET) or card (cardNo) that holds it. */
  account: string;
  amount: string;
  currency: string;
  why: string;
}

export interface CompensationOutcome {
  returned: MoneyReturned[];
  remaining: MoneyLeft[];
  /** The `strandedMoney` record of `remaining`, open until an operator acknowledges it. */
  strandedRecord?: string;
}

/** One sentence for a failure message and the CLI: what went back and what stays. */
export function describeCompensation(outcome: CompensationOutcome): string {
  const parts = [
    ...outcome.returned.map(
      (r) => `returned ${r.amount} ${r.currency} from account ${r.fromAccountId} to ${r.toAccountId}`,
    ),
    ...outcome.remaining.map((m) => `left ${describeLeft(m)}`),
  ];
  return parts.length ? parts.join('; ') : 'nothing was left to return';
}

/** Where money left at the provider is and why: `30.52 USD in MARGIN 123: …`. */
export function describeLeft(m: MoneyLeft): string {
  return `${m.amount} ${m.currency} in ${m.where} ${m.account}: ${m.why}`;
}

/**
 * `strandedMoney`: the record of money a failed or cancelled process left at the provider where
 * the API has no way back (a card's balance: no card withdraw; a WALLET credit from a customer's
 * deposit: no wallet withdraw; a return that itself failed). The process that left it starts the
 * record as a child it abandons, so the record outlives it; reconciliation reports each open
 * record as a `stranded_money` finding (customerRef, account, amount) until an operator
 * acknowledges it (`cardflow acknowledge <workflowId>`, the `acknowledgeStranded` Update), which
 * ends the record.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MoneyLeft } from './compensation';

export interface StrandedMoneyInput {
  /** The customer the money was moved for. */
  customerRef?: string;
  /** The process that left it (its workflow id). */
  sourceWorkflowId: string;
  /** Why that process stopped (its failure, or an operator's cancel). */
  reason: string;
  left: MoneyLeft[];
}

export interface Acknowledgement {
  /** Who acknowledged it (an operator's name or ticket, free text). */
  by: string;
  /** What was done about the money, if anything. */
  note?: string;
}

export interface StrandedMoneyStatus {
  stage: 'unacknowledged' | 'acknowledged';
  left: MoneyLeft[];
  acknowledged?: Acknowledgement & { at: number };
}

export type StrandedMoneyResult = StrandedMoneyStatus;

export const strandedStatusQuery = defineQuery<StrandedMoneyStatus>('strandedStatus');

/** Ends the record: an operator has seen where the money is and taken it from here. */
export const acknowledgeStrandedUpdate = defineUpdate<StrandedMoneyStatus, [Acknowledgement]>('acknowledgeStranded');

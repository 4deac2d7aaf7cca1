/**
 * Money a failed or cancelled process left at the provider (domain/stranded-money.ts): an
 * operator reads the open records (reconciliation's `stranded_money` findings name them) and
 * acknowledges one once the money is accounted for, which ends the record and the finding.
 */
import type { Client } from '@temporalio/client';
import { describeLeft } from '../domain/compensation';
import {
  acknowledgeStrandedUpdate,
  strandedStatusQuery,
  type Acknowledgement,
  type StrandedMoneyStatus,
} from '../domain/stranded-money';

/** What a `strandedMoney` record names and whether it was acknowledged. */
export function getStrandedStatus(client: Client, workflowId: string): Promise<StrandedMoneyStatus> {
  return client.workflow.getHandle(workflowId).query(strandedStatusQuery);
}

/**
 * Acknowledges the record `workflowId` (an operator has seen where the money is): the record ends,
 * and reconciliation stops reporting it. Acknowledging it again is refused by Temporal (it ended).
 */
export function acknowledgeStranded(
  client: Client,
  workflowId: string,
  ack: Acknowledgement,
): Promise<StrandedMoneyStatus> {
  return client.workflow.getHandle(workflowId).executeUpdate(acknowledgeStrandedUpdate, { args: [ack] });
}

/** One line: whether the record is open, and what it names. */
export function describeStranded(status: StrandedMoneyStatus): string {
  const left = status.left.map(describeLeft).join('; ');
  return status.stage === 'acknowledged'
    ? `acknowledged by ${status.acknowledged?.by ?? '?'}${status.acknowledged?.note ? ` (${status.acknowledged.note})` : ''}: ${left}`
    : `unacknowledged: ${left}`;
}

/**
 * `strandedMoney` (domain/stranded-money.ts): holds the record of money left at the provider open
 * until an operator acknowledges it. It sends nothing to the provider and makes no command but
 * its end, so it replays under every build (it is AUTO_UPGRADE: a record may stay open longer
 * than a build lives).
 */
import { condition, setHandler } from '@temporalio/workflow';
import { FailureTypes } from '../domain/failure-types';
import { nonRetryable } from '../domain/failures';
import {
  acknowledgeStrandedUpdate,
  strandedStatusQuery,
  type StrandedMoneyInput,
  type StrandedMoneyResult,
  type StrandedMoneyStatus,
} from '../domain/stranded-money';

export async function strandedMoney(input: StrandedMoneyInput): Promise<StrandedMoneyResult> {
  const status: StrandedMoneyStatus = { stage: 'unacknowledged', left: input.left };
  setHandler(strandedStatusQuery, () => status);
  setHandler(
    acknowledgeStrandedUpdate,
    (ack) => {
      status.stage = 'acknowledged';
      status.acknowledged = { by: ack.by, ...(ack.note ? { note: ack.note } : {}), at: Date.now() };
      return status;
    },
    {
      validator: (ack) => {
        if (typeof ack?.by !== 'string' || ack.by.trim() === '')
          throw nonRetryable(
            FailureTypes.invalidInput,
            'by: is required (who acknowledges the money left at the provider)',
          );
      },
    },
  );
  await condition(() => status.stage === 'acknowledged');
  return status;
}

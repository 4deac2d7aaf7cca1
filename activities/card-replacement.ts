/**
 * What a reissue asks of the card it replaces (domain/card-reissue.ts): its freeze, through the
 * old card's own workflow (ActivityDeps.cardEntities), so the freeze takes its turn among that
 * card's requests and its merchantOrderNo, derived from the requestId, is sent once.
 */
import type { ReplacedCardOutcome } from '../domain/card-reissue';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { FailureTypes } from '../domain/failure-types';
import { nonRetryable } from '../domain/failures';

export function createCardReplacementActivities(deps: ActivityDeps) {
  return convertingFailures({
    /** Freezes the replaced card `cardNo` (request `requestId`); what became of it. */
    async freezeReplacedCard(input: { cardNo: string; requestId: string }): Promise<ReplacedCardOutcome> {
      // The worker always gives the port; only a hand-built set of activities lacks it.
      if (!deps.cardEntities)
        throw nonRetryable(
          FailureTypes.unexpected,
          'this worker reaches no card workflows (ActivityDeps.cardEntities)',
        );
      return deps.cardEntities.freeze(input.cardNo, input.requestId);
    },
  });
}

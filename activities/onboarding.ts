/**
 * One read at the start of an onboarding: the card type and the paying account's balance,
 * in a single activity (one billable action), so every rule and the affordability can be
 * checked before anything is sent.
 */
import { cancellationSignal } from '@temporalio/activity';
import type { CardType } from '../provider/schemas/card-type';
import { FailureTypes } from '../domain/failure-types';
import { createAccountHelpers } from './accounts';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { nonRetryable } from '../domain/failures';
import { notificationPlanOf } from './notifications';
import type { NotificationPlan } from '../domain/notifications';
import type { TransferAccount } from './types';

export function createOnboardingActivities(deps: ActivityDeps) {
  const { findAccount } = createAccountHelpers(deps);
  return convertingFailures({
    /**
     * The card type, and the account that will pay (accountId, or the WALLET in the card's
     * currency); with the worker's notification plan, so telling the onboarding costs no action.
     */
    async prepareOnboarding(input: {
      cardTypeId: string;
      accountId?: string;
    }): Promise<{ cardType: CardType; account: TransferAccount; notifications?: NotificationPlan }> {
      const types = await deps.provider.listCardTypes({}, { signal: cancellationSignal() });
      const cardType = types.find((t) => t.cardTypeId === input.cardTypeId);
      if (!cardType)
        throw nonRetryable(FailureTypes.cardTypeNotFound, `cardTypeId: card type ${input.cardTypeId} does not exist`);
      const account = await findAccount(input.accountId, cardType.rechargeCurrency);
      return { cardType, account, ...notificationPlanOf(deps) };
    },
  });
}

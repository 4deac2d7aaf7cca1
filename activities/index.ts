/**
 * `createActivities(deps)`: one activity per provider mutation or lookup the workflows need.
 * The worker builds the dependencies once; workflows see only the types
 * (`proxyActivities<CardflowActivities>`).
 */
import { createAccountActivities } from './accounts';
import { createCardActivities } from './cards';
import { createCardholderActivities } from './cardholders';
import type { ActivityDeps } from './deps';
import { createLifecycleActivities } from './lifecycle';
import { createOnboardingActivities } from './onboarding';

export type { ActivityDeps, ActivityLogger, ProviderPort } from './deps';
export type * from './types';
export type * from './lifecycle';

export function createActivities(deps: ActivityDeps) {
  return {
    ...createCardActivities(deps),
    ...createCardholderActivities(deps),
    ...createAccountActivities(deps),
    ...createOnboardingActivities(deps),
    ...createLifecycleActivities(deps),
  };
}

export type CardflowActivities = ReturnType<typeof createActivities>;

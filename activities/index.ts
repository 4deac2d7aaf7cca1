/**
 * `createActivities(deps)`: one activity per provider mutation or lookup the workflows need.
 * The worker builds the dependencies once; workflows see only the types
 * (`proxyActivities<CardflowActivities>`).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { createAccountActivities } from './accounts';
import type { createActivationActivities } from './activation';
import type { createCardOperationActivities } from './card-operations';
import type { createCardRecordActivities } from './card-records';
import type { createCardReplacementActivities } from './card-replacement';
import type { createCardActivities } from './cards';
import type { createCardholderActivities } from './cardholders';
import type { ActivityDeps } from './deps';
import { pulsing } from './heartbeats';
import type { createNotificationActivities } from './notifications';
import type { createOnboardingActivities } from './onboarding';
import type { createReconciliationActivities } from './reconciliation';
import type { createReferenceDataActivities } from './reference-data';
import type { createTransferActivities } from './transfers';
import type { createWalletActivities } from './wallet';
import type { createWorkOrderActivities } from './work-orders';

export type { ActivityDeps, ActivityLogger, ProviderPort } from './deps';
export type * from './types';
export type { ActivationCodeRef, ActivationOutcome } from './activation';
export type { CardStatusView } from './card-operations';
export type { CancelReturn, CardRecordsSince } from './card-records';
export type { TransferAccounts, UnspentTransfer } from './transfers';
export type { DepositAddress, WalletDeposit } from './wallet';
export type { ReconcileStep, ReconcileWindow } from './reconciliation';
export type { ReconcilePort } from './reconciliation/temporal-port';
export type { WorkOrderState } from './work-orders';
export type { NotificationDeps, ThreeDsRelayOutcome } from './notifications';

/** A module's activities, made from the worker's dependencies. */
type ActivityFactory = (deps: ActivityDeps) => Record<string, (...args: never[]) => Promise<unknown>>;

/** The name an activity module gives its factory, so the worker finds it without a list. */
export const ACTIVITY_FACTORY_NAME = /^create\w+Activities$/;

/**
 * The factory of every module of this folder (a file, or a folder's index) that exports one under
 * {@link ACTIVITY_FACTORY_NAME}: a new activity module is registered by being here.
 */
export function activityFactories(): ReadonlyMap<string, ActivityFactory> {
  const found = new Map<string, ActivityFactory>();
  for (const entry of readdirSync(__dirname, { withFileTypes: true })) {
    const name = entry.isDirectory() ? entry.name : /^(?!index\.)([\w-]+)\.(?:ts|js)$/.exec(entry.name)?.[1];
    if (!name || entry.name.endsWith('.d.ts')) continue;
    // Loaded by name, as the folder holds it: the source under ts-jest, the compiled file in dist/.
    const loaded = module.require(join(__dirname, name)) as Record<string, unknown>;
    for (const [exported, value] of Object.entries(loaded))
      if (ACTIVITY_FACTORY_NAME.test(exported) && typeof value === 'function')
        found.set(exported, value as ActivityFactory);
  }
  return found;
}

/**
 * Every activity heartbeats while it runs when its options give a heartbeat timeout
 * (activities/heartbeats.ts).
 */
export function createActivities(deps: ActivityDeps): CardflowActivities {
  // No two factories name one activity (test/unit/activities/activity-factories.test.ts).
  const made = [...activityFactories().values()].map((create) => create(deps));
  return pulsing(
    Object.assign({}, ...made) as Record<string, (...args: never[]) => Promise<unknown>>,
  ) as CardflowActivities;
}

/**
 * The activities the workflows proxy by this name; a workflow whose activities live in a module
 * of their own proxies that module's factory type instead, so its module needs no line here.
 */
export type CardflowActivities = ReturnType<typeof createCardActivities> &
  ReturnType<typeof createCardholderActivities> &
  ReturnType<typeof createAccountActivities> &
  ReturnType<typeof createOnboardingActivities> &
  ReturnType<typeof createActivationActivities> &
  ReturnType<typeof createWorkOrderActivities> &
  ReturnType<typeof createCardOperationActivities> &
  ReturnType<typeof createCardRecordActivities> &
  ReturnType<typeof createCardReplacementActivities> &
  ReturnType<typeof createTransferActivities> &
  ReturnType<typeof createWalletActivities> &
  ReturnType<typeof createReconciliationActivities> &
  ReturnType<typeof createNotificationActivities> &
  ReturnType<typeof createReferenceDataActivities>;

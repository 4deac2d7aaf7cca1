/**
 * `createActivities(deps)`: one activity per provider mutation or lookup the workflows need.
 * The worker builds the dependencies once; workflows see only the types
 * (`proxyActivities<CardflowActivities>`).
 */
import { createAccountActivities } from './accounts';
import { createActivationActivities } from './activation';
import { createCardOperationActivities } from './card-operations';
import { createCardRecordActivities } from './card-records';
import { createCardReplacementActivities } from './card-replacement';
import { createCardActivities } from './cards';
import { createCardholderActivities } from './cardholders';
import type { ActivityDeps } from './deps';
import { pulsing } from './heartbeats';
import { createNotificationActivities } from './notifications';
import { createOnboardingActivities } from './onboarding';
import { createReconciliationActivities } from './reconciliation';
import { createReferenceDataActivities } from './reference-data';
import { createTransferActivities } from './transfers';
import { createWalletActivities } from './wallet';
import { createWorkOrderActivities } from './work-orders';

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

/**
 * Every activity heartbeats while it runs when its options give a heartbeat timeout
 * (activities/heartbeats.ts).
 */
export function createActivities(deps: ActivityDeps) {
  return pulsing({
    ...createCardActivities(deps),
    ...createCardholderActivities(deps),
    ...createAccountActivities(deps),
    ...createOnboardingActivities(deps),
    ...createActivationActivities(deps),
    ...createWorkOrderActivities(deps),
    ...createCardOperationActivities(deps),
    ...createCardRecordActivities(deps),
    ...createCardReplacementActivities(deps),
    ...createTransferActivities(deps),
    ...createWalletActivities(deps),
    ...createReconciliationActivities(deps),
    ...createNotificationActivities(deps),
    ...createReferenceDataActivities(deps),
  });
}

export type CardflowActivities = ReturnType<typeof createActivities>;

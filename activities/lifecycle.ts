/** The card lifecycle activities (issue #5), merged into `createActivities` (index.ts). */
import { createActivationActivities } from './activation';
import { createCardOperationActivities } from './card-operations';
import type { ActivityDeps } from './deps';
import { createTransferActivities } from './transfers';
import { createWalletActivities } from './wallet';
import { createWorkOrderActivities } from './work-orders';

export type { ActivationCodeRef, ActivationOutcome } from './activation';
export type { CardStatusView } from './card-operations';
export type { TransferAccounts } from './transfers';
export type { DepositAddress, WalletDeposit } from './wallet';
export type { WorkOrderState } from './work-orders';

export function createLifecycleActivities(deps: ActivityDeps) {
  return {
    ...createActivationActivities(deps),
    ...createWorkOrderActivities(deps),
    ...createCardOperationActivities(deps),
    ...createTransferActivities(deps),
    ...createWalletActivities(deps),
  };
}

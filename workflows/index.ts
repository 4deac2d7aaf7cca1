/** The workflows the cardflow worker registers; their names are `WorkflowTypes` in domain/workflow-types.ts. */
import { setWorkflowOptions, workflowInfo } from '@temporalio/workflow';
import { WORKFLOW_VERSIONING } from '../domain/workflow-versioning';
import type { WorkflowType } from '../domain/workflow-types';
import { customerOnboarding } from './customer-onboarding';
import { cardholderOnboarding } from './cardholder-onboarding';
import { cardIssuance } from './card-issuance';
import { cardDeposit } from './card-deposit';
import { physicalCardActivation } from './physical-card-activation';
import { fundTransfer } from './fund-transfer';
import { sharedAccount } from './shared-account';
import { walletFunding } from './wallet-funding';
import { cardFreeze, cardUnfreeze, cardPinUpdate } from './card-operations';
import { cardEntity } from './card-entity';
import { reconciliation } from './reconciliation';

export {
  customerOnboarding,
  cardholderOnboarding,
  cardIssuance,
  cardDeposit,
  // Card lifecycle.
  physicalCardActivation,
  fundTransfer,
  sharedAccount,
  walletFunding,
  cardFreeze,
  cardUnfreeze,
  cardPinUpdate,
  cardEntity,
  reconciliation,
};

/**
 * Every registered workflow by its type, so each carries its versioning behavior
 * (domain/workflow-versioning.ts). Declared only on a versioned worker: the server refuses a
 * behavior from a worker that polls unversioned (tests, the move from unversioned workers). The
 * version is the one in history for a replayed run, so a run keeps the answer its first task gave.
 */
const registered: Record<WorkflowType, (...args: never[]) => Promise<unknown>> = {
  customerOnboarding,
  cardholderOnboarding,
  cardIssuance,
  cardDeposit,
  physicalCardActivation,
  fundTransfer,
  sharedAccount,
  walletFunding,
  cardFreeze,
  cardUnfreeze,
  cardPinUpdate,
  cardEntity,
  reconciliation,
};
for (const [type, fn] of Object.entries(registered) as [WorkflowType, (...args: never[]) => Promise<unknown>][])
  setWorkflowOptions(
    () =>
      workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior: WORKFLOW_VERSIONING[type] } : {},
    fn,
  );

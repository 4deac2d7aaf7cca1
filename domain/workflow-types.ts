/**
 * Workflow type names, as the client starts them and the worker registers them (the exported
 * function names in `workflows/registered.ts`). Flow names are the values of the CardflowFlow search
 * attribute, so operators can list one kind of process.
 */
export const WorkflowTypes = {
  customerOnboarding: 'customerOnboarding',
  cardholderOnboarding: 'cardholderOnboarding',
  cardIssuance: 'cardIssuance',
  cardDeposit: 'cardDeposit',
  // Card lifecycle.
  physicalCardActivation: 'physicalCardActivation',
  fundTransfer: 'fundTransfer',
  sharedAccount: 'sharedAccount',
  walletFunding: 'walletFunding',
  cardFreeze: 'cardFreeze',
  cardUnfreeze: 'cardUnfreeze',
  cardPinUpdate: 'cardPinUpdate',
  cardEntity: 'cardEntity',
  reconciliation: 'reconciliation',
} as const;
export type WorkflowType = (typeof WorkflowTypes)[keyof typeof WorkflowTypes];

/** CardflowFlow values. */
export const Flows = {
  onboarding: 'onboarding',
  cardholder: 'cardholder',
  cardIssuance: 'card_issuance',
  cardDeposit: 'card_deposit',
  // Card lifecycle.
  cardActivation: 'card_activation',
  fundTransfer: 'fund_transfer',
  sharedAccount: 'shared_account',
  walletFunding: 'wallet_funding',
  cardOperation: 'card_operation',
  cardEntity: 'card_entity',
  reconciliation: 'reconciliation',
} as const;
export type Flow = (typeof Flows)[keyof typeof Flows];

/** A card's balance as the provider reports it (balanceInfo.amount is the available balance). */
export interface BalanceSummary {
  amount: string;
  currency: string;
}

/** Why a process failed, as a progress query reports it. */
export interface FailureSummary {
  /** An `ApplicationFailure.type` (domain/failure-types.ts or api/errors.ts). */
  type: string;
  message: string;
  /** Whether resuming can succeed once the cause is gone (domain/failure-types.ts `isResumable`). */
  retryable?: boolean;
}

/**
 * The workflows the cardflow worker registers, by type; their names are `WorkflowTypes`
 * (domain/workflows.ts).
 */
export { customerOnboarding } from './customer-onboarding';
export { cardholderOnboarding } from './cardholder-onboarding';
export { cardIssuance } from './card-issuance';
export { cardDeposit } from './card-deposit';
// Card lifecycle.
export { physicalCardActivation } from './physical-card-activation';
export { fundTransfer } from './fund-transfer';
export { sharedAccount } from './shared-account';
export { walletFunding } from './wallet-funding';
export { cardFreeze, cardUnfreeze, cardPinUpdate } from './card-operations';
export { cardEntity } from './card-entity';
export { cardReissue } from './card-reissue';
export { reconciliation } from './reconciliation';
export { strandedMoney } from './stranded-money';
export { referenceRefresh } from './reference-refresh';

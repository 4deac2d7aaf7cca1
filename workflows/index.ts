/** The workflows the cardflow worker registers; their names are `WorkflowTypes` in domain/workflow-types.ts. */
export { customerOnboarding } from './customer-onboarding';
export { cardholderOnboarding } from './cardholder-onboarding';
export { cardIssuance } from './card-issuance';
export { cardDeposit } from './card-deposit';

/** CardflowFlow values: the search attribute operators filter on to list one kind of process. */
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
  strandedMoney: 'stranded_money',
} as const;
export type Flow = (typeof Flows)[keyof typeof Flows];

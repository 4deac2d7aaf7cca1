/**
 * One definition per cardflow workflow (shape: domain/workflow-definition.ts). Everything outside
 * a workflow's function reads its facts from here: the worker's registration and versioning
 * (workflows/registry.ts), the `WorkflowTypes` names, a parent's child ids, keys and start
 * attributes (workflows/calls/children.ts), the client's start, handle, status and result
 * functions (client/definitions.ts) and the status table (client/workflow-status.ts).
 *
 * Registering a workflow is its line in {@link WORKFLOWS}, and its module in
 * {@link WORKFLOW_MODULES}; a new one is best defined in its own module, beside its schemas. The
 * worker finds its function by the type's name; nothing else lists it.
 */
import { cardDepositStatusQuery, type CardDepositInput, type CardDepositResult } from './card-deposit';
import * as cardEntity from './card-entity';
import { cardIssuanceStatusQuery, type CardIssuanceInput, type CardIssuanceResult } from './card-issuance';
import { cardReissueStatusQuery, type CardReissueInput, type CardReissueResult } from './card-reissue';
import * as cardOperations from './card-operations';
import {
  cardholderStatusQuery,
  type CardholderOnboardingInput,
  type CardholderOnboardingResult,
} from './cardholder-onboarding';
import * as customerOnboarding from './customer-onboarding';
import * as fundTransfer from './fund-transfer';
import * as physicalCardActivation from './physical-card-activation';
import { reconcileReportQuery, reconcileWorkflowId, type ReconcileInput, type ReconcileReport } from './reconciliation';
import * as sharedAccount from './shared-account';
import * as walletFunding from './wallet-funding';
import * as referenceRefresh from './reference-refresh';
import { strandedStatusQuery, type StrandedMoneyInput, type StrandedMoneyResult } from './stranded-money';
import { defineWorkflow, type Spending } from './workflow-definition';
import {
  activationWorkflowId,
  cardEntityWorkflowId,
  cardOperationWorkflowId,
  cardReissueWorkflowId,
  fundingWorkflowId,
  onboardingWorkflowId,
  sharedAccountWorkflowId,
  transferWorkflowId,
  type ChildStep,
} from './workflow-ids';

/** A definition whose workflow derives no merchantOrderNo of its own. */
const none = Object.freeze({});

/** A card's initial deposit from the account it charges, when it has one. */
function initialDepositOf(
  input: { initialDeposit?: string; accountId?: string },
  throughChild?: ChildStep,
): Spending | undefined {
  if (input.initialDeposit === undefined) return undefined;
  return { amount: input.initialDeposit, accountId: input.accountId, ...(throughChild ? { throughChild } : {}) };
}

export const customerOnboardingWorkflow = defineWorkflow<
  customerOnboarding.OnboardingInput,
  customerOnboarding.OnboardingResult
>()({
  type: 'customerOnboarding',
  flow: 'onboarding',
  versioning: 'PINNED',
  id: onboardingWorkflowId,
  orderSteps: none,
  statusQuery: customerOnboarding.progressQuery,
  // Its initial deposit, through its card child once that has started.
  spends: (input) => initialDepositOf(input, 'card'),
});

export const cardholderOnboardingWorkflow = defineWorkflow<CardholderOnboardingInput, CardholderOnboardingResult>()({
  type: 'cardholderOnboarding',
  flow: 'cardholder',
  versioning: 'PINNED',
  childStep: 'cardholder',
  orderSteps: { create: 'cardholder.create' },
  routedAtStart: (keys: { create: string }) => [keys.create],
  statusQuery: cardholderStatusQuery,
});

export const cardIssuanceWorkflow = defineWorkflow<CardIssuanceInput, CardIssuanceResult>()({
  type: 'cardIssuance',
  flow: 'card_issuance',
  versioning: 'PINNED',
  childStep: 'card',
  // budgetTopUp: BUDGET_CARD mode's fund transfer that tops up the charged account before card
  // creation.
  orderSteps: { create: 'card.create', budgetTopUp: 'card.budget-topup' },
  // The budget top-up is added by the child itself, only in the mode that sends it.
  routedAtStart: (keys: { create: string }) => [keys.create],
  statusQuery: cardIssuanceStatusQuery,
  spends: (input) => initialDepositOf(input),
});

export const cardDepositWorkflow = defineWorkflow<CardDepositInput, CardDepositResult>()({
  type: 'cardDeposit',
  flow: 'card_deposit',
  versioning: 'PINNED',
  childStep: 'deposit',
  orderSteps: { deposit: 'card.deposit' },
  routedAtStart: (keys: { deposit: string }) => [keys.deposit],
  statusQuery: cardDepositStatusQuery,
  spends: (input) => ({ amount: input.amount, accountId: input.accountId }),
});

export const physicalCardActivationWorkflow = defineWorkflow<
  physicalCardActivation.PhysicalCardActivationInput,
  physicalCardActivation.PhysicalCardActivationResult
>()({
  type: 'physicalCardActivation',
  flow: 'card_activation',
  versioning: 'PINNED',
  id: activationWorkflowId,
  request: {
    schema: physicalCardActivation.ActivationRequestSchema,
    what: 'activation request',
    key: 'cardNo',
    keyInInput: true,
    prepared: true,
  },
  childStep: 'activation',
  orderSteps: { activate: 'card.activate', workOrder: 'card.activate.work-order' },
  // Only the route the input takes sends its key.
  routedAtStart: (
    keys: { activate: string; workOrder: string },
    input: Pick<physicalCardActivation.PhysicalCardActivationInput, 'route'>,
  ) => [input.route === 'activation_code' ? keys.activate : keys.workOrder],
  statusQuery: physicalCardActivation.activationStatusQuery,
});

export const fundTransferWorkflow = defineWorkflow<fundTransfer.FundTransferInput, fundTransfer.FundTransferResult>()({
  type: 'fundTransfer',
  flow: 'fund_transfer',
  versioning: 'PINNED',
  id: transferWorkflowId,
  request: {
    schema: fundTransfer.TransferRequestSchema,
    what: 'transfer request',
    key: 'transferRef',
    keyInInput: false,
    command: {
      name: 'transfer',
      example: 'transfer.json',
      summary: 'move funds WALLET -> MARGIN (TRANSFER) or back (COLLECTION), idempotent by transferRef',
    },
  },
  childStep: 'transfer',
  // collection: a COLLECTION (MARGIN → WALLET), such as the compensation that returns what a
  // transfer left unspent.
  orderSteps: { transfer: 'account.transfer', collection: 'account.collection' },
  // A COLLECTION sends its own step's key (workflows/fund-transfer.ts).
  routedAtStart: (
    keys: { transfer: string; collection: string },
    input: Pick<fundTransfer.FundTransferInput, 'type'>,
  ) => [input.type === 'COLLECTION' ? keys.collection : keys.transfer],
  statusQuery: fundTransfer.transferStatusQuery,
  spends: (input) => ({ amount: input.amount, accountId: input.payerAccountId }),
});

export const sharedAccountWorkflow = defineWorkflow<
  sharedAccount.SharedAccountInput,
  sharedAccount.SharedAccountResult
>()({
  type: 'sharedAccount',
  flow: 'shared_account',
  versioning: 'PINNED',
  id: sharedAccountWorkflowId,
  request: {
    schema: sharedAccount.SharedAccountRequestSchema,
    what: 'shared account request',
    key: 'accountName',
    keyInInput: true,
    command: {
      name: 'shared-account',
      example: 'shared-account.json',
      summary: 'create (or find) a shared MARGIN account by name',
    },
  },
  orderSteps: none,
  statusQuery: sharedAccount.sharedAccountStatusQuery,
});

export const walletFundingWorkflow = defineWorkflow<
  walletFunding.WalletFundingInput,
  walletFunding.WalletFundingResult
>()({
  type: 'walletFunding',
  flow: 'wallet_funding',
  versioning: 'PINNED',
  id: fundingWorkflowId,
  request: {
    schema: walletFunding.FundingRequestSchema,
    what: 'wallet funding request',
    key: 'fundingRef',
    keyInInput: false,
  },
  childStep: 'funding',
  // Its mutations are its children's; the deposit address a parent knows is routed at start
  // (StartContext.routeBy).
  orderSteps: none,
  statusQuery: walletFunding.fundingStatusQuery,
});

/** The reference of a standalone card operation: the card and the caller's request key. */
export interface CardOperationRef {
  cardNo: string;
  requestRef: string;
}

/** The step of each standalone card operation's one mutation. */
const CARD_OPERATION_STEPS = {
  freeze: 'card.freeze',
  unfreeze: 'card.unfreeze',
  updatePin: 'card.update-pin',
} as const satisfies Record<cardOperations.CardOperationKind, string>;

function cardOperationWorkflow<T extends string>(type: T, kind: cardOperations.CardOperationKind) {
  return defineWorkflow<cardOperations.CardOperationInput, cardOperations.CardOperationOutcome>()({
    type,
    flow: 'card_operation',
    versioning: 'PINNED',
    kind,
    id: (ref: CardOperationRef) => cardOperationWorkflowId(kind, ref.cardNo, ref.requestRef),
    orderSteps: { operation: CARD_OPERATION_STEPS[kind] },
    routedAtStart: (keys: { operation: string }) => [keys.operation],
    statusQuery: cardOperations.cardOperationStatusQuery,
  });
}

export const cardFreezeWorkflow = cardOperationWorkflow('cardFreeze', 'freeze');
export const cardUnfreezeWorkflow = cardOperationWorkflow('cardUnfreeze', 'unfreeze');
export const cardPinUpdateWorkflow = cardOperationWorkflow('cardPinUpdate', 'updatePin');

/** The definition of the standalone operation `kind`. */
export const cardOperationWorkflows = {
  freeze: cardFreezeWorkflow,
  unfreeze: cardUnfreezeWorkflow,
  updatePin: cardPinUpdateWorkflow,
} as const satisfies Record<cardOperations.CardOperationKind, unknown>;

export const cardEntityWorkflow = defineWorkflow<cardEntity.CardEntityInput, cardEntity.CardEntityResult>()({
  type: 'cardEntity',
  flow: 'card_entity',
  // Lives as long as its card (years): it follows the current build and changes with patches.
  versioning: 'AUTO_UPGRADE',
  id: cardEntityWorkflowId,
  // Its keys are per request (domain/merchant-order-no.ts `entityOrderStep`), not per workflow.
  orderSteps: none,
  statusQuery: cardEntity.cardSnapshotQuery,
});

export const cardReissueWorkflow = defineWorkflow<CardReissueInput, CardReissueResult>()({
  type: 'cardReissue',
  flow: 'card_reissue',
  // Ends once the new card is active (weeks for a physical card): its build's workers wait for it.
  versioning: 'PINNED',
  id: cardReissueWorkflowId,
  // Its mutations are its children's (the card, its activation) and the old card's own workflow's.
  orderSteps: none,
  statusQuery: cardReissueStatusQuery,
  spends: (input) => initialDepositOf(input, 'card'),
});

export const reconciliationWorkflow = defineWorkflow<ReconcileInput, ReconcileReport>()({
  type: 'reconciliation',
  flow: 'reconciliation',
  versioning: 'PINNED',
  id: reconcileWorkflowId,
  orderSteps: none,
  statusQuery: reconcileReportQuery,
});

export const strandedMoneyWorkflow = defineWorkflow<StrandedMoneyInput, StrandedMoneyResult>()({
  type: 'strandedMoney',
  flow: 'stranded_money',
  // Open until an operator acknowledges it, which may outlast a build: it follows the current one.
  versioning: 'AUTO_UPGRADE',
  // One per run that left money: `<parentId>/stranded.<runId>` (workflows/compensation/saga.ts).
  childStep: 'stranded',
  orderSteps: none,
  statusQuery: strandedStatusQuery,
});

export const referenceRefreshWorkflow = defineWorkflow<
  referenceRefresh.ReferenceRefreshInput,
  referenceRefresh.ReferenceRefreshResult
>()({
  type: 'referenceRefresh',
  flow: 'reference_refresh',
  // One activity, seconds long: a run ends under the build that started it.
  versioning: 'PINNED',
  orderSteps: none,
  // No status query: while it runs, `cardflow status` prints the run's state.
  describe: {
    result: (r) =>
      `reference data refreshed: ${Object.entries(r.lists)
        .map(([list, n]) => `${list} ${n}`)
        .join(', ')}`,
  },
});

/**
 * Every workflow the cardflow worker registers, by its type: the function of that name exported by
 * a top-level module of workflows/ (workflows/registry.ts).
 */
export const WORKFLOWS = {
  customerOnboarding: customerOnboardingWorkflow,
  cardholderOnboarding: cardholderOnboardingWorkflow,
  cardIssuance: cardIssuanceWorkflow,
  cardDeposit: cardDepositWorkflow,
  physicalCardActivation: physicalCardActivationWorkflow,
  fundTransfer: fundTransferWorkflow,
  sharedAccount: sharedAccountWorkflow,
  walletFunding: walletFundingWorkflow,
  cardFreeze: cardFreezeWorkflow,
  cardUnfreeze: cardUnfreezeWorkflow,
  cardPinUpdate: cardPinUpdateWorkflow,
  cardEntity: cardEntityWorkflow,
  cardReissue: cardReissueWorkflow,
  reconciliation: reconciliationWorkflow,
  strandedMoney: strandedMoneyWorkflow,
  referenceRefresh: referenceRefreshWorkflow,
} as const;

/**
 * The module of each registered workflow's own facts (input, request, status, schemas), imported
 * whole: the worker settles and shares every schema they export
 * (workflows/preload/shared-schemas.ts),
 * so a workflow defined beside its schemas is preloaded by being registered here.
 */
export const WORKFLOW_MODULES: readonly object[] = [
  customerOnboarding,
  cardOperations,
  cardEntity,
  fundTransfer,
  physicalCardActivation,
  sharedAccount,
  walletFunding,
  referenceRefresh,
];

/** A registered workflow's type name. */
export type WorkflowType = keyof typeof WORKFLOWS;

/** The type names, by name (`WorkflowTypes.fundTransfer === 'fundTransfer'`). */
export const WorkflowTypes = Object.fromEntries(Object.keys(WORKFLOWS).map((type) => [type, type])) as {
  readonly [T in WorkflowType]: T;
};

/** A CardflowFlow value: the search attribute operators filter on to list one kind of process. */
export type Flow = (typeof WORKFLOWS)[WorkflowType]['flow'];

/** Every flow, once each, in the order of the definitions. */
export const FLOWS: readonly Flow[] = [...new Set(Object.values(WORKFLOWS).map((definition) => definition.flow))];

/**
 * Every step that sends a merchantOrderNo (each workflow's `orderSteps`), so a key can be traced
 * back to its step (domain/reconciliation-rules.ts); a card entity's are per request
 * (domain/merchant-order-no.ts `entityOrderStep`).
 */
export const ORDER_STEPS: readonly string[] = Object.values(WORKFLOWS).flatMap((definition) =>
  Object.values(definition.orderSteps),
);

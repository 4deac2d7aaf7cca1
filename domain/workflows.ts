/**
 * One definition per cardflow workflow (shape: domain/workflow-definition.ts). Everything outside
 * a workflow's function reads its facts from here: the worker's registration and versioning
 * (workflows/index.ts), the `WorkflowTypes` names, a parent's child ids, keys and start attributes
 * (workflows/support/children.ts), the client's start, handle, status and result functions
 * (client/definitions.ts) and the status table (client/workflow-status.ts).
 */
import { cardDepositStatusQuery, type CardDepositInput, type CardDepositResult } from './card-deposit';
import { cardSnapshotQuery, type CardEntityInput, type CardEntityResult } from './card-entity';
import { cardIssuanceStatusQuery, type CardIssuanceInput, type CardIssuanceResult } from './card-issuance';
import {
  cardOperationStatusQuery,
  type CardOperationInput,
  type CardOperationKind,
  type CardOperationOutcome,
} from './card-operations';
import {
  cardholderStatusQuery,
  type CardholderOnboardingInput,
  type CardholderOnboardingResult,
} from './cardholder-onboarding';
import { progressQuery, type OnboardingInput, type OnboardingResult } from './customer-onboarding';
import { Flows } from './flows';
import {
  transferStatusQuery,
  TransferRequestSchema,
  type FundTransferInput,
  type FundTransferResult,
} from './fund-transfer';
import { deriveMerchantOrderNo, ORDER_STEPS } from './merchant-order-no';
import {
  activationStatusQuery,
  ActivationRequestSchema,
  type PhysicalCardActivationInput,
  type PhysicalCardActivationResult,
} from './physical-card-activation';
import { reconcileReportQuery, reconcileWorkflowId, type ReconcileInput, type ReconcileReport } from './reconciliation';
import {
  sharedAccountStatusQuery,
  SharedAccountRequestSchema,
  type SharedAccountInput,
  type SharedAccountResult,
} from './shared-account';
import {
  fundingStatusQuery,
  FundingRequestSchema,
  type WalletFundingInput,
  type WalletFundingResult,
} from './wallet-funding';
import { strandedStatusQuery, type StrandedMoneyInput, type StrandedMoneyResult } from './stranded-money';
import { defineWorkflow } from './workflow-definition';
import {
  activationWorkflowId,
  cardEntityWorkflowId,
  cardOperationWorkflowId,
  fundingWorkflowId,
  onboardingWorkflowId,
  sharedAccountWorkflowId,
  transferWorkflowId,
} from './workflow-ids';

const none = () => ({});
const nothingRouted = () => [];

export const customerOnboardingWorkflow = defineWorkflow<OnboardingInput, OnboardingResult>()({
  type: 'customerOnboarding',
  flow: Flows.onboarding,
  versioning: 'PINNED',
  id: onboardingWorkflowId,
  orderKeys: none,
  routedAtStart: nothingRouted,
  statusQuery: progressQuery,
});

export const cardholderOnboardingWorkflow = defineWorkflow<CardholderOnboardingInput, CardholderOnboardingResult>()({
  type: 'cardholderOnboarding',
  flow: Flows.cardholder,
  versioning: 'PINNED',
  childStep: 'cardholder',
  orderKeys: (workflowId: string) => ({ create: deriveMerchantOrderNo(workflowId, ORDER_STEPS.cardholderCreate) }),
  routedAtStart: (keys: { create: string }) => [keys.create],
  statusQuery: cardholderStatusQuery,
});

export const cardIssuanceWorkflow = defineWorkflow<CardIssuanceInput, CardIssuanceResult>()({
  type: 'cardIssuance',
  flow: Flows.cardIssuance,
  versioning: 'PINNED',
  childStep: 'card',
  orderKeys: (workflowId: string) => ({
    create: deriveMerchantOrderNo(workflowId, ORDER_STEPS.cardCreate),
    budgetTopUp: deriveMerchantOrderNo(workflowId, ORDER_STEPS.budgetTopUp),
  }),
  // The budget top-up is added by the child itself, only in the mode that sends it.
  routedAtStart: (keys: { create: string }) => [keys.create],
  statusQuery: cardIssuanceStatusQuery,
});

export const cardDepositWorkflow = defineWorkflow<CardDepositInput, CardDepositResult>()({
  type: 'cardDeposit',
  flow: Flows.cardDeposit,
  versioning: 'PINNED',
  childStep: 'deposit',
  orderKeys: (workflowId: string) => ({ deposit: deriveMerchantOrderNo(workflowId, ORDER_STEPS.cardDeposit) }),
  routedAtStart: (keys: { deposit: string }) => [keys.deposit],
  statusQuery: cardDepositStatusQuery,
});

export const physicalCardActivationWorkflow = defineWorkflow<
  PhysicalCardActivationInput,
  PhysicalCardActivationResult
>()({
  type: 'physicalCardActivation',
  flow: Flows.cardActivation,
  versioning: 'PINNED',
  id: activationWorkflowId,
  request: { schema: ActivationRequestSchema, what: 'activation request', key: 'cardNo', keyInInput: true },
  childStep: 'activation',
  orderKeys: (workflowId: string) => ({
    activate: deriveMerchantOrderNo(workflowId, ORDER_STEPS.activate),
    workOrder: deriveMerchantOrderNo(workflowId, ORDER_STEPS.activateByWorkOrder),
  }),
  // Only the route the input takes sends its key.
  routedAtStart: (keys: { activate: string; workOrder: string }, input: Pick<PhysicalCardActivationInput, 'route'>) => [
    input.route === 'activation_code' ? keys.activate : keys.workOrder,
  ],
  statusQuery: activationStatusQuery,
});

export const fundTransferWorkflow = defineWorkflow<FundTransferInput, FundTransferResult>()({
  type: 'fundTransfer',
  flow: Flows.fundTransfer,
  versioning: 'PINNED',
  id: transferWorkflowId,
  request: { schema: TransferRequestSchema, what: 'transfer request', key: 'transferRef', keyInInput: false },
  childStep: 'transfer',
  orderKeys: (workflowId: string) => ({
    transfer: deriveMerchantOrderNo(workflowId, ORDER_STEPS.transfer),
    collection: deriveMerchantOrderNo(workflowId, ORDER_STEPS.collection),
  }),
  // A COLLECTION sends its own step's key (workflows/fund-transfer.ts).
  routedAtStart: (keys: { transfer: string; collection: string }, input: Pick<FundTransferInput, 'type'>) => [
    input.type === 'COLLECTION' ? keys.collection : keys.transfer,
  ],
  statusQuery: transferStatusQuery,
});

export const sharedAccountWorkflow = defineWorkflow<SharedAccountInput, SharedAccountResult>()({
  type: 'sharedAccount',
  flow: Flows.sharedAccount,
  versioning: 'PINNED',
  id: sharedAccountWorkflowId,
  request: {
    schema: SharedAccountRequestSchema,
    what: 'shared account request',
    key: 'accountName',
    keyInInput: true,
  },
  orderKeys: none,
  routedAtStart: nothingRouted,
  statusQuery: sharedAccountStatusQuery,
});

export const walletFundingWorkflow = defineWorkflow<WalletFundingInput, WalletFundingResult>()({
  type: 'walletFunding',
  flow: Flows.walletFunding,
  versioning: 'PINNED',
  id: fundingWorkflowId,
  request: { schema: FundingRequestSchema, what: 'wallet funding request', key: 'fundingRef', keyInInput: false },
  childStep: 'funding',
  // Its mutations are its children's; the deposit address a parent knows is routed at start (StartContext.routeBy).
  orderKeys: none,
  routedAtStart: nothingRouted,
  statusQuery: fundingStatusQuery,
});

/** The reference of a standalone card operation: the card and the caller's request key. */
export interface CardOperationRef {
  cardNo: string;
  requestRef: string;
}

function cardOperationWorkflow<T extends string>(type: T, kind: CardOperationKind) {
  return defineWorkflow<CardOperationInput, CardOperationOutcome>()({
    type,
    flow: Flows.cardOperation,
    versioning: 'PINNED',
    kind,
    id: (ref: CardOperationRef) => cardOperationWorkflowId(kind, ref.cardNo, ref.requestRef),
    orderKeys: (workflowId: string) => ({ operation: deriveMerchantOrderNo(workflowId, ORDER_STEPS[kind]) }),
    routedAtStart: (keys: { operation: string }) => [keys.operation],
    statusQuery: cardOperationStatusQuery,
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
} as const satisfies Record<CardOperationKind, unknown>;

export const cardEntityWorkflow = defineWorkflow<CardEntityInput, CardEntityResult>()({
  type: 'cardEntity',
  flow: Flows.cardEntity,
  // Lives as long as its card (years): it follows the current build and changes with patches.
  versioning: 'AUTO_UPGRADE',
  id: cardEntityWorkflowId,
  // Its keys are per request (domain/merchant-order-no.ts `entityOrderStep`), not per workflow.
  orderKeys: none,
  routedAtStart: nothingRouted,
  statusQuery: cardSnapshotQuery,
});

export const reconciliationWorkflow = defineWorkflow<ReconcileInput, ReconcileReport>()({
  type: 'reconciliation',
  flow: Flows.reconciliation,
  versioning: 'PINNED',
  id: reconcileWorkflowId,
  orderKeys: none,
  routedAtStart: nothingRouted,
  statusQuery: reconcileReportQuery,
});

export const strandedMoneyWorkflow = defineWorkflow<StrandedMoneyInput, StrandedMoneyResult>()({
  type: 'strandedMoney',
  flow: Flows.strandedMoney,
  // Open until an operator acknowledges it, which may outlast a build: it follows the current one.
  versioning: 'AUTO_UPGRADE',
  // One per run that left money: `<parentId>/stranded.<runId>` (workflows/support/saga.ts).
  childStep: 'stranded',
  orderKeys: none,
  routedAtStart: nothingRouted,
  statusQuery: strandedStatusQuery,
});

/** Every workflow the cardflow worker registers, by its type (checked against workflows/registered.ts). */
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
  reconciliation: reconciliationWorkflow,
  strandedMoney: strandedMoneyWorkflow,
} as const;

/** A registered workflow's type name. */
export type WorkflowType = keyof typeof WORKFLOWS;

/** The type names, by name (`WorkflowTypes.fundTransfer === 'fundTransfer'`). */
export const WorkflowTypes = Object.fromEntries(Object.keys(WORKFLOWS).map((type) => [type, type])) as {
  readonly [T in WorkflowType]: T;
};

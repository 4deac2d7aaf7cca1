/**
 * The onboarding-path runs whose histories `test/integration/replay.test.ts` saves
 * (CARDFLOW_SAVE_HISTORIES=onboarding-paths, or 1): the physical, shared_account, budgetTopUp and
 * on_chain paths of `customerOnboarding`, each saved with every child (and grandchild) it started,
 * so a change that breaks determinism on one of them fails the replay test:
 *
 * - physical card, `activateCard` Update (activation code, sealed PIN) after awaiting_delivery;
 * - physical card, `activateCard` Update with a work order;
 * - `funding: shared_account` (fundTransfer child before card creation);
 * - `budgetTopUp` read as shared_account funding (the path behind the `patched()` marker
 *   BUDGET_TOP_UP_AS_FUNDING; the older onboarding set guards the unpatched branch);
 * - `funding: on_chain` (walletFunding child, its cardDeposit grandchild), the deposit credited by
 *   the sandbox's `creditWalletDeposit` helper.
 *
 * What these histories may hold: payloads are saved as the test worker wrote them (`json/plain`,
 * like the other sets), so the printed card number, which the physical path carries in clear in the
 * onboarding's and cardIssuance's input and the create card activity's input, is replaced in the
 * saved files by {@link maskCardNumbers} (same length, BIN kept, digits zeroed, check digit
 * recomputed: the workflows' bin and Luhn checks still pass on replay). The PIN travels only
 * sealed; the activation code never reaches a payload in clear. The physical runs' B2C holder is
 * made through the provider API outside any workflow (`holderId`), so no personal data either.
 */
import { randomBytes } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { activateOnboardingCard } from '../../../client/onboarding';
import { progressQuery, type OnboardingInput, type OnboardingProgress } from '../../../domain/customer-onboarding';
import { firstOnboardingStage, onboardingStartAttributes } from '../../../domain/start-attributes';
import { onboardingWorkflowId } from '../../../domain/workflow-ids';
import { WorkflowTypes } from '../../../domain/workflows';
import { luhnCheckDigit } from '../../../tools/sandbox/random';
import {
  approvedPhysicalHolder,
  BUDGET_TYPE,
  eventually,
  FAST_WAIT,
  PHYSICAL_TYPE,
  printedCardNumber,
  startCardHarness,
  SUBSCRIPTION_TYPE,
  walletAccount,
  type CardHarness,
} from '../support/card-harness';
import type { SavedRuns, SaveHistory } from './card-and-funds-runs';

/**
 * The clear PIN the activation-code run seals (the backend's client seals it before the Update).
 */
export const PATH_PINS = { activation: '640271' } as const;

/**
 * Saved names of the runs (each `<name>.json`, children `<name>.<step>[.<step>].json`), for the
 * replay test.
 */
export const ONBOARDING_PATH_HISTORIES = [
  'onboarding-physical-code',
  'onboarding-physical-code.card',
  'onboarding-physical-code.activation',
  'onboarding-physical-work-order',
  'onboarding-physical-work-order.card',
  'onboarding-physical-work-order.activation',
  'onboarding-shared-account',
  'onboarding-shared-account.transfer',
  'onboarding-shared-account.card',
  'onboarding-shared-account.deposit',
  'onboarding-budget-top-up',
  'onboarding-budget-top-up.transfer',
  'onboarding-budget-top-up.card',
  'onboarding-budget-top-up.deposit',
  'onboarding-on-chain',
  'onboarding-on-chain.card',
  'onboarding-on-chain.funding',
  'onboarding-on-chain.funding.deposit',
] as const;

/**
 * Digits kept at the front of a masked card number: the 6-digit BIN (ISO/IEC 7812), the card type's
 * bankCardBin here.
 */
const KEPT_DIGITS = 6;

/**
 * The printed card number with every digit after the BIN zeroed and the Luhn check digit
 * recomputed.
 */
export function maskCardNumber(pan: string): string {
  const body = pan.slice(0, KEPT_DIGITS) + '0'.repeat(pan.length - KEPT_DIGITS - 1);
  return body + luhnCheckDigit(body);
}

const CARD_NUMBER_FIELD = /"cardNumber":"(\d{12,19})"/g;

/**
 * A saved history's text with every `cardNumber` value inside its base64 payloads masked
 * ({@link maskCardNumber}); the rest of the file is unchanged. Deterministic, so masking twice is
 * masking once.
 */
export function maskCardNumbers(text: string): string {
  return text.replace(/"data": "([A-Za-z0-9+/=]+)"/g, (whole, data: string) => {
    const decoded = Buffer.from(data, 'base64').toString('utf8');
    const masked = decoded.replace(CARD_NUMBER_FIELD, (_field, pan: string) => `"cardNumber":"${maskCardNumber(pan)}"`);
    return masked === decoded ? whole : `"data": "${Buffer.from(masked, 'utf8').toString('base64')}"`;
  });
}

/**
 * The `cardNumber` values in a saved history's payloads that are not masked (empty when all are).
 */
export function unmaskedCardNumbers(text: string): string[] {
  const decoded = [...text.matchAll(/"data": "([A-Za-z0-9+/=]+)"/g)]
    .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
    .join('\n');
  return [...decoded.matchAll(CARD_NUMBER_FIELD)].map((m) => m[1]!).filter((pan) => pan !== maskCardNumber(pan));
}

/**
 * Runs the five onboarding paths on a lifecycle worker and saves their histories (masking is the
 * caller's, on the files).
 */
export async function saveOnboardingPathHistories(saveOne: SaveHistory): Promise<SavedRuns> {
  const h = await startCardHarness();
  const names: string[] = [];
  const clearValues: string[] = [];
  const save = async (name: string, handle: WorkflowHandle): Promise<void> => {
    for (const saved of await saveWithChildren(h, saveOne, name, handle)) names.push(saved);
  };
  try {
    await h.withCardWorker(async () => {
      clearValues.push(...(await physicalByCode(h, save)));
      clearValues.push(...(await physicalByWorkOrder(h, save)));
      await sharedAccountRuns(h, save);
      await onChainRun(h, save);
    });
  } finally {
    await h.stop();
  }
  return { names, clearValues };
}

/**
 * Saves `handle`'s history under `name`, then each child it started (its id is the parent's plus
 * `/<step>`) as `<name>.<step>`, recursively. Returns the names saved.
 */
async function saveWithChildren(
  h: CardHarness,
  saveOne: SaveHistory,
  name: string,
  handle: WorkflowHandle,
): Promise<string[]> {
  await saveOne(name, handle);
  const saved = [name];
  const history = await handle.fetchHistory();
  for (const event of history.events ?? []) {
    const childId = event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
    if (!childId) continue;
    if (!childId.startsWith(`${handle.workflowId}/`))
      throw new Error(`child ${childId} of ${handle.workflowId} is not named after its parent`);
    const step = childId.slice(handle.workflowId.length + 1).replace(/\//g, '.');
    saved.push(...(await saveWithChildren(h, saveOne, `${name}.${step}`, h.client.workflow.getHandle(childId))));
  }
  return saved;
}

const suffix = () => randomBytes(4).toString('hex');

function startOnboarding(
  h: CardHarness,
  label: string,
  fields: Omit<OnboardingInput, 'customerRef' | 'wait'>,
): Promise<WorkflowHandle> {
  const customerRef = `replay-${label}-${suffix()}`;
  return h.client.workflow.start(WorkflowTypes.customerOnboarding, {
    workflowId: onboardingWorkflowId(customerRef),
    taskQueue: h.taskQueue,
    args: [{ customerRef, wait: FAST_WAIT, ...fields }],
    typedSearchAttributes: onboardingStartAttributes(customerRef, firstOnboardingStage(fields)),
  });
}

const stage = (handle: WorkflowHandle, wanted: OnboardingProgress['stage']) =>
  eventually(
    () => handle.query(progressQuery),
    (p) => p.stage === wanted || p.stage === 'failed',
    wanted,
    60_000,
  ).then((p) => {
    if (p.stage !== wanted) throw new Error(`${handle.workflowId} failed before ${wanted}: ${p.failure?.type ?? ''}`);
    return p;
  });

async function physicalOnboarding(
  h: CardHarness,
  label: string,
): Promise<{ handle: WorkflowHandle; cardNo: string; cardNumber: string }> {
  const cardNumber = printedCardNumber();
  const handle = await startOnboarding(h, label, {
    cardTypeId: PHYSICAL_TYPE,
    holderId: await approvedPhysicalHolder(h.provider),
    cardNumber,
    initialDeposit: '50',
  });
  const waiting = await stage(handle, 'awaiting_delivery');
  return { handle, cardNo: waiting.cardNo!, cardNumber };
}

/** Physical card, activated by code after awaiting_delivery; returns the clear values it used. */
async function physicalByCode(
  h: CardHarness,
  save: (name: string, handle: WorkflowHandle) => Promise<void>,
): Promise<string[]> {
  const { handle, cardNo, cardNumber } = await physicalOnboarding(h, 'phys-code');
  const issued = await h.helper<{ activationCode: string }>('issueActivationCode', { cardNo });
  const customerRef = handle.workflowId.slice('onboarding-'.length);
  await activateOnboardingCard(
    h.client,
    customerRef,
    { route: 'activation_code', pin: PATH_PINS.activation, noPinPaymentAmount: '300' },
    { merchantPublicKey: h.sandbox.keys.merchant.publicKey },
  );
  await handle.result();
  await save('onboarding-physical-code', handle);
  return [PATH_PINS.activation, issued.activationCode, cardNumber];
}

/**
 * Physical card, activated by a CARD_ACTIVE work order after awaiting_delivery; returns the card
 * number used.
 */
async function physicalByWorkOrder(
  h: CardHarness,
  save: (name: string, handle: WorkflowHandle) => Promise<void>,
): Promise<string[]> {
  const { handle, cardNumber } = await physicalOnboarding(h, 'phys-work');
  const customerRef = handle.workflowId.slice('onboarding-'.length);
  await activateOnboardingCard(h.client, customerRef, {
    route: 'work_order',
    workOrder: { content: 'Card received by the holder', files: [{ ref: 'delivery-note.pdf' }] },
  });
  await handle.result();
  await save('onboarding-physical-work-order', handle);
  return [cardNumber];
}

/**
 * funding shared_account, then the older budgetTopUp field (same fundTransfer child since the
 * patch).
 */
async function sharedAccountRuns(
  h: CardHarness,
  save: (name: string, handle: WorkflowHandle) => Promise<void>,
): Promise<void> {
  const margin = (await h.provider.createSharedAccount({ accountName: `Replay onboarding pool ${suffix()}` }))
    .accountId;
  const shared = await startOnboarding(h, 'shared', {
    cardTypeId: BUDGET_TYPE,
    initialDeposit: '100',
    funding: { source: 'shared_account', accountId: margin },
  });
  await shared.result();
  const wallet = await walletAccount(h.provider);
  const topUp = await startOnboarding(h, 'topup', {
    cardTypeId: BUDGET_TYPE,
    initialDeposit: '20',
    budgetTopUp: { payerAccountId: wallet.accountId, payeeAccountId: margin, amount: '30' },
  });
  await topUp.result();
  await save('onboarding-shared-account', shared);
  await save('onboarding-budget-top-up', topUp);
}

/**
 * funding on_chain: the customer's deposit credited by the sandbox helper to the address progress
 * shows.
 */
async function onChainRun(
  h: CardHarness,
  save: (name: string, handle: WorkflowHandle) => Promise<void>,
): Promise<void> {
  const handle = await startOnboarding(h, 'onchain', {
    cardTypeId: SUBSCRIPTION_TYPE,
    funding: { source: 'on_chain', coinKey: 'USDT_TRC20', expectedAmount: '120' },
  });
  const waiting = await stage(handle, 'awaiting_payment');
  await h.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', amount: '120', address: waiting.funding?.address });
  await handle.result();
  await save('onboarding-on-chain', handle);
}

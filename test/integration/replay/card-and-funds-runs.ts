/**
 * The card and fund runs whose histories `replay.test.ts` saves (CARDFLOW_SAVE_HISTORIES):
 * both transfer directions, a shared account, a wallet funding with its transfer and card
 * deposit children, both activation routes, freeze, unfreeze, a PIN change, and a card entity
 * with Updates (its deposit child too) and authorization events until a high-risk purchase
 * cancels the card. Each run is awaited to its end, so the saved history is complete.
 *
 * What a history may hold: the PIN only sealed, never an activation code in clear, no personal
 * data (the physical cards' holders are made through the provider API, outside any workflow).
 * {@link assertNothingInClear} checks the saved text for the clear values this run used.
 */
import { randomBytes } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { startReconciliation } from '../../../client/reconciliation';
import { cardSnapshotQuery, depositUpdate, freezeUpdate, unfreezeUpdate } from '../../../domain/card-entity';
import { WorkflowTypes } from '../../../domain/workflows';
import {
  activePhysicalCard,
  BUDGET_TYPE,
  eventually,
  FAST_WAIT,
  fundingToBudgetCard,
  physicalCard,
  startCardHarness,
  SUBSCRIPTION_TYPE,
  virtualCard,
  walletAccount,
  type CardHarness,
} from '../support/card-harness';
import { cardEntityWorkflowId, activationWorkflowId, sharedAccountWorkflowId } from '../../../domain/workflow-ids';

/** Saves one workflow's history under `name` (test/fixtures/histories/<name>.json). */
export type SaveHistory = (name: string, handle: WorkflowHandle) => Promise<void>;

/**
 * What the runs saved, and the clear values (PINs, activation codes) none of those histories may
 * contain.
 */
export interface SavedRuns {
  names: string[];
  clearValues: string[];
}

/** The clear PINs the runs seal (activation, and the PIN change) or use outside any workflow. */
export const RUN_PINS = { activation: '583016', first: '111111', changed: '907153' } as const;

const suffix = () => randomBytes(4).toString('hex');

/** Runs every lifecycle scenario on a lifecycle worker and saves the histories. */
export async function saveCardAndFundHistories(saveOne: SaveHistory): Promise<SavedRuns> {
  const h = await startCardHarness();
  const secrets: string[] = [];
  const names: string[] = [];
  const save: SaveHistory = async (name, handle) => {
    names.push(name);
    await saveOne(name, handle);
  };
  try {
    await h.withCardWorker(async () => {
      await transfersAndAccount(h, save);
      await walletFundingRun(h, save);
      secrets.push(...(await activations(h, save)));
      secrets.push(...(await cardOperations(h, save)));
      await cardEntityRun(h, save);
      await reconciliationRun(h, save);
    });
  } finally {
    await h.stop();
  }
  return { names, clearValues: secrets };
}

/** A reconciliation over everything the runs above made: orders, ledgers and balances, one run. */
async function reconciliationRun(h: CardHarness, save: SaveHistory): Promise<void> {
  const handle = await startReconciliation(
    h.client,
    { since: Date.now() - 60 * 60_000 },
    { taskQueue: h.taskQueue, workflowId: `replay-reconcile-${suffix()}` },
  );
  await handle.result();
  await save('reconciliation', handle);
}

function start(h: CardHarness, type: string, workflowId: string, args: Record<string, unknown>) {
  return h.client.workflow.start(type, { taskQueue: h.taskQueue, workflowId, args: [{ wait: FAST_WAIT, ...args }] });
}

async function transfersAndAccount(h: CardHarness, save: SaveHistory): Promise<void> {
  const name = `Replay pool ${suffix()}`;
  const account = await start(h, WorkflowTypes.sharedAccount, sharedAccountWorkflowId(name), { accountName: name });
  const { accountId } = (await account.result()) as { accountId: string };
  const wallet = await walletAccount(h.provider);
  const out = await start(h, WorkflowTypes.fundTransfer, `replay-transfer-${suffix()}`, {
    type: 'TRANSFER',
    amount: '120.45',
    payerAccountId: wallet.accountId,
    payeeAccountId: accountId,
    remark: 'budget',
  });
  await out.result();
  const back = await start(h, WorkflowTypes.fundTransfer, `replay-collection-${suffix()}`, {
    type: 'COLLECTION',
    amount: '20.05',
    payerAccountId: accountId,
    payeeAccountId: wallet.accountId,
  });
  await back.result();
  await save('shared-account', account);
  await save('fund-transfer', out);
  await save('fund-collection', back);
}

async function walletFundingRun(h: CardHarness, save: SaveHistory): Promise<void> {
  const margin = (await h.provider.createSharedAccount({ accountName: `Replay funding ${suffix()}` })).accountId;
  await h.helper('creditMerchantWallet', { amount: '5', accountId: margin }); // the budget card's fee
  const cardNo = await virtualCard(h.provider, { cardTypeId: BUDGET_TYPE, accountId: margin });
  const funding = await start(
    h,
    WorkflowTypes.walletFunding,
    `replay-funding-${suffix()}`,
    fundingToBudgetCard(margin, cardNo),
  );
  await eventually(
    () => funding.query<{ stage: string }>('fundingStatus'),
    (s) => s.stage === 'awaiting_deposit',
    'awaiting_deposit',
  );
  await h.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', amount: '200' });
  await funding.result();
  await save('wallet-funding', funding);
  await save('wallet-funding.transfer', h.client.workflow.getHandle(`${funding.workflowId}/transfer`));
  await save('wallet-funding.deposit', h.client.workflow.getHandle(`${funding.workflowId}/deposit`));
}

/** Both activation routes; returns the clear PIN and activation code used. */
async function activations(h: CardHarness, save: SaveHistory): Promise<string[]> {
  const codeCard = await physicalCard(h.provider);
  const pin = RUN_PINS.activation;
  const byCode = await start(h, WorkflowTypes.physicalCardActivation, activationWorkflowId(codeCard.cardNo), {
    cardNo: codeCard.cardNo,
    route: 'activation_code',
    sealedPin: h.seal(pin),
    noPinPaymentAmount: '300',
  });
  await eventually(
    () => byCode.query<{ stage: string }>('activationStatus'),
    (s) => s.stage === 'awaiting_code',
    'awaiting_code',
  );
  const issued = await h.helper<{ activationCode: string }>('issueActivationCode', { cardNo: codeCard.cardNo });
  await byCode.result();

  const orderCard = await physicalCard(h.provider);
  const byOrder = await start(h, WorkflowTypes.physicalCardActivation, activationWorkflowId(orderCard.cardNo), {
    cardNo: orderCard.cardNo,
    route: 'work_order',
    workOrder: { content: 'Card received by the holder', files: [{ ref: 'delivery-note.pdf' }] },
  });
  await byOrder.result();
  await save('activation-code', byCode);
  await save('activation-work-order', byOrder);
  return [pin, issued.activationCode];
}

/** Freeze, unfreeze and a PIN change; returns the clear PINs used. */
async function cardOperations(h: CardHarness, save: SaveHistory): Promise<string[]> {
  const cardNo = await virtualCard(h.provider, { deposit: '20' });
  const freeze = await start(h, WorkflowTypes.cardFreeze, `replay-freeze-${cardNo}`, {
    cardNo,
    clientRemark: 'lost wallet',
  });
  await freeze.result();
  const unfreeze = await start(h, WorkflowTypes.cardUnfreeze, `replay-unfreeze-${cardNo}`, { cardNo });
  await unfreeze.result();

  const physical = await activePhysicalCard(h, RUN_PINS.first);
  const newPin = RUN_PINS.changed;
  const pin = await start(h, WorkflowTypes.cardPinUpdate, `replay-pin-${physical.cardNo}`, {
    cardNo: physical.cardNo,
    sealedPin: h.seal(newPin),
  });
  await pin.result();
  await save('card-freeze', freeze);
  await save('card-unfreeze', unfreeze);
  await save('card-pin-update', pin);
  return [newPin, physical.activationCode];
}

/**
 * Updates (freeze, unfreeze, deposit as a child), an authorization recorded, then a high-risk
 * purchase ends it.
 */
async function cardEntityRun(h: CardHarness, save: SaveHistory): Promise<void> {
  const cardNo = await virtualCard(h.provider, { deposit: '50' });
  const entity = await start(h, WorkflowTypes.cardEntity, cardEntityWorkflowId(cardNo), { cardNo });
  await entity.executeUpdate(freezeUpdate, { args: [{ requestId: 'f1', clientRemark: 'travel' }] });
  await entity.executeUpdate(unfreezeUpdate, { args: [{ requestId: 'u1' }] });
  const deposited = await entity.executeUpdate(depositUpdate, {
    args: [{ requestId: 'd1', amount: '10', cardTypeId: SUBSCRIPTION_TYPE }],
  });
  await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '12.50', merchantName: 'Coffee Shop' });
  await eventually(
    () => entity.query(cardSnapshotQuery),
    (s) => s.authorizations.some((a) => a.status === 'succeed'),
    'the authorization webhook',
  );
  await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '1', merchantName: 'Binance' });
  await entity.result();
  await save('card-entity', entity);
  await save('card-entity.deposit', h.client.workflow.getHandle(`${entity.workflowId}/deposit-d1`));
  if (!deposited.merchantOrderNo) throw new Error('the deposit Update answered no merchantOrderNo');
}

/**
 * Throws when a saved history (its raw text and its base64 payloads decoded) contains one of
 * `clearValues` as a whole token (digits not part of a longer number).
 */
export function assertNothingInClear(name: string, text: string, clearValues: string[]): void {
  const decoded = [...text.matchAll(/"data": "([A-Za-z0-9+/=]+)"/g)]
    .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
    .join('\n');
  for (const value of clearValues) {
    const token = new RegExp(`(?<![0-9A-Za-z])${value.replace(/[^0-9A-Za-z]/g, '')}(?![0-9A-Za-z])`);
    if (token.test(text) || token.test(decoded))
      throw new Error(`history ${name} contains a clear PIN or activation code its run used`);
  }
}

/** The saved history of a card cardflow issued, whose workflow learned the card from its birth. */
export const BORN_CARD_HISTORY = 'card-entity-born';

/**
 * A card cardflow issues (`card-born`): the createCard activity starts the card's workflow with
 * the create record and the read after it (`CardBirth`, marker `card-entity-born`), so its first
 * task parks it; an authorization (declined: the card holds nothing) is recorded, then the card is
 * cancelled and the workflow follows the balance back to the account.
 */
export async function saveBornCardHistory(saveOne: SaveHistory): Promise<void> {
  const h = await startCardHarness();
  try {
    await h.withCardWorker(async () => {
      const issuance = await start(h, WorkflowTypes.cardIssuance, `replay-issue-${suffix()}`, {
        cardTypeId: SUBSCRIPTION_TYPE,
        customerRef: `replay-born-${suffix()}`,
      });
      const { cardNo } = (await issuance.result()) as { cardNo: string };
      const entity = h.client.workflow.getHandle(cardEntityWorkflowId(cardNo));
      await eventually(
        () => entity.query(cardSnapshotQuery),
        (s) => s.status === 'Normal',
        'the card workflow born with its card',
      );
      await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '3.20', merchantName: 'Coffee Shop' });
      await eventually(
        () => entity.query(cardSnapshotQuery),
        (s) => s.authorizations.length > 0,
        'the authorization webhook',
      );
      await h.helper('cancelCard', { cardNo, reason: 'closed by the customer' });
      await entity.result();
      await saveOne(BORN_CARD_HISTORY, entity);
    });
  } finally {
    await h.stop();
  }
}

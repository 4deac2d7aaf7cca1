/**
 * The compensation runs whose histories `test/integration/replay.test.ts` saves
 * (CARDFLOW_SAVE_HISTORIES=compensation, or 1), so a change that breaks determinism on a path that
 * undoes money fails the replay test:
 *
 * - `funding: shared_account` onboarding whose card creation the provider fails (cents .13): the
 *   saga's marker, the unspent read and the COLLECTION child `transfer.return`;
 * - `walletFunding` whose card deposit the provider fails: the COLLECTION of the transfer, and the
 *   customer's credit left in the WALLET kept in a `strandedMoney` record, acknowledged (Update)
 *   so that record's history is complete.
 *
 * Saved as the other sets (`json/plain`); no card number, PIN or personal data is in these runs.
 */
import { randomBytes } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { acknowledgeStranded } from '../../../client/stranded-money';
import { onboardingStartAttributes } from '../../../domain/start-attributes';
import { fundingStatusQuery } from '../../../domain/wallet-funding';
import { onboardingWorkflowId } from '../../../domain/workflow-ids';
import { WorkflowTypes } from '../../../domain/workflows';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';
import {
  BUDGET_TYPE,
  eventually,
  FAST_WAIT,
  startCardHarness,
  virtualCard,
  type CardHarness,
} from '../support/card-harness';
import type { SavedRuns, SaveHistory } from './card-and-funds-runs';

/**
 * Saved names of the runs (each `<name>.json`, children `<name>.<step>.json`), for the replay test.
 */
export const COMPENSATION_HISTORIES = [
  'onboarding-compensated',
  'onboarding-compensated.transfer',
  'onboarding-compensated.card',
  'onboarding-compensated.transfer.return',
  'wallet-funding-compensated',
  'wallet-funding-compensated.transfer',
  'wallet-funding-compensated.deposit',
  'wallet-funding-compensated.transfer.return',
  'wallet-funding-compensated.stranded',
] as const;

const suffix = () => randomBytes(4).toString('hex');

/** Runs both on a fresh harness and saves their histories. */
export async function saveCompensationHistories(save: SaveHistory): Promise<SavedRuns> {
  const h = await startCardHarness();
  const names: string[] = [];
  const saveAll = async (name: string, handle: WorkflowHandle, children: string[]) => {
    await save(name, handle);
    names.push(name);
    for (const step of children) {
      await save(`${name}.${step}`, h.client.workflow.getHandle(`${handle.workflowId}/${step}`));
      names.push(`${name}.${step}`);
    }
  };
  try {
    await h.withCardWorker(async () => {
      const onboarding = await failedOnboarding(h);
      await saveAll('onboarding-compensated', onboarding, ['transfer', 'card', 'transfer.return']);
      const { funding, record } = await failedWalletFunding(h);
      await saveAll('wallet-funding-compensated', funding, ['transfer', 'deposit', 'transfer.return']);
      await save('wallet-funding-compensated.stranded', h.client.workflow.getHandle(record));
      names.push('wallet-funding-compensated.stranded');
    });
  } finally {
    await h.stop();
  }
  return { names, clearValues: [] };
}

/**
 * A gift card (deposit at creation) funded through a MARGIN account; cents .13: the provider fails
 * the creation.
 */
async function failedOnboarding(h: CardHarness): Promise<WorkflowHandle> {
  const margin = (await h.provider.createSharedAccount({ accountName: `Replay compensation ${suffix()}` })).accountId;
  const customerRef = `replay-compensated-${suffix()}`;
  const handle = await h.client.workflow.start(WorkflowTypes.customerOnboarding, {
    workflowId: onboardingWorkflowId(customerRef),
    taskQueue: h.taskQueue,
    args: [
      {
        customerRef,
        cardTypeId: CARD_TYPE_IDS.gift,
        initialDeposit: '30.13',
        funding: { source: 'shared_account', accountId: margin },
        wait: FAST_WAIT,
      },
    ],
    typedSearchAttributes: onboardingStartAttributes(customerRef),
  });
  await handle.result().catch(() => undefined);
  return handle;
}

/**
 * A credited deposit moved to a MARGIN account, whose card deposit (cents .13) the provider fails.
 */
async function failedWalletFunding(h: CardHarness): Promise<{ funding: WorkflowHandle; record: string }> {
  const margin = (await h.provider.createSharedAccount({ accountName: `Replay funding back ${suffix()}` })).accountId;
  await h.helper('creditMerchantWallet', { amount: '5', accountId: margin }); // the budget card's fee
  const cardNo = await virtualCard(h.provider, { cardTypeId: BUDGET_TYPE, accountId: margin });
  const funding = await h.client.workflow.start(WorkflowTypes.walletFunding, {
    workflowId: `replay-funding-back-${suffix()}`,
    taskQueue: h.taskQueue,
    args: [
      {
        coinKey: 'USDT_TRC20',
        expectedAmount: '80',
        transfer: { payeeAccountId: margin },
        cardDeposit: { cardNo, cardTypeId: BUDGET_TYPE, amount: '40.13' },
        wait: FAST_WAIT,
      },
    ],
  });
  await eventually(
    () => funding.query(fundingStatusQuery),
    (s) => s.stage === 'awaiting_deposit',
    'awaiting_deposit',
  );
  await h.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', amount: '80' });
  await funding.result().catch(() => undefined);
  const record = (await funding.query(fundingStatusQuery)).compensation?.strandedRecord;
  if (!record) throw new Error(`${funding.workflowId} left no strandedMoney record`);
  await acknowledgeStranded(h.client, record, { by: 'replay-run', note: 'saved for the replay test' });
  await h.client.workflow.getHandle(record).result();
  return { funding, record };
}

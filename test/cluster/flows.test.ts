/**
 * cardflow's flows on the production topology: the Temporal cluster on PostgreSQL (two history
 * hosts), two worker processes, two webhook receivers behind haproxy sharing the PostgreSQL
 * delivery log, work-order files in PostgreSQL. Each flow is checked in the sandbox: exactly one
 * of each thing, money to the cent.
 */
import { randomUUID } from 'node:crypto';
import { Connection, WorkflowUpdateFailedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Pool } from 'pg';
import { indexedType } from '../../tools/deploy/setup-temporal';
import { cardflowSearchAttributes } from '../../domain/search-attributes';
import { add, cmp, sub } from '../../provider/money';
import { cardholderStatusQuery, correctCardholderUpdate } from '../../domain/cardholder-onboarding';
import { type OnboardingResult, progressQuery } from '../../domain/customer-onboarding';
import type { FundTransferResult } from '../../domain/fund-transfer';
import type { PhysicalCardActivationResult } from '../../domain/physical-card-activation';
import type { WalletFundingResult } from '../../domain/wallet-funding';
import { activationWorkflowId, cardholderWorkflowId } from '../../domain/workflow-ids';
import { physicalCardActivationWorkflow } from '../../domain/workflows';
import { CARD_TYPE_IDS, CARD_TYPES as SANDBOX_CARD_TYPES } from '../../tools/sandbox/data/card-types';
import { createPostgresFileStore } from '../../platform/storage/postgres-file-store';
import {
  BUDGET_TYPE,
  account,
  expectMarginAfterFunding,
  expectOneActivationWorkOrder,
  fundingToBudgetCard,
  physicalCard,
  uploadIdImages,
  virtualCard,
  walletAccount,
} from '../integration/support/card-harness';
import {
  CARD_TYPES,
  FAST_WAIT,
  cardOperations,
  cardholdersByEmail,
  customerRef,
  startOnboardingWorkflow,
} from '../integration/support/harness';
import { b2bHolder, uniqueEmail } from '../integration/support/holders';
import { b2cHolder } from '../fixtures/holders';
import { temporalCallerOptions } from '../../tools/scripts/cluster/temporal-auth';
import { clusterSettings } from './support/control';
import { type ClusterWorld, startClusterWorld, until } from './support/world';

let w: ClusterWorld;
beforeAll(async () => {
  w = await startClusterWorld({ label: 'flows' });
});
afterAll(async () => w?.stop());

const cardPrice = (cardTypeId: string) => SANDBOX_CARD_TYPES.find((t) => t.cardTypeId === cardTypeId)!.cardPrice;

it('B2B onboarding with an initial deposit: one holder, one card, one deposit, the wallet charged to the cent', async () => {
  const walletBefore = (await walletAccount(w.provider)).availableBalance;
  const email = uniqueEmail('cluster.b2b');
  const handle = await startOnboardingWorkflow(w, {
    customerRef: customerRef('cluster-b2b'),
    cardTypeId: CARD_TYPES.b2bWithDeposit,
    holder: b2bHolder(email),
    initialDeposit: '100',
    wait: FAST_WAIT,
  });
  const result = (await handle.result()) as OnboardingResult;
  expect((await handle.query(progressQuery)).stage).toBe('completed');
  expect(await cardholdersByEmail(w.provider, email)).toHaveLength(1);
  expect(result.card.initialDeposit).toEqual({ amount: '100.00', fee: '1.50' });
  const creates = await cardOperations(w.provider, { type: 'create', cardNo: result.card.cardNo });
  expect(creates.filter((r) => r.status === 'success')).toHaveLength(1);
  expect(
    w.sandbox.commits({ operation: 'createCard' }).filter((c) => c.refs.cardNo === result.card.cardNo),
  ).toHaveLength(1);
  const charged = sub(walletBefore, (await walletAccount(w.provider)).availableBalance);
  expect(cmp(charged, add(cardPrice(CARD_TYPES.b2bWithDeposit), '100', '1.50'))).toBe(0);
});

/** A B2C holder with its three ID images uploaded first, as the provider requires. */
async function b2cHolderWith(email: string) {
  const fileIds = await uploadIdImages(w.provider);
  return b2cHolder({ email, idNumber: `P${randomUUID().replace(/-/g, '').slice(0, 10)}`, fileIds });
}

it('B2C onboarding rejected in review, corrected through the update, then completed: one holder, one card, one fee', async () => {
  const walletBefore = (await walletAccount(w.provider)).availableBalance;
  const ref = customerRef('cluster-b2c');
  const rejected = await b2cHolderWith(uniqueEmail('reject.admin'));
  const handle = await startOnboardingWorkflow(w, {
    customerRef: ref,
    cardTypeId: CARD_TYPE_IDS.b2cVirtual,
    holder: rejected,
    wait: FAST_WAIT,
  });
  const cardholder = w.client.workflow.getHandle(cardholderWorkflowId(ref));
  await until(
    () => cardholder.query(cardholderStatusQuery),
    (s) => s.stage === 'awaiting_correction',
  );
  const bad = cardholder.executeUpdate(correctCardholderUpdate, {
    args: [{ holder: { ...rejected, areaCode: '+7' } }],
  });
  await expect(bad).rejects.toThrow(WorkflowUpdateFailedError);
  const fixedEmail = uniqueEmail('grace.fixed');
  await cardholder.executeUpdate(correctCardholderUpdate, { args: [{ holder: { ...rejected, email: fixedEmail } }] });
  const result = (await handle.result()) as OnboardingResult;
  expect(result.cardholder).toMatchObject({ created: true, resubmissions: 1 });
  // One holder, created once and corrected: the fixed email replaced the rejected one.
  expect(await cardholdersByEmail(w.provider, rejected.email)).toHaveLength(0);
  expect(await cardholdersByEmail(w.provider, fixedEmail)).toHaveLength(1);
  expect(
    w.sandbox.commits({ operation: 'createCard' }).filter((c) => c.refs.cardNo === result.card.cardNo),
  ).toHaveLength(1);
  const charged = sub(walletBefore, (await walletAccount(w.provider)).availableBalance);
  expect(cmp(charged, cardPrice(CARD_TYPE_IDS.b2cVirtual))).toBe(0);
});

it('physical activation by work order, with a supporting file a backend stored in PostgreSQL', async () => {
  const files = createPostgresFileStore(clusterSettings().databaseUrl);
  const note = Buffer.from(`%PDF-1.4\n% delivery note ${Date.now()}\n`);
  const { ref } = await files.put(note, 'delivery-note.pdf');
  await files.close();
  const { cardNo } = await physicalCard(w.provider);
  const workflowId = activationWorkflowId(cardNo);
  const result = (await w.client.workflow.execute('physicalCardActivation', {
    taskQueue: w.taskQueue,
    workflowId,
    args: [{ wait: FAST_WAIT, cardNo, route: 'work_order', workOrder: { content: 'Received', files: [{ ref }] } }],
  })) as PhysicalCardActivationResult;
  expect(result).toMatchObject({ cardNo, route: 'work_order', cardStatus: 'Normal' });
  expect(result.fileIds).toHaveLength(1);
  await expectOneActivationWorkOrder(w.provider, cardNo, {
    merchantOrderNo: physicalCardActivationWorkflow.orderKeys(workflowId).workOrder,
  });
});

it('a transfer wallet to margin moves the amount once, confirmed in both balances to the cent', async () => {
  const margin = (await w.provider.createSharedAccount({ accountName: 'Cluster transfer' })).accountId;
  const wallet = await walletAccount(w.provider);
  const result = (await w.client.workflow.execute('fundTransfer', {
    taskQueue: w.taskQueue,
    workflowId: `cluster-transfer-${margin}`,
    args: [
      {
        wait: FAST_WAIT,
        type: 'TRANSFER',
        amount: '125.37',
        payerAccountId: wallet.accountId,
        payeeAccountId: margin,
        remark: 'cluster',
      },
    ],
  })) as FundTransferResult;
  expect(result).toMatchObject({ type: 'TRANSFER', amount: '125.37', sent: true });
  expect(cmp((await account(w.provider, margin)).availableBalance, '125.37')).toBe(0);
  expect(cmp(sub(wallet.availableBalance, (await walletAccount(w.provider)).availableBalance), '125.37')).toBe(0);
  expect(w.sandbox.commits({ operation: 'transferFunds' })).toHaveLength(1);
});

it('a wallet funding credits the on-chain deposit, transfers it on and deposits to the card once', async () => {
  const margin = (await w.provider.createSharedAccount({ accountName: 'Cluster funding' })).accountId;
  w.helper('creditMerchantWallet', { amount: '5', accountId: margin }); // pays the budget card's fee
  const cardNo = await virtualCard(w.provider, { cardTypeId: BUDGET_TYPE, accountId: margin });
  const marginBefore = (await account(w.provider, margin)).availableBalance;
  const transfersBefore = w.sandbox.commits({ operation: 'transferFunds' }).length;
  const handle = await w.client.workflow.start('walletFunding', {
    taskQueue: w.taskQueue,
    workflowId: `cluster-funding-${margin}`,
    args: [{ wait: FAST_WAIT, ...fundingToBudgetCard(margin, cardNo) }],
  });
  await until(
    () => handle.query<{ stage: string }>('fundingStatus'),
    (s) => s.stage === 'awaiting_deposit',
  );
  w.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', amount: '200' });
  const result = (await handle.result()) as WalletFundingResult;
  // USDT_TRC20: 0.5% + 1 fixed fee: 200 - 1.00 - 1 = 198 reaches the wallet and moves on.
  expect(cmp(result.receivedAmount, '198')).toBe(0);
  const deposit = result.deposit!;
  await expectMarginAfterFunding(w.provider, margin, marginBefore, '198', deposit);
  expect(cmp((await w.provider.getCardBalance({ cardNo })).amount, deposit.amount)).toBe(0);
  expect(w.sandbox.commits({ operation: 'transferFunds' }).length - transfersBefore).toBe(1);
  expect(w.sandbox.commits({ operation: 'depositCard' }).filter((c) => c.refs.cardNo === cardNo)).toHaveLength(1);
});

it('registers every search attribute on SQL visibility, KeywordList included, and the receivers signal by the routes the workers recorded in PostgreSQL', async () => {
  const cluster = clusterSettings();
  const { address, namespace, databaseUrl } = cluster;
  const connection = await Connection.connect({ address, ...temporalCallerOptions(cluster, 'reader') });
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    for (const key of cardflowSearchAttributes) {
      expect(customAttributes?.[key.name]).toBe(indexedType[key.type]);
    }
    expect(customAttributes?.CardflowOrderNos).toBe(
      temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
    );
  } finally {
    await connection.close();
  }
  // The flows above were woken by webhooks: the provider called haproxy, a receiver recorded each
  // one.
  const pool = new Pool({ connectionString: databaseUrl });
  try {
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM cardflow_webhook_deliveries WHERE entry->>'outcome' = 'signalled'",
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    // Each signalled to the workflows whose activity recorded the route of its key (order, holder,
    // address) in the same database, before the provider call: the workers' and the receivers'
    // store.
    const routed = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cardflow_webhook_deliveries d
        WHERE d.entry->>'outcome' = 'signalled' AND d.entry->>'category' IN ('card_holder', 'wallet_transaction_v2')
          AND NOT EXISTS (
            SELECT 1 FROM jsonb_array_elements_text(d.entry->'workflowIds') AS w(id)
             WHERE NOT EXISTS (SELECT 1 FROM cardflow_routes r WHERE r.workflow_id = w.id))`,
    );
    expect(routed.rows[0]!.n).toBeGreaterThan(0);
  } finally {
    await pool.end();
  }
});

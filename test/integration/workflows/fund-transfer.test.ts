/**
 * fundTransfer and sharedAccount on the dev server against the sandbox: both directions with the
 * ledger checked to the cent, a dropped response after commit moving money exactly once, an
 * unaffordable transfer refused with nothing sent, and an idempotent shared account.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { add, cmp, sub } from '../../../provider/money';
import type { FundTransferResult } from '../../../domain/fund-transfer';
import type { SharedAccountResult } from '../../../domain/shared-account';
import { account, FAST_WAIT, startCardHarness, walletAccount } from '../support/card-harness';
import { harnessPerFile } from '../support/harness';
import { sharedAccountWorkflowId } from '../../../domain/workflow-ids';

const h = harnessPerFile(startCardHarness);
let margin: string;
beforeAll(async () => {
  const created = await h.withCardWorker(() =>
    h.client.workflow.execute('sharedAccount', {
      taskQueue: h.taskQueue,
      workflowId: sharedAccountWorkflowId('Team budget'),
      args: [{ accountName: 'Team budget' }],
    }),
  );
  margin = (created as SharedAccountResult).accountId;
});

function transfer(workflowId: string, args: Record<string, unknown>) {
  return h.client.workflow.execute('fundTransfer', {
    taskQueue: h.taskQueue,
    workflowId,
    args: [{ wait: FAST_WAIT, ...args }],
  }) as Promise<FundTransferResult>;
}

async function ledgerFor(merchantOrderNo: string, bizType: 'fund_transfer' | 'fund_collection') {
  const page = await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 100, bizType });
  return page.records.filter((e) => (e.remark ?? '').startsWith(merchantOrderNo));
}

it('sharedAccount is idempotent by name: a second run finds the same MARGIN account', async () => {
  const again = (await h.withCardWorker(() =>
    h.client.workflow.execute('sharedAccount', {
      taskQueue: h.taskQueue,
      workflowId: `${sharedAccountWorkflowId('Team budget')}-again`,
      args: [{ accountName: 'Team budget' }],
    }),
  )) as SharedAccountResult;
  expect(again).toMatchObject({ accountId: margin, accountName: 'Team budget', created: false });
  const margins = (await h.provider.getAccountInfo()).filter(
    (a) => a.accountType === 'MARGIN' && a.accountName === 'Team budget',
  );
  expect(margins).toHaveLength(1);
});

it('TRANSFER wallet → margin and COLLECTION back, each confirmed in the ledger to the cent', async () => {
  const wallet = await walletAccount(h.provider);
  const walletBefore = wallet.availableBalance;
  const marginBefore = (await account(h.provider, margin)).availableBalance;

  const out = await h.withCardWorker(() =>
    transfer('transfer-out-1', {
      type: 'TRANSFER',
      amount: '125.37',
      payerAccountId: wallet.accountId,
      payeeAccountId: margin,
      remark: 'budget',
    }),
  );
  expect(out).toMatchObject({ type: 'TRANSFER', amount: '125.37', sent: true, currency: 'USD' });
  expect(out.payer).toMatchObject({ accountId: wallet.accountId, direction: 'OUT' });
  expect(out.payee).toMatchObject({ accountId: margin, direction: 'IN' });
  expect(cmp(out.payer.amount, '125.37')).toBe(0);
  expect(cmp(out.payer.afterBalance, sub(out.payer.beforeBalance, '125.37'))).toBe(0);
  expect(cmp(out.payee.afterBalance, add(out.payee.beforeBalance, '125.37'))).toBe(0);

  const back = await h.withCardWorker(() =>
    transfer('transfer-back-1', {
      type: 'COLLECTION',
      amount: '25.05',
      payerAccountId: margin,
      payeeAccountId: wallet.accountId,
    }),
  );
  expect(back).toMatchObject({ type: 'COLLECTION', amount: '25.05', sent: true });
  expect(back.payer.accountId).toBe(margin);
  expect(back.payee.accountId).toBe(wallet.accountId);

  expect(cmp((await walletAccount(h.provider)).availableBalance, sub(add(walletBefore, '25.05'), '125.37'))).toBe(0);
  expect(cmp((await account(h.provider, margin)).availableBalance, sub(add(marginBefore, '125.37'), '25.05'))).toBe(0);
  expect(await ledgerFor(out.merchantOrderNo, 'fund_transfer')).toHaveLength(2);
  expect(await ledgerFor(back.merchantOrderNo, 'fund_collection')).toHaveLength(2);
});

it('a transfer whose response is dropped after commit happens exactly once', async () => {
  const wallet = await walletAccount(h.provider);
  const walletBefore = wallet.availableBalance;
  h.sandbox.setFaults({ dropResponseRate: 1, operations: ['transferFunds'], remaining: 1 });
  let result: FundTransferResult;
  try {
    result = await h.withCardWorker(() =>
      transfer('transfer-dropped-1', {
        type: 'TRANSFER',
        amount: '10.01',
        payerAccountId: wallet.accountId,
        payeeAccountId: margin,
      }),
    );
    expect(h.sandbox.faults().remaining).toBe(0); // the drop fired
  } finally {
    h.sandbox.setFaults({ reset: true });
  }
  // The retry's "Duplicate order number" told the activity an earlier attempt went through.
  expect(result.sent).toBe(false);
  expect(await ledgerFor(result.merchantOrderNo, 'fund_transfer')).toHaveLength(2);
  expect(cmp((await walletAccount(h.provider)).availableBalance, sub(walletBefore, '10.01'))).toBe(0);
});

it('an unaffordable or misdirected transfer fails before anything is sent', async () => {
  const wallet = await walletAccount(h.provider);
  const marginBalance = (await account(h.provider, margin)).availableBalance;
  const tooMuch = await h.withCardWorker(() =>
    transfer('transfer-too-much', {
      type: 'COLLECTION',
      amount: add(marginBalance, '0.01'),
      payerAccountId: margin,
      payeeAccountId: wallet.accountId,
    }).catch((e: unknown) => e),
  );
  expect(tooMuch).toBeInstanceOf(WorkflowFailedError);
  expect((tooMuch as WorkflowFailedError).cause).toMatchObject({ type: 'InsufficientBalance' });
  const wrongWay = await h.withCardWorker(() =>
    transfer('transfer-wrong-way', {
      type: 'TRANSFER',
      amount: '1',
      payerAccountId: margin,
      payeeAccountId: wallet.accountId,
    }).catch((e: unknown) => e),
  );
  expect((wrongWay as WorkflowFailedError).cause).toMatchObject({ type: 'InvalidInput' });
  expect((wrongWay as WorkflowFailedError).cause?.message).toContain('payerAccountId');
  expect(cmp((await account(h.provider, margin)).availableBalance, marginBalance)).toBe(0);
});

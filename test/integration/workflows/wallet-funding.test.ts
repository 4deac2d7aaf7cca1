/**
 * walletFunding end to end on the dev server: an on-chain deposit credited by the sandbox helper,
 * moved to a MARGIN account and deposited to a card charged to it (both as child workflows);
 * failed and expired deposits move nothing; dropped responses of the transfer and the card
 * deposit still move money exactly once.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { add, cmp } from '../../../api/money';
import type { WalletFundingResult } from '../../../domain/wallet-funding';
import {
  account,
  expectMarginAfterFunding,
  BUDGET_TYPE,
  eventually,
  FAST_WAIT,
  startCardHarness,
  virtualCard,
  walletAccount,
} from '../support/card-harness';
import { harnessPerFile } from '../support/harness';

const h = harnessPerFile(startCardHarness);
let margin: string;
let cardNo: string;
beforeAll(async () => {
  margin = (await h.provider.createSharedAccount({ accountName: 'Funding pool' })).accountId;
  await h.helper('creditMerchantWallet', { amount: '5', accountId: margin }); // pays the budget card's fee
  cardNo = await virtualCard(h.provider, { cardTypeId: BUDGET_TYPE, accountId: margin });
});

async function fund(
  workflowId: string,
  args: Record<string, unknown>,
  onChain?: Record<string, unknown>,
): Promise<WalletFundingResult | unknown> {
  return h.withCardWorker(async () => {
    const handle = await h.client.workflow.start('walletFunding', {
      taskQueue: h.taskQueue,
      workflowId,
      args: [{ coinKey: 'USDT_TRC20', wait: FAST_WAIT, ...args }],
    });
    await eventually(
      () => handle.query<{ stage: string }>('fundingStatus'),
      (s) => s.stage === 'awaiting_deposit',
      'awaiting_deposit',
    );
    if (onChain) await h.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', ...onChain });
    return handle.result().catch((e: unknown) => e);
  });
}

async function cardDeposits() {
  return (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, cardNo, type: 'deposit' })).records;
}

it('credits the on-chain deposit after fees, transfers it to the MARGIN account and deposits the most it pays for to the card', async () => {
  const walletBefore = (await walletAccount(h.provider)).availableBalance;
  const marginBefore = (await account(h.provider, margin)).availableBalance;
  const result = (await fund(
    'funding-1',
    { expectedAmount: '200', transfer: { payeeAccountId: margin }, cardDeposit: { cardNo, cardTypeId: BUDGET_TYPE } },
    { amount: '200' },
  )) as WalletFundingResult;

  // USDT_TRC20: 0.5% + 1 fixed fee -> 200 - 1.00 - 1 = 198.
  expect(result).toMatchObject({ coinKey: 'USDT_TRC20', currency: 'USD' });
  expect(cmp(result.txAmount!, '200')).toBe(0);
  expect(cmp(result.receivedAmount, '198')).toBe(0);
  expect(result.transfer).toMatchObject({ amount: result.receivedAmount });
  const deposit = result.deposit!;
  expect(cmp(add(deposit.amount, deposit.fee), '198')).toBeLessThanOrEqual(0);
  expect(cmp(add(deposit.amount, deposit.fee, '0.01'), '198')).toBeGreaterThan(0); // nothing larger would fit (fee rounds up)

  // The wallet got the deposit and passed it on; the margin got it and paid the card deposit + fee.
  expect(cmp((await walletAccount(h.provider)).availableBalance, walletBefore)).toBe(0);
  await expectMarginAfterFunding(h.provider, margin, marginBefore, '198', deposit);
  expect(cmp((await h.provider.getCardBalance({ cardNo })).amount, deposit.amount)).toBe(0);
  expect(await cardDeposits()).toHaveLength(1);
});

it('a failed deposit ends with its reason and moves nothing', async () => {
  const walletBefore = (await walletAccount(h.provider)).availableBalance;
  const marginBefore = (await account(h.provider, margin)).availableBalance;
  const error = await fund(
    'funding-failed',
    { expectedAmount: '77', transfer: { payeeAccountId: margin } },
    { amount: '77', outcome: 'fail' },
  );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'DepositFailed' });
  expect((error as WorkflowFailedError).cause?.message).toContain('Deposit rejected by risk control');
  expect(cmp((await walletAccount(h.provider)).availableBalance, walletBefore)).toBe(0);
  expect(cmp((await account(h.provider, margin)).availableBalance, marginBefore)).toBe(0);
});

it('a deposit that never arrives expires with a clear reason', async () => {
  const error = await fund('funding-expired', { expectedAmount: '3.33', deadlineMs: 2_000 });
  expect((error as WorkflowFailedError).cause).toMatchObject({ type: 'DepositExpired' });
  expect((error as WorkflowFailedError).cause?.message).toContain('nothing was moved');
});

it('dropped responses of the transfer and the card deposit still move the money once', async () => {
  const marginBefore = (await account(h.provider, margin)).availableBalance;
  const depositsBefore = (await cardDeposits()).length;
  h.sandbox.setFaults({ dropResponseRate: 1, operations: ['transferFunds', 'depositCard'], remaining: 2 });
  let result: WalletFundingResult;
  try {
    result = (await fund(
      'funding-faults',
      {
        expectedAmount: '150',
        transfer: { payeeAccountId: margin },
        cardDeposit: { cardNo, cardTypeId: BUDGET_TYPE, amount: '100' },
      },
      { amount: '150' },
    )) as WalletFundingResult;
    expect(h.sandbox.faults().remaining).toBe(0); // both drops fired
  } finally {
    h.sandbox.setFaults({ reset: true });
  }
  // 150 - 0.75 - 1 = 148.25 credited and moved; 100 + 1% fee deposited.
  expect(cmp(result.receivedAmount, '148.25')).toBe(0);
  expect(result.deposit).toMatchObject({ amount: '100' });
  expect(await cardDeposits()).toHaveLength(depositsBefore + 1);
  const transfers = (
    await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 100, bizType: 'fund_transfer', accountId: margin })
  ).records.filter((e) => (e.remark ?? '').startsWith(result.transfer!.merchantOrderNo));
  expect(transfers).toHaveLength(1);
  await expectMarginAfterFunding(h.provider, margin, marginBefore, '148.25', {
    amount: '100',
    fee: result.deposit!.fee,
  });
});

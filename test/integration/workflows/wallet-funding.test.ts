/**
 * walletFunding end to end on the dev server: an on-chain deposit credited by the sandbox helper,
 * moved to a MARGIN account and deposited to a card charged to it (both as child workflows);
 * failed and expired deposits move nothing; dropped responses of the transfer and the card
 * deposit still move money exactly once. When it stops after the credit (a failure, a cancel),
 * the transfer's unspent part goes back to the WALLET once, and the customer's credit left in the
 * WALLET (no wallet withdraw) is named in an open strandedMoney record.
 */
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { add, cmp } from '../../../provider/money';
import { deriveMerchantOrderNo } from '../../../domain/merchant-order-no';
import { fundingStatusQuery, type WalletFundingResult, type WalletFundingStatus } from '../../../domain/wallet-funding';
import { fundTransferWorkflow } from '../../../domain/workflows';
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

/**
 * Runs a wallet funding to its end (`during` acts while it runs); its result or failure, and its
 * last status.
 */
async function fundWith(
  workflowId: string,
  args: Record<string, unknown>,
  onChain?: Record<string, unknown>,
  during?: (handle: WorkflowHandle) => Promise<void>,
): Promise<{ outcome: WalletFundingResult | unknown; status: WalletFundingStatus }> {
  return h.withCardWorker(async () => {
    const handle = await h.client.workflow.start('walletFunding', {
      taskQueue: h.taskQueue,
      workflowId,
      args: [{ coinKey: 'USDT_TRC20', wait: FAST_WAIT, ...args }],
    });
    await eventually(
      () => handle.query(fundingStatusQuery),
      (s) => s.stage === 'awaiting_deposit',
      'awaiting_deposit',
    );
    if (onChain) await h.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', ...onChain });
    await during?.(handle);
    const outcome = await handle.result().catch((e: unknown) => e);
    return { outcome, status: await handle.query(fundingStatusQuery) };
  });
}

async function fund(
  workflowId: string,
  args: Record<string, unknown>,
  onChain?: Record<string, unknown>,
): Promise<WalletFundingResult | unknown> {
  return (await fundWith(workflowId, args, onChain)).outcome;
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

describe('stopped after the credit', () => {
  /** How many times the transfer and its return were sent, by key. */
  function sent(workflowId: string): { transfer: number; collection: number } {
    const keys = fundTransferWorkflow.orderKeys(`${workflowId}/transfer`);
    const collection = deriveMerchantOrderNo(
      `${workflowId}/transfer.return`,
      fundTransferWorkflow.orderSteps.collection,
    );
    const commits = h.sandbox.commits({ operation: 'transferFunds' });
    return {
      transfer: commits.filter((c) => c.refs.merchantOrderNo === keys.transfer).length,
      collection: commits.filter((c) => c.refs.merchantOrderNo === collection).length,
    };
  }

  /**
   * The WALLET holds its start plus the customer's credit (named), the MARGIN account its start.
   */
  async function expectCreditNamed(
    status: WalletFundingStatus,
    before: { wallet: string; margin: string },
    workflowId: string,
  ) {
    const credit = status.receivedAmount!;
    const wallet = await walletAccount(h.provider);
    const { returned, remaining } = status.compensation!;
    expect(returned).toEqual([expect.objectContaining({ fromAccountId: margin, toAccountId: wallet.accountId })]);
    expect(cmp(returned[0]!.amount, credit)).toBe(0);
    expect(remaining).toEqual([expect.objectContaining({ where: 'WALLET', account: wallet.accountId })]);
    expect(cmp(remaining[0]!.amount, credit)).toBe(0);
    const record = await h.client.workflow.getHandle(status.compensation!.strandedRecord!).describe();
    expect(record.status.name).toBe('RUNNING');
    expect(cmp(wallet.availableBalance, add(before.wallet, credit))).toBe(0);
    expect(cmp((await account(h.provider, margin)).availableBalance, before.margin)).toBe(0);
    expect(sent(workflowId)).toEqual({ transfer: 1, collection: 1 });
  }

  const balances = async () => ({
    wallet: (await walletAccount(h.provider)).availableBalance,
    margin: (await account(h.provider, margin)).availableBalance,
  });

  it('a card deposit failed for good: the transfer goes back once though both answers were lost', async () => {
    const before = await balances();
    // The first drop hits the transfer, the second the COLLECTION that returns it.
    h.sandbox.setFaults({ dropResponseRate: 1, operations: ['transferFunds'], remaining: 2 });
    let ended: Awaited<ReturnType<typeof fundWith>>;
    try {
      ended = await fundWith(
        'funding-deposit-failed',
        {
          expectedAmount: '90',
          transfer: { payeeAccountId: margin },
          // Cents .13: the provider fails the deposit.
          cardDeposit: { cardNo, cardTypeId: BUDGET_TYPE, amount: '50.13' },
        },
        { amount: '90' },
      );
      expect(h.sandbox.faults().remaining).toBe(0);
    } finally {
      h.sandbox.setFaults({ reset: true });
    }
    expect((ended.outcome as WorkflowFailedError).cause).toMatchObject({ type: 'OperationFailed' });
    expect((ended.outcome as WorkflowFailedError).cause?.message).toMatch(
      /returned [\d.]+ USD .*; left [\d.]+ USD in WALLET/,
    );
    await expectCreditNamed(ended.status, before, 'funding-deposit-failed');
  });

  it("a credit that does not cover the card type's minimum deposit goes back from the MARGIN account", async () => {
    const before = await balances();
    // 2 - 0.01 - 1 = 0.99 credited: under the budget card's minimum of 1 plus its fee.
    const { outcome, status } = await fundWith(
      'funding-too-small',
      { expectedAmount: '2', transfer: { payeeAccountId: margin }, cardDeposit: { cardNo, cardTypeId: BUDGET_TYPE } },
      { amount: '2' },
    );
    expect((outcome as WorkflowFailedError).cause).toMatchObject({ type: 'NotEligible' });
    await expectCreditNamed(status, before, 'funding-too-small');
  });

  it('cancelled once the transfer was sent: it finishes, then goes back', async () => {
    const before = await balances();
    const workflowId = 'funding-cancelled';
    // The ledger unreadable: the transfer is sent but not yet confirmed when the cancel arrives.
    h.sandbox.setFaults({ errorRate: 1, operations: ['listLedgerEntries'] });
    let ended: Awaited<ReturnType<typeof fundWith>>;
    try {
      ended = await fundWith(
        workflowId,
        {
          expectedAmount: '60',
          transfer: { payeeAccountId: margin },
          cardDeposit: { cardNo, cardTypeId: BUDGET_TYPE },
        },
        { amount: '60' },
        async (handle) => {
          await eventually(
            async () => sent(workflowId).transfer,
            (n) => n === 1,
            'the transfer sent',
          );
          await handle.cancel();
          await eventually(
            async () =>
              (await handle.fetchHistory()).events?.some((e) => e.workflowExecutionCancelRequestedEventAttributes),
            (asked) => asked === true,
            'the cancel recorded',
          );
          h.sandbox.setFaults({ reset: true });
        },
      );
    } finally {
      h.sandbox.setFaults({ reset: true });
    }
    expect((ended.outcome as WorkflowFailedError).cause?.name).toBe('CancelledFailure');
    expect(ended.status.stage).toBe('cancelled');
    await expectCreditNamed(ended.status, before, workflowId);
  });
});

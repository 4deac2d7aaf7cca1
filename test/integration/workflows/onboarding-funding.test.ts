/**
 * customerOnboarding's funding sources on the dev server against the sandbox: shared_account (a
 * WALLET → MARGIN fundTransfer child before card creation, the card charged to the MARGIN
 * account; ledger checked to the cent), the older budgetTopUp field going the same way, and
 * on_chain (a walletFunding child credited by the sandbox's on-chain deposit helper, deposited to
 * the card; progress shows the address and the deposit status).
 */
import { add, cmp, sub } from '../../../provider/money';
import { getPaymentInstructions } from '../../../client/onboarding';
import { progressQuery, type OnboardingInput, type OnboardingResult } from '../../../domain/customer-onboarding';
import { childWorkflowId, onboardingWorkflowId } from '../../../domain/workflow-ids';
import { WorkflowTypes, fundTransferWorkflow } from '../../../domain/workflows';
import {
  account,
  BUDGET_TYPE,
  eventually,
  FAST_WAIT,
  startCardHarness,
  SUBSCRIPTION_TYPE,
  walletAccount,
} from '../support/card-harness';
import { customerRef, failureOf, startOnboardingWorkflow, harnessPerFile } from '../support/harness';

jest.setTimeout(180_000);

const h = harnessPerFile(startCardHarness);

const start = (input: OnboardingInput) => startOnboardingWorkflow(h, input);

async function ledger(accountId: string, bizType: 'fund_transfer') {
  return (await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 100, accountId, bizType })).records;
}

describe('shared_account funding', () => {
  let margin: string;
  beforeAll(async () => {
    margin = (
      await h.provider.createSharedAccount({ accountName: `Onboarding pool ${Math.random().toString(36).slice(2, 8)}` })
    ).accountId;
  });

  it('moves exactly what the card costs to the MARGIN account first, then charges the card and its deposit to it (to the cent)', async () => {
    const walletBefore = await walletAccount(h.provider);
    const marginBefore = (await account(h.provider, margin)).availableBalance;
    const ref = customerRef('shared');
    const { result, progress } = await h.withCardWorker(async () => {
      const handle = await start({
        customerRef: ref,
        cardTypeId: BUDGET_TYPE,
        initialDeposit: '100',
        funding: { source: 'shared_account', accountId: margin },
        wait: FAST_WAIT,
      });
      return { result: (await handle.result()) as OnboardingResult, progress: await handle.query(progressQuery) };
    });
    // Budget bin: card fee 1, deposit fee 1% -> 1 + 100 + 1.00 = 102.00 moved, all of it spent.
    const transferId = childWorkflowId(onboardingWorkflowId(ref), 'transfer');
    expect(result.topUpMerchantOrderNo).toBe(fundTransferWorkflow.orderKeys(transferId).transfer);
    expect(result.deposit).toMatchObject({ amount: '100', fee: '1.00' });
    expect(progress.stages.map((s) => s.stage)).toEqual([
      'validating',
      'transferring',
      'creating_card',
      'funding',
      'completed',
    ]);
    expect(progress.funding).toMatchObject({
      source: 'shared_account',
      accountId: margin,
      transferWorkflowId: transferId,
    });

    const moved = (await ledger(margin, 'fund_transfer')).filter((e) =>
      (e.remark ?? '').startsWith(result.topUpMerchantOrderNo!),
    );
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ direction: 'IN' });
    expect(cmp(moved[0]!.amount, '102.00')).toBe(0);
    const walletOut = (await ledger(walletBefore.accountId, 'fund_transfer')).filter((e) =>
      (e.remark ?? '').startsWith(result.topUpMerchantOrderNo!),
    );
    expect(walletOut).toHaveLength(1);
    expect(walletOut[0]).toMatchObject({ direction: 'OUT' });
    expect(cmp(walletOut[0]!.amount, '102.00')).toBe(0);

    expect(cmp((await walletAccount(h.provider)).availableBalance, sub(walletBefore.availableBalance, '102.00'))).toBe(
      0,
    );
    expect(cmp((await account(h.provider, margin)).availableBalance, marginBefore)).toBe(0);
    expect(cmp((await h.provider.getCardBalance({ cardNo: result.card.cardNo })).amount, '100')).toBe(0);
  });

  it('budgetTopUp (the older field) is the same funding: a fundTransfer child, the card charged to the payee', async () => {
    const wallet = await walletAccount(h.provider);
    const marginBefore = (await account(h.provider, margin)).availableBalance;
    const ref = customerRef('topup');
    const result = await h.withCardWorker(async () => {
      const handle = await start({
        customerRef: ref,
        cardTypeId: BUDGET_TYPE,
        initialDeposit: '20',
        budgetTopUp: { payerAccountId: wallet.accountId, payeeAccountId: margin, amount: '30' },
        wait: FAST_WAIT,
      });
      return (await handle.result()) as OnboardingResult;
    });
    const transfer = await h.client.workflow
      .getHandle(childWorkflowId(onboardingWorkflowId(ref), 'transfer'))
      .describe();
    expect(transfer.type).toBe(WorkflowTypes.fundTransfer);
    // 30 in; card fee 1 and 20 + 0.20 out.
    expect(cmp((await account(h.provider, margin)).availableBalance, sub(add(marginBefore, '30'), '21.20'))).toBe(0);
    expect(cmp((await h.provider.getCardBalance({ cardNo: result.card.cardNo })).amount, '20')).toBe(0);
  });

  it('refuses, before anything moves, a transfer that would leave the MARGIN account short', async () => {
    const walletBefore = (await walletAccount(h.provider)).availableBalance;
    const failure = await h.withCardWorker(async () => {
      const handle = await start({
        customerRef: customerRef('short'),
        cardTypeId: BUDGET_TYPE,
        initialDeposit: '100',
        funding: { source: 'shared_account', accountId: margin, amount: '50' },
        wait: FAST_WAIT,
      });
      return failureOf(handle);
    });
    expect(failure).toMatchObject({
      type: 'InsufficientBalance',
      message: expect.stringMatching(/funding\.amount: 50 leaves account \d+ [\d.]+ USD short of the 102/),
    });
    expect(cmp((await walletAccount(h.provider)).availableBalance, walletBefore)).toBe(0);
  });
});

describe('on_chain funding', () => {
  it('shows where to pay, waits for the customer’s deposit, credits it after fees and deposits the most it pays for to the card', async () => {
    const walletBefore = (await walletAccount(h.provider)).availableBalance;
    const ref = customerRef('onchain');
    const { result, waiting, progress } = await h.withCardWorker(async () => {
      const handle = await start({
        customerRef: ref,
        cardTypeId: SUBSCRIPTION_TYPE,
        funding: { source: 'on_chain', coinKey: 'USDT_TRC20', expectedAmount: '120' },
        wait: FAST_WAIT,
      });
      await eventually(
        () => handle.query(progressQuery),
        (p) => (p.stage === 'awaiting_payment' && p.funding?.address !== undefined) || p.stage === 'failed',
        'awaiting_payment',
      );
      const instructions = await getPaymentInstructions(h.client, ref);
      await h.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', amount: '120', address: instructions?.address });
      return {
        waiting: instructions,
        result: (await handle.result()) as OnboardingResult,
        progress: await handle.query(progressQuery),
      };
    });
    const addresses = await h.provider.listWalletAddresses({});
    expect(waiting).toEqual({
      source: 'on_chain',
      workflowId: childWorkflowId(onboardingWorkflowId(ref), 'funding'),
      coinKey: 'USDT_TRC20',
      chain: expect.any(String),
      address: addresses.find((a) => a.coinKey === 'USDT_TRC20')?.address,
      expectedAmount: '120',
      depositStatus: 'awaiting',
    });
    // USDT_TRC20: 0.5% + 1 -> 120 - 0.60 - 1 = 118.40 credited; subscription bin fee 2% + 0.50.
    expect(cmp(result.onChainDeposit!.receivedAmount, '118.40')).toBe(0);
    const deposit = result.deposit!;
    expect(cmp(add(deposit.amount, deposit.fee), '118.40')).toBeLessThanOrEqual(0);
    expect(cmp(add(deposit.amount, deposit.fee, '0.01'), '118.40')).toBeGreaterThan(0);
    expect(progress.stages.map((s) => s.stage)).toEqual([
      'validating',
      'creating_card',
      'awaiting_payment',
      'completed',
    ]);
    expect(progress.funding).toMatchObject({
      depositStatus: 'success',
      walletOrderNo: result.onChainDeposit!.walletOrderNo,
      receivedAmount: result.onChainDeposit!.receivedAmount,
    });
    expect(cmp((await h.provider.getCardBalance({ cardNo: result.card.cardNo })).amount, deposit.amount)).toBe(0);
    // The merchant paid the card fee (2); the customer's credit paid the deposit and its fee.
    expect(
      cmp(
        (await walletAccount(h.provider)).availableBalance,
        sub(add(walletBefore, '118.40'), add('2', deposit.amount, deposit.fee)),
      ),
    ).toBe(0);
  });

  it('refuses a coin that takes no deposits before any card is made', async () => {
    const walletBefore = (await walletAccount(h.provider)).availableBalance;
    const cardsBefore = (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, type: 'create' })).total;
    const failure = await h.withCardWorker(async () => {
      const handle = await start({
        customerRef: customerRef('badcoin'),
        cardTypeId: SUBSCRIPTION_TYPE,
        funding: { source: 'on_chain', coinKey: 'USDC_ERC20', expectedAmount: '50' },
        wait: FAST_WAIT,
      });
      return failureOf(handle);
    });
    expect(failure).toMatchObject({
      type: 'NotEligible',
      message: expect.stringContaining('funding.coinKey: coin USDC_ERC20 does not take deposits'),
    });
    expect((await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, type: 'create' })).total).toBe(
      cardsBefore,
    );
    expect(cmp((await walletAccount(h.provider)).availableBalance, walletBefore)).toBe(0);
  });
});

/**
 * Every lifecycle path under the sandbox's fault injection at once: provider errors (HTTP 500,
 * nothing done) and dropped responses (done, answer lost) on every operation, reads included.
 * Each workflow completes, and the money moved is exactly what one run of each moves.
 */
import { add, cmp, sub } from '../../../provider/money';
import type { FundTransferResult } from '../../../domain/fund-transfer';
import type { ProviderRetry } from '../../../domain/wait-profile';
import type { WalletFundingResult } from '../../../domain/wallet-funding';
import {
  account,
  eventually,
  FAST_WAIT,
  physicalCard,
  startCardHarness,
  SUBSCRIPTION_TYPE,
  virtualCard,
  walletAccount,
} from '../support/card-harness';
import { harnessPerFile } from '../support/harness';

const h = harnessPerFile(startCardHarness);

// With 30% of calls failing and 20% of answers dropped, an activity attempt that makes two or three
// provider calls (prepareDepositAddress: coins, addresses, maybe a new address; activateWithCode:
// look up, read the code, activate) fails about 60-77% of the time. Under the production retry
// policy (0.5 s doubling to 1 min, 20 attempts) eight failures in a row (0.6^8, over 1% of runs)
// put the next attempt past two minutes, and twenty fail the step. These workflows retry every few
// seconds instead, with attempts to spare, so the test measures exactly-once under faults rather
// than the luck of the seed (the sandbox draws a fresh one per run).
const UNDER_FAULTS_RETRY: ProviderRetry = { initialIntervalMs: 500, maximumIntervalMs: 4_000, maximumAttempts: 100 };

// Hang guards, not timing assertions.
const UNDER_FAULTS_GUARD_MS = 420_000;
const SETUP_UNDER_FAULTS_MS = 180_000;

it(
  'transfer, wallet funding with a card deposit, freeze/unfreeze and both activations complete under faults, moving money once',
  async () => {
    const margin = (await h.provider.createSharedAccount({ accountName: 'Faulty pool' })).accountId;
    const cardNo = await virtualCard(h.provider, { deposit: '20' });
    // Frozen meanwhile, so a card of its own: the funding's deposit (now signalled by webhook,
    // fast) would otherwise race the freeze and be refused.
    const freezeCardNo = await virtualCard(h.provider);
    const codeCard = await physicalCard(h.provider);
    const orderCard = await physicalCard(h.provider);
    await h.helper('issueActivationCode', { cardNo: codeCard.cardNo });
    const wallet = await walletAccount(h.provider);
    const walletBefore = wallet.availableBalance;
    const marginBefore = (await account(h.provider, margin)).availableBalance;
    const cardBefore = (await h.provider.getCardBalance({ cardNo })).amount;

    const options = (workflowId: string, args: Record<string, unknown>) => ({
      taskQueue: h.taskQueue,
      workflowId,
      args: [{ wait: { ...FAST_WAIT, providerRetry: UNDER_FAULTS_RETRY }, ...args }],
    });
    h.sandbox.setFaults({ errorRate: 0.3, dropResponseRate: 0.2 });
    let results: { transfer: FundTransferResult; funding: WalletFundingResult };
    try {
      results = await h.withCardWorker(async () => {
        const funding = await h.client.workflow.start(
          'walletFunding',
          options('faults-funding', {
            coinKey: 'USDT_BEP20',
            expectedAmount: '60',
            cardDeposit: { cardNo, cardTypeId: SUBSCRIPTION_TYPE, amount: '30' },
          }),
        );
        await eventually(
          () => funding.query<{ stage: string }>('fundingStatus'),
          (s) => s.stage === 'awaiting_deposit',
          'awaiting_deposit',
          SETUP_UNDER_FAULTS_MS,
        );
        await h.helper('creditWalletDeposit', { coinKey: 'USDT_BEP20', amount: '60' });
        const [transfer, fundingResult] = await Promise.all([
          h.client.workflow.execute(
            'fundTransfer',
            options('faults-transfer', {
              type: 'TRANSFER',
              amount: '33.33',
              payerAccountId: wallet.accountId,
              payeeAccountId: margin,
            }),
          ),
          funding.result(),
          h.client.workflow
            .execute('cardFreeze', options('faults-freeze', { cardNo: freezeCardNo }))
            .then(() =>
              h.client.workflow.execute('cardUnfreeze', options('faults-unfreeze', { cardNo: freezeCardNo })),
            ),
          h.client.workflow.execute(
            'physicalCardActivation',
            options('faults-activation-code', {
              cardNo: codeCard.cardNo,
              route: 'activation_code',
              sealedPin: h.seal('246810'),
            }),
          ),
          h.client.workflow.execute(
            'physicalCardActivation',
            options('faults-activation-order', {
              cardNo: orderCard.cardNo,
              route: 'work_order',
              workOrder: { files: [{ ref: 'card-photo.png' }] },
            }),
          ),
        ]);
        return { transfer: transfer as FundTransferResult, funding: fundingResult as WalletFundingResult };
      });
    } finally {
      h.sandbox.setFaults({ reset: true });
    }

    // USDT_BEP20: 0.5% + 0.50 -> 60 - 0.30 - 0.50 = 59.20 credited; 30 + 2% + 0.50 = 31.10 paid for
    // the card deposit.
    expect(cmp(results.funding.receivedAmount, '59.2')).toBe(0);
    expect(results.funding.deposit).toMatchObject({ amount: '30' });
    const depositCost = add('30', results.funding.deposit!.fee);
    expect(
      cmp(
        (await walletAccount(h.provider)).availableBalance,
        sub(add(walletBefore, '59.2'), add('33.33', depositCost)),
      ),
    ).toBe(0);
    expect(cmp((await account(h.provider, margin)).availableBalance, add(marginBefore, '33.33'))).toBe(0);
    expect(cmp((await h.provider.getCardBalance({ cardNo })).amount, add(cardBefore, '30'))).toBe(0);

    const ops = (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, cardNo })).records;
    expect(ops.filter((o) => o.type === 'deposit')).toHaveLength(2); // the fixture's and the funding's
    const freezeOps = (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, cardNo: freezeCardNo }))
      .records;
    expect(freezeOps.filter((o) => o.type === 'Freeze')).toHaveLength(1);
    expect(freezeOps.filter((o) => o.type === 'UnFreeze')).toHaveLength(1);
    const transferLegs = (
      await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 100, bizType: 'fund_transfer' })
    ).records.filter((e) => (e.remark ?? '').startsWith(results.transfer.merchantOrderNo));
    expect(transferLegs).toHaveLength(2);
    expect((await h.provider.listWorkOrders({ target: orderCard.cardNo, pageSize: 100 })).records).toHaveLength(1);
    for (const card of [codeCard.cardNo, orderCard.cardNo])
      expect((await h.provider.getCardInfo({ cardNo: card })).status).toBe('Normal');
  },
  UNDER_FAULTS_GUARD_MS,
);

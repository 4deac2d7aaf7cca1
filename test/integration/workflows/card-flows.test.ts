import type { WorkflowFailedError } from '@temporalio/client';
import type { CardDepositResult } from '../../../domain/card-deposit';
import type { CardIssuanceResult } from '../../../domain/card-issuance';
import { WorkflowTypes } from '../../../domain/workflows';
import {
  CARD_TYPES,
  FAST_WAIT,
  cardOperations,
  customerRef,
  startHarness,
  walletBalance,
  harnessPerFile,
  type Harness,
} from '../support/harness';

const h = harnessPerFile(startHarness);

async function issue(harness: Harness, args: Record<string, unknown>): Promise<CardIssuanceResult> {
  const handle = await harness.client.workflow.start(WorkflowTypes.cardIssuance, {
    workflowId: `card-${customerRef('issue')}`,
    taskQueue: harness.taskQueue,
    args: [{ wait: FAST_WAIT, ...args }],
  });
  return (await handle.result()) as CardIssuanceResult;
}

async function deposit(
  harness: Harness,
  args: Record<string, unknown>,
): Promise<{ result?: CardDepositResult; failure?: unknown }> {
  const handle = await harness.client.workflow.start(WorkflowTypes.cardDeposit, {
    workflowId: `deposit-${customerRef('deposit')}`,
    taskQueue: harness.taskQueue,
    args: [{ wait: FAST_WAIT, cardTypeId: CARD_TYPES.noHolderNoDeposit, ...args }],
  });
  return handle.result().then(
    (result) => ({ result: result as CardDepositResult }),
    (e: WorkflowFailedError) => ({ failure: e.cause }),
  );
}

/** Issues a card of the holderless type and deposits `amount` onto it, on `harness`'s worker. */
function depositOnNewCard(harness: Harness, amount: string) {
  return harness.withWorker(async () => {
    const issued = await issue(harness, { cardTypeId: CARD_TYPES.noHolderNoDeposit });
    return { card: issued, outcome: await deposit(harness, { cardNo: issued.cardNo, amount }) };
  });
}

describe('cardIssuance', () => {
  it('creates a card and returns its cardNo and balance, never sensitive data', async () => {
    const result = await h.withWorker(() => issue(h, { cardTypeId: CARD_TYPES.noHolderNoDeposit }));
    expect(result).toMatchObject({
      cardStatus: 'Normal',
      initialDeposit: { amount: expect.stringMatching(/^0/), fee: expect.stringMatching(/^0/) },
    });
    expect(result.balance?.currency).toBe('USD');
    expect(JSON.stringify(result)).not.toMatch(/cvv|cardNumber|expireDate/);
    expect((await cardOperations(h.provider, { type: 'create', cardNo: result.cardNo })).map((r) => r.status)).toEqual([
      'success',
    ]);
  });

  it('in BUDGET_CARD mode tops up the shared account by fund transfer first and charges the card to it', async () => {
    const accounts = await h.provider.getAccountInfo();
    const wallet = accounts.find((a) => a.accountType === 'WALLET')!;
    const margin = await h.provider.createSharedAccount({ accountName: `budget ${customerRef('m')}` });
    const result = await h.withWorker(() =>
      issue(h, {
        cardTypeId: CARD_TYPES.budget,
        budgetTopUp: { payerAccountId: wallet.accountId, payeeAccountId: margin.accountId, amount: '50' },
      }),
    );
    expect(result.topUpMerchantOrderNo).toMatch(/^CF[0-9a-f]+$/);
    // 50 transferred in, card fee 1 charged to the shared account.
    expect((await h.provider.getAccount({ accountId: margin.accountId })).availableBalance).toMatch(/^49(\.0+)?$/);
  });
});

describe('cardDeposit', () => {
  it('deposits with the exact fee and takes amount + fee from the wallet', async () => {
    const { result, before } = await h.withWorker(async () => {
      const card = await issue(h, { cardTypeId: CARD_TYPES.noHolderNoDeposit });
      const walletBefore = await walletBalance(h.provider);
      return { result: (await deposit(h, { cardNo: card.cardNo, amount: '33.33' })).result, before: walletBefore };
    });
    // 33.33 × 2% = 0.6666 → 0.67 (rounded up) + 0.50 fixed
    expect(result).toMatchObject({ amount: '33.33', fee: '1.17', balance: { amount: '33.33' } });
    const after = await walletBalance(h.provider);
    expect(Number(before) - Number(after)).toBeCloseTo(34.5, 2);
    expect(await cardOperations(h.provider, { type: 'deposit', cardNo: result!.cardNo })).toHaveLength(1);
  });

  it('refuses an amount outside rechargeMin/MaxQuota with nothing sent', async () => {
    const { card, outcome } = await depositOnNewCard(h, '4.99');
    expect(outcome.failure).toMatchObject({
      type: 'NotEligible',
      message: expect.stringMatching(/^amount: must be between 5/),
    });
    expect(await cardOperations(h.provider, { type: 'deposit', cardNo: card.cardNo })).toHaveLength(0);
  });
});

describe('cardDeposit from a wallet that cannot pay', () => {
  const poor = harnessPerFile(() => startHarness({ walletBalance: '12.00' }));

  it('checks the balance first and sends nothing when amount + fee exceed it', async () => {
    const { card, outcome } = await depositOnNewCard(poor, '10');
    // 12 - 2 card fee = 10 left; 10 + 0.70 fee does not fit.
    expect(outcome.failure).toMatchObject({
      type: 'InsufficientBalance',
      message: expect.stringMatching(/needs 10.7 USD/),
    });
    expect(await cardOperations(poor.provider, { type: 'deposit', cardNo: card.cardNo })).toHaveLength(0);
    expect(await walletBalance(poor.provider)).toMatch(/^10(\.0+)?$/);
  });
});

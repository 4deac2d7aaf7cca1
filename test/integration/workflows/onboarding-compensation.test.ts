/**
 * customerOnboarding undoes its shared-account transfer when a later step fails for good or an
 * operator cancels: what the transfer left unspent in the MARGIN account goes back to the WALLET
 * by a COLLECTION keyed by its own merchantOrderNo (sent once, even when its answer is lost); a
 * created card keeps its money and progress says so. On the dev server against the sandbox; each
 * case checks the merchant's money to the cent: WALLET and MARGIN end where they started, less
 * exactly what the created card holds and the provider's fees for it.
 */
import { add, cmp, sub } from '../../../provider/money';
import type { CompensationOutcome } from '../../../domain/compensation';
import {
  progressQuery,
  type OnboardingInput,
  type OnboardingProgress,
  type OnboardingResult,
} from '../../../domain/customer-onboarding';
import { deriveMerchantOrderNo } from '../../../domain/merchant-order-no';
import { childWorkflowId, onboardingWorkflowId } from '../../../domain/workflow-ids';
import { cardDepositWorkflow, cardIssuanceWorkflow, fundTransferWorkflow } from '../../../domain/workflows';
import {
  account,
  approvedPhysicalHolder,
  BUDGET_TYPE,
  eventually,
  FAST_WAIT,
  PHYSICAL_TYPE,
  printedCardNumber,
  startCardHarness,
  walletAccount,
} from '../support/card-harness';
import { cliOn, customerRef, failureOf, harnessPerFile, startOnboardingWorkflow } from '../support/harness';
import type { WorkflowHandle } from '@temporalio/client';
import { ExitCodes } from '../../../client/cli/context';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';

/** Gift card: no holder, the deposit goes with create card (25..500 at 3%), card fee 3. */
const GIFT_TYPE = CARD_TYPE_IDS.gift;

jest.setTimeout(180_000);

const h = harnessPerFile(startCardHarness);

/** A fresh MARGIN account, so its balance is this test's alone. */
async function freshMargin(): Promise<string> {
  const name = `Compensation ${Math.random().toString(36).slice(2, 8)}`;
  return (await h.provider.createSharedAccount({ accountName: name })).accountId;
}

/** The COLLECTIONs sent with the return key of `ref`'s transfer child `step`. */
function collectionsOf(ref: string, step = 'transfer'): number {
  const key = deriveMerchantOrderNo(
    `${onboardingWorkflowId(ref)}/${step}.return`,
    fundTransferWorkflow.orderSteps.collection,
  );
  return h.sandbox.commits({ operation: 'transferFunds' }).filter((c) => c.refs.merchantOrderNo === key).length;
}

function keyOf(ref: string, child: 'card' | 'deposit'): string {
  const id = childWorkflowId(onboardingWorkflowId(ref), child);
  return child === 'card' ? cardIssuanceWorkflow.orderKeys(id).create : cardDepositWorkflow.orderKeys(id).deposit;
}

async function operationStatus(merchantOrderNo: string): Promise<string | undefined> {
  return (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 10, merchantOrderNo })).records[0]?.status;
}

interface Money {
  wallet: string;
  margin: string;
}

async function balances(margin: string): Promise<Money> {
  return {
    wallet: (await walletAccount(h.provider)).availableBalance,
    margin: (await account(h.provider, margin)).availableBalance,
  };
}

/**
 * The merchant's money moved by nothing but the card: WALLET + MARGIN less `spent` (the card's
 * balance and fees).
 */
function expectOnlySpent(before: Money, after: Money, spent: string): void {
  expect(cmp(add(after.wallet, after.margin), sub(add(before.wallet, before.margin), spent))).toBe(0);
  // The MARGIN account is emptied of what the transfer brought.
  expect(cmp(after.margin, before.margin)).toBe(0);
}

function onboarding(label: string, margin: string, overrides: Partial<OnboardingInput>): OnboardingInput {
  return {
    customerRef: customerRef(label),
    cardTypeId: BUDGET_TYPE,
    funding: { source: 'shared_account', accountId: margin },
    wait: FAST_WAIT,
    ...overrides,
  };
}

/**
 * Until the cancelled onboarding has asked its transfer child to stop (which finishes what it sent
 * first).
 */
async function cancelPassedOn(handle: WorkflowHandle): Promise<void> {
  await eventually(
    async () =>
      (await handle.fetchHistory()).events?.some(
        (e) => e.requestCancelExternalWorkflowExecutionInitiatedEventAttributes,
      ),
    (asked) => asked === true,
    'the cancel passed on to the transfer child',
  );
}

async function ended(handle: WorkflowHandle) {
  const failure = await failureOf(handle);
  const progress: OnboardingProgress = await handle.query(progressQuery);
  return { failure, progress, compensation: progress.compensation as CompensationOutcome };
}

describe('a permanent failure after the shared-account transfer', () => {
  it('card creation fails: the whole transfer goes back to the WALLET, read from the ledger', async () => {
    const margin = await freshMargin();
    const before = await balances(margin);
    // Gift card: the deposit goes with create card; cents .13 make the provider fail it.
    const input = onboarding('comp-create', margin, { cardTypeId: GIFT_TYPE, initialDeposit: '30.13' });
    const { failure, progress, compensation } = await h.withCardWorker(async () =>
      ended(await startOnboardingWorkflow(h, input)),
    );
    expect(failure).toMatchObject({ type: 'OperationFailed' });
    expect(failure?.message).toMatch(/returned [\d.]+ USD from account \d+ to \d+/);
    expect(progress.stage).toBe('failed');
    expect(compensation.remaining).toEqual([]);
    expect(compensation.returned).toHaveLength(1);
    expect(compensation.returned[0]).toMatchObject({ fromAccountId: margin });
    expectOnlySpent(before, await balances(margin), '0');
    expect(collectionsOf(input.customerRef)).toBe(1);
  });

  it('the first deposit fails: the card keeps what it holds (nothing), the rest goes back', async () => {
    const margin = await freshMargin();
    const before = await balances(margin);
    // Budget card: fee 1 at creation, then the deposit (cents .13: failed by the provider).
    const input = onboarding('comp-deposit', margin, { initialDeposit: '100.13' });
    const { failure, compensation } = await h.withCardWorker(async () =>
      ended(await startOnboardingWorkflow(h, input)),
    );
    expect(failure).toMatchObject({ type: 'OperationFailed' });
    // 1 + 100.13 + 1.01 (1%, rounded up) moved; the card fee 1 spent; 101.14 back.
    expect(compensation.returned).toEqual([expect.objectContaining({ amount: '101.14', fromAccountId: margin })]);
    expect(compensation.remaining).toEqual([]);
    expectOnlySpent(before, await balances(margin), '1');
    expect(collectionsOf(input.customerRef)).toBe(1);
  });

  it('the older budgetTopUp field is undone the same way', async () => {
    const margin = await freshMargin();
    const wallet = await walletAccount(h.provider);
    const before = await balances(margin);
    const { funding: _shared, ...rest } = onboarding('comp-topup', margin, { initialDeposit: '20.13' });
    const input: OnboardingInput = {
      ...rest,
      budgetTopUp: { payerAccountId: wallet.accountId, payeeAccountId: margin, amount: '30' },
    };
    const { failure, compensation } = await h.withCardWorker(async () =>
      ended(await startOnboardingWorkflow(h, input)),
    );
    expect(failure).toMatchObject({ type: 'OperationFailed' });
    // 30 moved, the card fee 1 spent: 29 back.
    expect(compensation.returned).toEqual([expect.objectContaining({ amount: '29' })]);
    expectOnlySpent(before, await balances(margin), '1');
  });

  it('a lost answer to the COLLECTION is looked up, not sent twice', async () => {
    const margin = await freshMargin();
    const before = await balances(margin);
    // The deposit stalls (cents .14) until decided: the transfer is done by then.
    const input = onboarding('comp-drop', margin, { initialDeposit: '40.14' });
    const { failure, compensation } = await h.withCardWorker(async () => {
      const handle = await startOnboardingWorkflow(h, input);
      const deposit = keyOf(input.customerRef, 'deposit');
      await eventually(
        () => operationStatus(deposit),
        (s) => s === 'processing',
        'the stalled deposit',
      );
      h.sandbox.setFaults({ dropResponseRate: 1, operations: ['transferFunds'], remaining: 1 });
      try {
        await h.helper('decideOperation', { orderNo: deposit, outcome: 'fail' });
        const done = await ended(handle);
        expect(h.sandbox.faults().remaining).toBe(0); // the COLLECTION's answer was dropped
        return done;
      } finally {
        h.sandbox.setFaults({ reset: true });
      }
    });
    expect(failure).toMatchObject({ type: 'OperationFailed' });
    // 1 + 40.14 + 0.41 moved; the card fee 1 spent.
    expect(compensation.returned).toEqual([expect.objectContaining({ amount: '40.55' })]);
    expect(collectionsOf(input.customerRef)).toBe(1);
    const collected = await h.provider.listLedgerEntries({
      pageNum: 1,
      pageSize: 100,
      accountId: margin,
      bizType: 'fund_collection',
    });
    expect(collected.records).toHaveLength(1);
    expectOnlySpent(before, await balances(margin), '1');
  });
});

describe('a cancel after the shared-account transfer', () => {
  it.each(['funding', 'budgetTopUp'] as const)(
    'before the card is created (%s): everything goes back once though its answer was lost, and the record says so',
    async (form) => {
      const margin = await freshMargin();
      const before = await balances(margin);
      const shared = onboarding('comp-cancel-card', margin, { cardTypeId: GIFT_TYPE, initialDeposit: '30' });
      const { funding: _funding, ...rest } = shared;
      // Gift card: fee 3, deposit 30 and its 3% fee.
      const wallet = (await walletAccount(h.provider)).accountId;
      const input: OnboardingInput =
        form === 'funding'
          ? shared
          : { ...rest, budgetTopUp: { payerAccountId: wallet, payeeAccountId: margin, amount: '33.90' } };
      const transferKey = fundTransferWorkflow.orderKeys(
        childWorkflowId(onboardingWorkflowId(input.customerRef), 'transfer'),
      ).transfer;
      // The ledger unreadable: the transfer is sent but its confirmation waits, so the cancel lands
      // in between.
      h.sandbox.setFaults({ errorRate: 1, operations: ['listLedgerEntries'] });
      const { failure, progress, compensation } = await h.withCardWorker(async () => {
        const handle = await startOnboardingWorkflow(h, input);
        try {
          await eventually(
            async () =>
              h.sandbox.commits({ operation: 'transferFunds' }).filter((c) => c.refs.merchantOrderNo === transferKey)
                .length,
            (n) => n === 1,
            'the transfer sent',
          );
          await handle.cancel();
          await cancelPassedOn(handle);
          // The next transfer sent is the COLLECTION: its answer is lost.
          h.sandbox.setFaults({ reset: true, dropResponseRate: 1, operations: ['transferFunds'], remaining: 1 });
          const done = await ended(handle);
          expect(h.sandbox.faults().remaining).toBe(0);
          return done;
        } finally {
          h.sandbox.setFaults({ reset: true });
        }
      });
      expect(failure?.name).toBe('CancelledFailure');
      expect(progress.stage).toBe('cancelled');
      expect(progress.cancellation?.stage).toBe('creating_card');
      expect(progress.cardNo).toBeUndefined();
      expect(compensation.returned).toEqual([expect.objectContaining({ fromAccountId: margin })]);
      expect(cmp(compensation.returned[0]!.amount, '33.90')).toBe(0);
      expect(compensation.remaining).toEqual([]);
      expectOnlySpent(before, await balances(margin), '0');
      expect(collectionsOf(input.customerRef)).toBe(1);
    },
  );

  it('cardflow cancel says what went back; cardflow retry moves it again under a new key and completes', async () => {
    const margin = await freshMargin();
    const before = await balances(margin);
    const input = onboarding('comp-retry', margin, { cardTypeId: GIFT_TYPE, initialDeposit: '30' });
    const ref = input.customerRef;
    const out: string[] = [];
    const cli = cliOn(h, out);
    const firstKey = fundTransferWorkflow.orderKeys(childWorkflowId(onboardingWorkflowId(ref), 'transfer')).transfer;
    const sends = (key: string) =>
      h.sandbox.commits({ operation: 'transferFunds' }).filter((c) => c.refs.merchantOrderNo === key).length;
    const { result, retried } = await h.withCardWorker(async () => {
      const handle = await startOnboardingWorkflow(h, input);
      const firstRun = (await handle.describe()).runId;
      // As above: the ledger unreadable keeps the transfer confirming while the cancel arrives.
      h.sandbox.setFaults({ errorRate: 1, operations: ['listLedgerEntries'] });
      let cancelled: Promise<number>;
      try {
        await eventually(
          async () => sends(firstKey),
          (n) => n === 1,
          'the transfer sent',
        );
        cancelled = cli(['cancel', ref]);
        await cancelPassedOn(handle);
      } finally {
        h.sandbox.setFaults({ reset: true });
      }
      expect(await cancelled).toBe(ExitCodes.done);
      expect(await cli(['retry', ref])).toBe(ExitCodes.done);
      return {
        result: (await h.client.workflow.getHandle(onboardingWorkflowId(ref)).result()) as OnboardingResult,
        retried: firstRun,
      };
    });
    const said = out.join('\n');
    expect(said).toMatch(/is CANCELLED: stopped in creating_card\nreturned 33\.9 USD from account \d+ to \d+/);
    expect(said).toContain(
      `it moves again the 33.9 run ${retried} returned to the WALLET, under a new merchantOrderNo`,
    );
    // Moved once, returned once, moved again once under the new run's key; the card holds 30.
    const againKey = fundTransferWorkflow.orderKeys(`${onboardingWorkflowId(ref)}/transfer.${retried}`).transfer;
    expect([sends(firstKey), collectionsOf(ref), sends(againKey)]).toEqual([1, 1, 1]);
    expect(result.topUpMerchantOrderNo).toBe(againKey);
    expect(cmp((await h.provider.getCardBalance({ cardNo: result.card.cardNo })).amount, '30')).toBe(0);
    // Card fee 3, the deposit 30 and its fee 0.90.
    expectOnlySpent(before, await balances(margin), '33.90');
  });

  it('while a created physical card awaits delivery: the card keeps its money, nothing was left over', async () => {
    const margin = await freshMargin();
    const before = await balances(margin);
    const input = onboarding('comp-cancel-physical', margin, {
      cardTypeId: PHYSICAL_TYPE,
      holderId: await approvedPhysicalHolder(h.provider),
      cardNumber: printedCardNumber(),
      initialDeposit: '50',
    });
    const { progress, compensation } = await h.withCardWorker(async () => {
      const handle = await startOnboardingWorkflow(h, input);
      await eventually(
        () => handle.query(progressQuery),
        (p) => p.stage === 'awaiting_delivery' || p.stage === 'failed',
        'awaiting_delivery',
      );
      await handle.cancel();
      return ended(handle);
    });
    expect(progress.stage).toBe('cancelled');
    expect(compensation.returned).toEqual([]);
    expect(compensation.remaining).toEqual([
      expect.objectContaining({ where: 'card', account: progress.cardNo, amount: '50.00' }),
    ]);
    // Card fee 30, the deposit 50 and its fee 1.60: all the transfer brought, the card holds 50.
    expectOnlySpent(before, await balances(margin), '81.60');
    expect(collectionsOf(input.customerRef)).toBe(0);
  });
});

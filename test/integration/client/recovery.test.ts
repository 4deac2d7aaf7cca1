/**
 * What an operator does with an onboarding that did not complete, on the dev server and the
 * sandbox: a provider that answers 5xx for longer than a step's retries fails the onboarding with a
 * resumable cause; once the provider is back, `retryOnboarding` resumes it to completion without
 * making anything twice (holder, card, deposit, ledger to the cent; a transfer the failed run
 * returned is moved again once, under the resumed run's own key). A failure resuming
 * cannot change is refused. `cancelOnboarding` stops a wait at once, and lets a card creation
 * already under way finish before the onboarding ends cancelled.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { add, cmp, sub } from '../../../provider/money';
import {
  cancelOnboarding,
  OnboardingRecoveryError,
  retryOnboarding,
  type ResumedOnboarding,
} from '../../../client/recovery';
import { getProgress } from '../../../client/onboarding';
import { progressQuery, type OnboardingInput } from '../../../domain/customer-onboarding';
import { onboardingWorkflowId } from '../../../domain/workflow-ids';
import { fundTransferWorkflow } from '../../../domain/workflows';
import type { WaitOverrides } from '../../../domain/wait-profile';
import { account, BUDGET_TYPE, eventually, FAST_WAIT, startCardHarness, walletAccount } from '../support/card-harness';
import { b2bOnboarding, CARD_TYPES, customerRef, startOnboardingWorkflow, harnessPerFile } from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';

jest.setTimeout(180_000);

/** A step gives up after two attempts, so an outage outlasts it within the test. */
const SHORT_RETRY: WaitOverrides = { ...FAST_WAIT, providerRetry: { maximumAttempts: 2, initialIntervalMs: 100 } };

const h = harnessPerFile(startCardHarness);
afterEach(() => {
  h.sandbox.setFaults({ reset: true });
});

const commits = (operation: string, after: number) => h.sandbox.commits({ operation }).filter((c) => c.seq > after);

/**
 * Starts a B2B onboarding for `ref` and returns its handle once it waits in cardholder review (a
 * worker must be running).
 */
async function startStalledInReview(ref: string) {
  const handle = await startOnboardingWorkflow(
    h,
    b2bOnboarding('review.stall', { customerRef: ref, initialDeposit: '50' }),
  );
  await eventually(
    () => handle.query(progressQuery),
    (p) => p.stage === 'cardholder_review',
    'review',
  );
  return handle;
}

async function failureOf(ref: string) {
  return eventually(
    () => getProgress(h.client, ref),
    (p) => p.stage === 'failed',
    'the failure',
  );
}

describe('provider outage longer than a step, then resume', () => {
  it('B2B onboarding: card creation fails on 5xx, resumable; the resume finds the holder and creates the card and deposit once', async () => {
    const ref = customerRef('outage');
    const email = uniqueEmail('outage');
    const after = h.sandbox.commits().length;
    const walletBefore = (await walletAccount(h.provider)).availableBalance;
    h.sandbox.setFaults({ errorRate: 1, operations: ['createCard'] });
    let resumed: ResumedOnboarding | undefined;
    const result = await h.withCardWorker(async () => {
      const handle = await startOnboardingWorkflow(h, {
        customerRef: ref,
        cardTypeId: CARD_TYPES.b2bWithDeposit,
        holder: b2bHolder(email),
        initialDeposit: '50',
        wait: SHORT_RETRY,
      });
      // The failure the UI shows says what an operator can do; progress says it can be resumed.
      const failed = (await handle.result().catch((e: unknown) => e)) as WorkflowFailedError;
      expect(failed).toBeInstanceOf(WorkflowFailedError);
      expect((failed.cause as Error).message).toMatch(new RegExp(`resumable: cardflow retry ${ref}`));
      const progress = await failureOf(ref);
      expect(progress.failure).toMatchObject({ type: 'ProviderServerError', retryable: true });
      expect(commits('createCardholder', after)).toHaveLength(1);
      expect(commits('createCard', after)).toHaveLength(0); // the provider answered 500 before doing anything

      h.sandbox.setFaults({ reset: true }); // the provider is back
      resumed = await retryOnboarding(h.client, ref);
      return await resumed.handle.result();
    });
    expect(resumed).toMatchObject({
      started: true,
      previousStatus: 'FAILED',
      failure: { type: 'ProviderServerError' },
    });
    expect(result.card.cardStatus).toBe('Normal');
    expect(commits('createCardholder', after)).toHaveLength(1);
    expect(commits('createCard', after).map((c) => c.refs.cardNo)).toEqual([result.card.cardNo]);
    const progress = await h.withCardWorker(() => getProgress(h.client, ref));
    expect(progress).toMatchObject({ stage: 'completed', resumedFrom: resumed!.previousRunId });
    await expect(retryOnboarding(h.client, ref)).rejects.toThrow(/completed; nothing to resume/);
    // Card fee + 50 + 1.5% fee, once (b2bWithDeposit: fee 1.5%, card price from the card type).
    const cardType = (await h.provider.listCardTypes()).find((t) => t.cardTypeId === CARD_TYPES.b2bWithDeposit)!;
    const spent = add(cardType.cardPrice, result.card.initialDeposit.amount, result.card.initialDeposit.fee);
    expect(cmp((await walletAccount(h.provider)).availableBalance, sub(walletBefore, spent))).toBe(0);
  });

  it('shared_account onboarding: the transfer went through before the outage; the failed run returned it, the resume moves it again once under a key of its own', async () => {
    const margin = (await h.provider.createSharedAccount({ accountName: `Resume pool ${customerRef('p')}` })).accountId;
    const ref = customerRef('outage-shared');
    const walletBefore = (await walletAccount(h.provider)).availableBalance;
    const after = h.sandbox.commits().length;
    h.sandbox.setFaults({ errorRate: 1, operations: ['createCard'] });
    const { result, failedRun } = await h.withCardWorker(async () => {
      const handle = await startOnboardingWorkflow(h, {
        customerRef: ref,
        cardTypeId: BUDGET_TYPE,
        initialDeposit: '100',
        funding: { source: 'shared_account', accountId: margin },
        wait: SHORT_RETRY,
      });
      await expect(handle.result()).rejects.toThrow();
      const failed = await failureOf(ref);
      expect(failed.failure).toMatchObject({ type: 'ProviderServerError', retryable: true });
      // A failed run owns no money: what it moved and did not spend went back to the WALLET.
      expect(failed.compensation?.returned).toEqual([expect.objectContaining({ fromAccountId: margin })]);
      h.sandbox.setFaults({ reset: true });
      const resumed = await retryOnboarding(h.client, ref);
      expect(resumed.movesAgain).toMatchObject({ runId: resumed.previousRunId });
      return { result: await resumed.handle.result(), failedRun: resumed.previousRunId };
    });
    // Moved, returned, moved again under the resumed run's own key: each once.
    const transfers = commits('transferFunds', after);
    expect(transfers).toHaveLength(3);
    expect(new Set(transfers.map((t) => t.refs.merchantOrderNo)).size).toBe(3);
    expect(result.topUpMerchantOrderNo).toBe(transfers[2]!.refs.merchantOrderNo);
    expect(result.topUpMerchantOrderNo).toBe(
      fundTransferWorkflow.orderKeys(`${onboardingWorkflowId(ref)}/transfer.${failedRun}`).transfer,
    );
    expect(commits('createCard', after)).toHaveLength(1);
    expect(commits('depositCard', after)).toHaveLength(1);
    const entries = (await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 100, accountId: margin })).records;
    const moved = entries.filter((e) => e.bizType === 'fund_transfer');
    const back = entries.filter((e) => e.bizType === 'fund_collection');
    expect([moved.length, back.length]).toEqual([2, 1]);
    expect(cmp(back[0]!.amount, moved[1]!.amount)).toBe(0);
    // The WALLET paid exactly what the card took; the MARGIN account holds nothing of it.
    const budget = (await h.provider.listCardTypes()).find((t) => t.cardTypeId === BUDGET_TYPE)!;
    const paid = add(budget.cardPrice, result.deposit!.amount, result.deposit!.fee);
    expect(cmp((await walletAccount(h.provider)).availableBalance, sub(walletBefore, paid))).toBe(0);
    expect(cmp((await account(h.provider, margin)).availableBalance, '0')).toBe(0);
  });
});

describe('what resume refuses', () => {
  it('a failure resuming cannot change (NotEligible), and a running onboarding', async () => {
    const ineligible = customerRef('ineligible');
    await h.withCardWorker(async () => {
      const handle = await startOnboardingWorkflow(h, {
        customerRef: ineligible,
        cardTypeId: CARD_TYPES.b2bWithDeposit,
        holder: b2bHolder(uniqueEmail('ineligible'), { areaCode: '+7' }),
        initialDeposit: '50',
        wait: FAST_WAIT,
      });
      await expect(handle.result()).rejects.toThrow();
      const progress = await failureOf(ineligible);
      expect(progress.failure).toMatchObject({ type: 'NotEligible', retryable: false });
    });
    const refused = await retryOnboarding(h.client, ineligible).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OnboardingRecoveryError);
    expect((refused as Error).message).toMatch(/NotEligible.*resuming cannot change/);

    const running = customerRef('running');
    await h.withCardWorker(async () => {
      const handle = await startStalledInReview(running);
      await expect(retryOnboarding(h.client, running)).rejects.toThrow(/still running/);
      await handle.terminate('test over');
    });
  });
});

describe('cancel', () => {
  it('stops an onboarding waiting on a review at once: cancelled in cardholder_review, no card', async () => {
    const ref = customerRef('cancel-review');
    const after = h.sandbox.commits().length;
    const cancelled = await h.withCardWorker(async () => {
      await startStalledInReview(ref);
      return cancelOnboarding(h.client, ref);
    });
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.progress).toMatchObject({
      stage: 'cancelled',
      cancellation: { stage: 'cardholder_review', pending: expect.stringMatching(/in review/) },
    });
    expect(cancelled.progress?.failure).toBeUndefined();
    expect(commits('createCard', after)).toHaveLength(0);
    await expect(cancelOnboarding(h.client, ref)).rejects.toThrow(/not running/);
  });

  it('lets a card creation under way finish, then ends cancelled before the deposit', async () => {
    const ref = customerRef('cancel-card');
    const after = h.sandbox.commits().length;
    // The provider takes its time over the creation, so the cancel arrives while it is under way.
    h.sandbox.setFaults({ latencyMs: 3_000, operations: ['createCard'] });
    const cancelled = await h.withCardWorker(async () => {
      const handle = await startOnboardingWorkflow(h, {
        customerRef: ref,
        cardTypeId: CARD_TYPES.noHolderNoDeposit,
        initialDeposit: '20',
        wait: FAST_WAIT,
      } satisfies OnboardingInput);
      await eventually(
        () => handle.query(progressQuery),
        (p) => p.stage === 'creating_card',
        'creating_card',
      );
      return cancelOnboarding(h.client, ref);
    });
    expect(cancelled.status).toBe('CANCELLED');
    // The creation finished; the onboarding stopped as it moved on to the deposit.
    expect(cancelled.progress?.cancellation?.stage).toBe('funding');
    expect(cancelled.progress?.stages.map((x) => x.stage)).toContain('creating_card');
    const created = commits('createCard', after);
    expect(created).toHaveLength(1);
    expect(commits('depositCard', after)).toHaveLength(0);
    // The card child finished its creation and completed; the card is there, Normal.
    const card = await h.provider.getCardInfo({ cardNo: created[0]!.refs.cardNo! });
    expect(card.status).toBe('Normal');
  });
});

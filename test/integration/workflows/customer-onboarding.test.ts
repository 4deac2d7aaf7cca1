import { childWorkflowId, onboardingWorkflowId } from '../../../domain/workflow-ids';
import { progressQuery, type OnboardingInput, type OnboardingResult } from '../../../domain/customer-onboarding';
import { WorkflowTypes } from '../../../domain/workflows';
import {
  CardflowCardNo,
  CardflowCustomerRef,
  CardflowFlow,
  CardflowHolderId,
  CardflowStage,
} from '../../../domain/search-attributes';
import {
  CARD_TYPES,
  FAST_WAIT,
  cardOperations,
  cardholdersByEmail,
  customerRef,
  failureOf,
  startHarness,
  startOnboardingWorkflow,
  walletBalance,
  harnessPerFile,
  type Harness,
} from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';

const h = harnessPerFile(startHarness);

const start = (input: OnboardingInput) => startOnboardingWorkflow(h, input);

type HistoryEvent = NonNullable<
  Awaited<ReturnType<ReturnType<Harness['client']['workflow']['getHandle']>['fetchHistory']>>['events']
>[number];
const historyOf = async (workflowId: string): Promise<HistoryEvent[]> =>
  (await h.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
const activitiesScheduled = (events: HistoryEvent[]) =>
  events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);

describe('customerOnboarding', () => {
  it('creates the cardholder, then the card with its initial deposit, and reports what it created', async () => {
    const ref = customerRef('happy');
    const email = uniqueEmail('ada');
    const result = await h.withWorker(async () => {
      const handle = await start({
        customerRef: ref,
        cardTypeId: CARD_TYPES.b2bWithDeposit,
        holder: b2bHolder(email),
        initialDeposit: '100',
        wait: FAST_WAIT,
      });
      const out = (await handle.result()) as OnboardingResult;
      const progress = await handle.query(progressQuery);
      expect(progress.stage).toBe('completed');
      expect(progress.stages.map((s) => s.stage)).toEqual([
        'validating',
        'cardholder_review',
        'creating_card',
        'completed',
      ]);
      return out;
    });
    const holders = await cardholdersByEmail(h.provider, email);
    expect(holders).toHaveLength(1);
    expect(result.cardholder).toEqual({ holderId: holders[0]!.holderId, created: true, resubmissions: 0 });
    expect(result.card.initialDeposit).toEqual({ amount: '100.00', fee: '1.50' });
    expect(result.balance).toEqual({ amount: '100.00', currency: 'USD' });
    const creates = (await cardOperations(h.provider, { type: 'create', cardNo: result.card.cardNo })).filter(
      (r) => r.status === 'success',
    );
    expect(creates).toHaveLength(1);

    // The happy path's billable actions (bench (b)): no patch is reached (a `patched()` costs its
    // marker and the TemporalChangeVersion upsert), and the card is read within createCard.
    const parentId = onboardingWorkflowId(ref);
    const [parent, cardholder, card] = await Promise.all(
      [parentId, childWorkflowId(parentId, 'cardholder'), childWorkflowId(parentId, 'card')].map(historyOf),
    );
    const events = [...parent!, ...cardholder!, ...card!];
    expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toEqual([]);
    expect(
      events.filter(
        (e) => e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.TemporalChangeVersion,
      ),
    ).toEqual([]);
    expect(activitiesScheduled(card!)).toEqual(['createCard']);
    // The cardholder review and the card creation reached their workflows as webhooks, found by
    // the routes their activities recorded (merchantOrderNo), without a visibility query.
    const signals = (of: HistoryEvent[]) => of.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
    expect([signals(cardholder!), signals(card!)]).toEqual([1, 1]);
    const signalled = h.handled.filter((d) => d.outcome === 'signalled').flatMap((d) => d.workflowIds);
    expect(signalled).toEqual(
      expect.arrayContaining([childWorkflowId(parentId, 'cardholder'), childWorkflowId(parentId, 'card')]),
    );
    // (A card's event arriving after the card child closed is still looked up by the card.)
    expect(h.receiverListQueries.filter((query) => !query.startsWith('CardflowCardNo'))).toEqual([]);
    // Started in cardholder_review, the parent upserts once, on completion, with the ids it
    // learned; creating_card is not upserted (10 actions in all, bench (b)).
    const upserts = parent!.flatMap((e) => {
      const fields = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
      return fields ? [Object.keys(fields).sort()] : [];
    });
    expect(upserts).toEqual([['CardflowCardNo', 'CardflowHolderId', 'CardflowStage']]);
    const attributes = (await h.client.workflow.getHandle(parentId).describe()).typedSearchAttributes;
    expect({
      stage: attributes.get(CardflowStage),
      flow: attributes.get(CardflowFlow),
      customerRef: attributes.get(CardflowCustomerRef),
      holderId: attributes.get(CardflowHolderId),
      cardNo: attributes.get(CardflowCardNo),
    }).toEqual({
      stage: 'completed',
      flow: 'onboarding',
      customerRef: ref,
      holderId: holders[0]!.holderId,
      cardNo: result.card.cardNo,
    });
  });

  it('deposits after creation when the card type takes no initial deposit at creation', async () => {
    const ref = customerRef('later-deposit');
    const result = await h.withWorker(async () => {
      const handle = await start({
        customerRef: ref,
        cardTypeId: CARD_TYPES.noHolderNoDeposit,
        initialDeposit: '100',
        wait: FAST_WAIT,
      });
      return (await handle.result()) as OnboardingResult;
    });
    expect(result.cardholder).toBeUndefined();
    expect(result.deposit).toMatchObject({ amount: '100', fee: '2.50' });
    expect(result.balance).toEqual({ amount: '100.00', currency: 'USD' });
    expect(await cardOperations(h.provider, { type: 'deposit', cardNo: result.card.cardNo })).toHaveLength(1);
    // The balance came with the deposit's answer: no getCardSummary activity after it.
    const deposit = await historyOf(childWorkflowId(onboardingWorkflowId(ref), 'deposit'));
    expect(activitiesScheduled(deposit)).toEqual(['depositCard']);
  });

  it('fails fast with nothing sent when the initial deposit is out of bounds', async () => {
    const before = await walletBalance(h.provider);
    const email = uniqueEmail('bounds');
    const failure = await h.withWorker(async () => {
      const handle = await start({
        customerRef: customerRef('oob'),
        cardTypeId: CARD_TYPES.b2bWithDeposit,
        holder: b2bHolder(email),
        initialDeposit: '5',
        wait: FAST_WAIT,
      });
      return failureOf(handle);
    });
    expect(failure).toMatchObject({
      type: 'NotEligible',
      message: expect.stringMatching(/initialDeposit: must be between 10(\.00)? and 10000/),
    });
    expect(await cardholdersByEmail(h.provider, email)).toHaveLength(0);
    expect(await walletBalance(h.provider)).toBe(before);
  });
});

describe('customerOnboarding with a wallet that cannot pay', () => {
  const poor = harnessPerFile(() => startHarness({ walletBalance: '50.00' }));

  it('fails fast with nothing sent when card fee + deposit + fee exceed the balance', async () => {
    const email = uniqueEmail('poor');
    const ref = customerRef('poor');
    const failure = await poor.withWorker(async () => {
      const handle = await poor.client.workflow.start(WorkflowTypes.customerOnboarding, {
        workflowId: onboardingWorkflowId(ref),
        taskQueue: poor.taskQueue,
        args: [
          {
            customerRef: ref,
            cardTypeId: CARD_TYPES.b2bWithDeposit,
            holder: b2bHolder(email),
            initialDeposit: '50',
            wait: FAST_WAIT,
          },
        ],
      });
      return failureOf(handle);
    });
    // 5 card fee + 50 + 0.75 fee = 55.75 > 50
    expect(failure).toMatchObject({ type: 'InsufficientBalance', message: expect.stringMatching(/needs 55.75 USD/) });
    expect(await cardholdersByEmail(poor.provider, email)).toHaveLength(0);
    expect(await walletBalance(poor.provider)).toBe('50.00');
  });
});

import { WorkflowUpdateFailedError } from '@temporalio/client';
import {
  cardholderStatusQuery,
  correctCardholderUpdate,
  type CardholderOnboardingInput,
  type CardholderOnboardingResult,
} from '../../../domain/cardholder-onboarding';
import { WorkflowTypes } from '../../../domain/workflows';
import {
  CARD_TYPES,
  FAST_WAIT,
  cardholdersByEmail,
  customerRef,
  failureOf,
  startHarness,
  harnessPerFile,
} from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';
import { lateReviewProbe } from '../support/late-probe';

const h = harnessPerFile(startHarness);

async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts a cardholderOnboarding for a B2B holder on the card type that takes a deposit, under an id
 * unique per `label`.
 */
function startCardholder(label: string, input: Omit<CardholderOnboardingInput, 'cardTypeId'>) {
  return h.client.workflow.start(WorkflowTypes.cardholderOnboarding, {
    workflowId: `cardholder-${customerRef(label)}`,
    taskQueue: h.taskQueue,
    args: [{ cardTypeId: CARD_TYPES.b2bWithDeposit, wait: FAST_WAIT, ...input }],
  });
}

describe('cardholderOnboarding', () => {
  it('on reject exposes the reason, refuses bad corrections naming the field, resubmits good data and passes', async () => {
    const rejectedEmail = uniqueEmail('reject.admin');
    const fixedEmail = uniqueEmail('fixed');
    const result = await h.withWorker(async () => {
      const handle = await startCardholder('reject', { holder: b2bHolder(rejectedEmail) });
      const rejected = await waitFor(
        () => handle.query(cardholderStatusQuery),
        (s) => s.stage === 'awaiting_correction',
      );
      expect(rejected.rejectReason).toMatch(/Rejected by platform review/);
      expect(rejected.statusFlowLocation).toBe('admin');

      const bad = handle.executeUpdate(correctCardholderUpdate, {
        args: [{ holder: { ...b2bHolder(fixedEmail), postCode: 'NO SPACES!' } }],
      });
      await expect(bad).rejects.toThrow(WorkflowUpdateFailedError);
      const badCause = await bad.catch((e: WorkflowUpdateFailedError) => e.cause);
      expect(badCause).toMatchObject({ type: 'InvalidInput', message: expect.stringMatching(/^holder\.postCode: /) });
      const unsupported = await handle
        .executeUpdate(correctCardholderUpdate, { args: [{ holder: { ...b2bHolder(fixedEmail), areaCode: '+7' } }] })
        .catch((e: WorkflowUpdateFailedError) => e.cause);
      expect(unsupported).toMatchObject({ type: 'NotEligible', message: expect.stringMatching(/holder\.areaCode/) });

      const after = await handle.executeUpdate(correctCardholderUpdate, { args: [{ holder: b2bHolder(fixedEmail) }] });
      expect(after.resubmissions).toBe(1);
      return (await handle.result()) as CardholderOnboardingResult;
    });
    expect(result).toMatchObject({ status: 'pass_audit', resubmissions: 1 });
    // One holder, created once and updated: the corrected email replaced the rejected one.
    expect(await cardholdersByEmail(h.provider, rejectedEmail)).toHaveLength(0);
    const holders = await cardholdersByEmail(h.provider, fixedEmail);
    expect(holders.map((x) => [x.holderId, x.status])).toEqual([[result.holderId, 'pass_audit']]);
  });

  it('a second round rejected again ends at its reject webhook, not at its probe', async () => {
    const handle = await startCardholder('reject-twice', { holder: b2bHolder(uniqueEmail('reject.admin')) });
    const second = await h.withWorker(async () => {
      await waitFor(
        () => handle.query(cardholderStatusQuery),
        (s) => s.stage === 'awaiting_correction',
      );
      // The corrected data is rejected by the platform review too: the same state, a new round.
      await handle.executeUpdate(correctCardholderUpdate, {
        args: [{ holder: b2bHolder(uniqueEmail('reject.admin')) }],
      });
      return waitFor(
        () => handle.query(cardholderStatusQuery),
        (s) => s.stage === 'awaiting_correction' && s.resubmissions === 1,
      );
    }, lateReviewProbe(h.provider));
    await handle.terminate('the test ends here');
    expect(second).toMatchObject({ statusFlowLocation: 'admin', status: 'reject' });

    const events = (await handle.fetchHistory()).events ?? [];
    const probes = events.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'awaitCardholderReview',
    );
    // The first round's probe, and the second's unless its reject webhook was in the inbox before
    // its wait began (routed by key, a webhook no longer waits for visibility to index its owner).
    expect(probes.length).toBeGreaterThanOrEqual(1);
    expect(probes.length).toBeLessThanOrEqual(2);
    const signalled = events.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'providerEvent');
    expect(signalled.length).toBeGreaterThanOrEqual(2);
    const ended = (scheduled: (typeof events)[number]) => {
      const id = String(scheduled.eventId);
      return {
        cancelRequested: events.some(
          (e) => String(e.activityTaskCancelRequestedEventAttributes?.scheduledEventId) === id,
        ),
        completed: events.some((e) => String(e.activityTaskCompletedEventAttributes?.scheduledEventId) === id),
      };
    };
    // Both rounds ended at their reject webhook: the workflow cancelled the probe, which never
    // answered.
    expect(probes.map(ended)).toEqual(probes.map(() => ({ cancelRequested: true, completed: false })));
  }, 90_000);

  it('refuses a correction while the review runs, and ends with ReviewDeadlineExceeded when the review outlasts the deadline', async () => {
    const failure = await h.withWorker(async () => {
      const handle = await startCardholder('deadline', {
        holder: b2bHolder(uniqueEmail('review.stall')),
        reviewDeadlineMs: 3_000,
      });
      await waitFor(
        () => handle.query(cardholderStatusQuery),
        (s) => s.stage === 'in_review',
      );
      const early = await handle
        .executeUpdate(correctCardholderUpdate, { args: [{ holder: b2bHolder(uniqueEmail('early')) }] })
        .catch((e: WorkflowUpdateFailedError) => e.cause);
      expect(early).toMatchObject({ type: 'CorrectionNotExpected' });
      return failureOf(handle);
    });
    expect(failure).toMatchObject({ type: 'ReviewDeadlineExceeded' });
  });

  it('fails with ReviewDeadlineExceeded when a reject is not corrected in time', async () => {
    const failure = await h.withWorker(async () => {
      const handle = await startCardholder('nocorrection', {
        holder: b2bHolder(uniqueEmail('reject.channel')),
        reviewDeadlineMs: 3_000,
      });
      return failureOf(handle);
    });
    expect(failure).toMatchObject({
      type: 'ReviewDeadlineExceeded',
      message: expect.stringMatching(/no correction arrived/),
    });
  });

  it('refuses ineligible data before anything is sent', async () => {
    const email = uniqueEmail('ineligible');
    const failure = await h.withWorker(async () => {
      const handle = await startCardholder('ineligible', {
        holder: { ...b2bHolder(email), country: 'AR', town: 'AR0101' },
      });
      return failureOf(handle);
    });
    expect(failure).toMatchObject({
      type: 'NotEligible',
      message: expect.stringMatching(/holder\.country: AR is not supported/),
    });
    expect(await cardholdersByEmail(h.provider, email)).toHaveLength(0);
  });
});

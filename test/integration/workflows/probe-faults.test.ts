/**
 * A probe that could not ask is not a probe that heard "not yet". The review's webhook is lost
 * (the sandbox drops every webhook), so the review probe is the only path; the review is decided
 * just before the probe's next slot, and that probe meets one, then three, HTTP 500s on
 * `queryCardholders`. The onboarding must leave review within seconds of the first 500 (the
 * re-probes of activities/long-poll.ts, 1 s, 2 s, 4 s apart), not at the slot after (here two
 * minutes on: the profile's first interval, 20 s, grown six-fold; in production 7 minutes, then
 * 43). The review profile is production's REVIEW_WAIT with its first probe and first interval
 * shortened, so the test needs seconds.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { type OnboardingProgress, progressQuery } from '../../../domain/customer-onboarding';
import { cardholderStatusQuery } from '../../../domain/cardholder-onboarding';
import { REVIEW_WAIT, TEST_WAIT } from '../../../domain/wait-profile';
import { cardholderWorkflowId } from '../../../domain/workflow-ids';
import { until } from '../../support/until';
import {
  CARD_TYPES,
  customerRef,
  passReview,
  startHarness,
  startOnboardingWorkflow,
  harnessPerFile,
} from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';

jest.setTimeout(180_000);

const h = harnessPerFile(() => startHarness({ faults: { webhookDropRate: 1 } }));

/** The review's probe schedule: a first probe after 0.5 s, the next 20 s later, then 2 minutes. */
const REVIEW = { ...REVIEW_WAIT, firstPollMs: 500, retryInitialIntervalMs: 20_000 };

/**
 * The attempt the review probe of `customerRef`'s cardholder child is on (0 before it is
 * scheduled).
 */
async function probeAttempt(ref: string): Promise<number> {
  const child = await h.client.workflow.getHandle(cardholderWorkflowId(ref)).describe();
  const probe = child.raw.pendingActivities?.find((a) => a.activityType?.name === 'awaitCardholderReview');
  return probe?.attempt ?? 0;
}

/** When the sandbox served the first of `errors` armed 500s (polled), once all were served. */
async function firstErrorServedAt(errors: number): Promise<number> {
  let first: number | undefined;
  for (;;) {
    const remaining = h.sandbox.faults().remaining ?? 0;
    if (remaining < errors) first ??= Date.now();
    if (remaining === 0) return first!;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it.each([1, 3])('leaves review within seconds when the next probe meets %i HTTP 500s', async (errors) => {
  const ref = customerRef(`probe-500x${errors}`);
  await h.withWorker(async () => {
    const handle: WorkflowHandle = await startOnboardingWorkflow(h, {
      customerRef: ref,
      cardTypeId: CARD_TYPES.b2bWithDeposit,
      holder: b2bHolder(uniqueEmail('review.stall')),
      initialDeposit: '10',
      wait: { cardOperation: TEST_WAIT, review: REVIEW },
    });
    // The first probe has answered "not yet" (the probe is on its second attempt, 20 s away).
    await until(
      () => probeAttempt(ref),
      (attempt) => attempt >= 2,
      { timeoutMs: 60_000 },
    );
    const { holderId } = await h.client.workflow.getHandle(cardholderWorkflowId(ref)).query(cardholderStatusQuery);
    passReview(h, holderId!);
    h.sandbox.setFaults({ errorRate: 1, operations: ['queryCardholders'], remaining: errors });

    const firstError = await firstErrorServedAt(errors);
    const left = await until(
      () => handle.query(progressQuery),
      (p: OnboardingProgress) => p.stages.some((s) => s.stage === 'creating_card'),
      { timeoutMs: 60_000 },
    );
    const leftAt = left.stages.find((s) => s.stage === 'creating_card')!.at;
    // Re-probes 1, 2 and 4 s apart (7 s for three 500s), with room for a loaded machine; the
    // probe schedule's next slot would have been two minutes later.
    process.stderr.write(`left review ${leftAt - firstError} ms after the first 500\n`);
    expect(leftAt - firstError).toBeLessThan(errors === 1 ? 8_000 : 15_000);
    expect(left.stages.map((s) => s.stage)).toContain('cardholder_review');
    expect((await handle.result()) as unknown).toMatchObject({ card: expect.anything() });
  });
  h.sandbox.setFaults({ errorRate: 0, remaining: null, operations: [] });
});

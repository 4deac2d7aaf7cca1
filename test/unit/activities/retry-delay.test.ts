/**
 * The backoff an activity sets on the failures it reports (activities/retry-delay.ts): under the
 * provider call's flat policy, provider failures still double from 1 s to 1 min while timeouts,
 * which the server retries by the policy, stay at 1 s; under a growing policy (the long polls')
 * the delay is the server's own. Benign, non-retryable and cancelled failures are left alone.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { createActivities } from '../../../activities';
import type { ProviderPort } from '../../../activities/deps';
import { stillWaiting } from '../../../domain/failures';
import { reportedFailureDelayMs, withReportedBackoff } from '../../../activities/retry-delay';
import { ProviderServerError, ProviderValidationError } from '../../../provider/errors';

const FLAT = { initialInterval: '1s', backoffCoefficient: 1, maximumInterval: '1m' } as const;

it('doubles a reported failure from the initial interval to the maximum under a flat policy', () => {
  expect([1, 2, 3, 4, 6, 7, 8, 20].map((attempt) => reportedFailureDelayMs(attempt, FLAT))).toEqual([
    1_000, 2_000, 4_000, 8_000, 32_000, 60_000, 60_000, 60_000,
  ]);
  // A test's shortened policy (wait.providerRetry) is followed.
  expect(reportedFailureDelayMs(3, { ...FLAT, initialInterval: 10, maximumInterval: 30 })).toBe(30);
});

it('gives the delay the server would compute under a growing policy, and none without a policy', () => {
  const longPoll = { initialInterval: 200, backoffCoefficient: 6, maximumInterval: '1s' };
  expect([1, 2, 3].map((attempt) => reportedFailureDelayMs(attempt, longPoll))).toEqual([200, 1_000, 1_000]);
  expect(reportedFailureDelayMs(3, undefined)).toBeUndefined();
});

const provider = (error: Error) => ({ getCardInfo: jest.fn().mockRejectedValue(error) }) as unknown as ProviderPort;

async function failureOf(run: () => Promise<unknown>): Promise<ApplicationFailure> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplicationFailure);
  return error as ApplicationFailure;
}

it("sets a provider failure's delay by its attempt under the provider call's flat policy", async () => {
  const activities = createActivities({
    provider: provider(new ProviderServerError({ httpStatus: 502, operation: 'getCardInfo' })),
  });
  const env = new MockActivityEnvironment({ attempt: 4, retryPolicy: FLAT });
  const failure = await failureOf(() => env.run(activities.getCardSummary, { cardNo: 'C1' }));
  expect(failure).toMatchObject({ type: 'ProviderServerError', nonRetryable: false, nextRetryDelay: 8_000 });
});

it('leaves a non-retryable, a benign or an own-delay failure, and any failure outside an activity, as it was', async () => {
  const rejected = createActivities({
    provider: provider(
      new ProviderValidationError([{ path: 'cardNo', message: 'required' }], { operation: 'getCardInfo' }),
    ),
  });
  const env = new MockActivityEnvironment({ attempt: 4, retryPolicy: FLAT });
  const refusal = await failureOf(() => env.run(rejected.getCardSummary, { cardNo: 'C1' }));
  expect(refusal).toMatchObject({ nonRetryable: true, nextRetryDelay: undefined });
  const benign = await env.run(async () => withReportedBackoff(stillWaiting('not yet')));
  expect(benign).toMatchObject({ category: ApplicationFailureCategory.BENIGN, nextRetryDelay: undefined });
  const own = await env.run(async () => withReportedBackoff(stillWaiting('not yet', 5)));
  expect(own).toMatchObject({ nextRetryDelay: 5 });
  const plain = new Error('route store unavailable');
  expect(withReportedBackoff(plain)).toBe(plain);
  expect(await env.run(async () => withReportedBackoff(plain))).toMatchObject({
    message: 'route store unavailable',
    nextRetryDelay: 4_000 * 2,
  });
});

/**
 * `isTimeout` (workflows/failures.ts): how a wait activity that ran out of its deadline reaches
 * the workflow. A probe-per-attempt wait usually ends with its last StillWaiting (the server
 * declines a retry past schedule-to-close); a long attempt cut by the deadline ends with a
 * TimeoutFailure. Anything else is a real failure, not a deadline.
 */
import { ActivityFailure, ApplicationFailure, RetryState, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { FailureTypes } from '../../../domain/failure-types';
import { isTimeout } from '../../../domain/failures';

const activityFailure = (cause: Error) =>
  new ActivityFailure('failed', 'awaitCardholderReview', '1', RetryState.TIMEOUT, 'id', cause);

it('counts a schedule-to-close timeout as the deadline', () => {
  expect(isTimeout(activityFailure(new TimeoutFailure('timed out', undefined, TimeoutType.SCHEDULE_TO_CLOSE)))).toBe(
    true,
  );
});

it('counts a last StillWaiting (retry declined past the deadline) as the deadline', () => {
  expect(
    isTimeout(
      activityFailure(ApplicationFailure.create({ type: FailureTypes.stillWaiting, message: 'still waiting' })),
    ),
  ).toBe(true);
});

it('does not count other failures, or a bare StillWaiting outside an activity failure', () => {
  expect(
    isTimeout(
      activityFailure(
        ApplicationFailure.create({ type: 'ProviderValidationError', message: 'bad', nonRetryable: true }),
      ),
    ),
  ).toBe(false);
  expect(isTimeout(ApplicationFailure.create({ type: FailureTypes.stillWaiting, message: 'still waiting' }))).toBe(
    false,
  );
  expect(isTimeout(new Error('boom'))).toBe(false);
});

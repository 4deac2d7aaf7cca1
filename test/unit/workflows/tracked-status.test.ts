/**
 * The shared workflow preamble (workflows/tracked-status.ts): the handlers it registers, in the
 * order the five workflows registered them, and the status it keeps for the progress query.
 */
import { ActivityFailure, ApplicationFailure, RetryState, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { defineQuery, setHandler } from '@temporalio/workflow';
import { FailureTypes } from '../../../domain/failure-types';
import { providerEventSignal, type ProviderEvent } from '../../../domain/provider-event';
import { trackStatus, type StageStatus } from '../../../workflows/reporting/tracked-status';
import { cardOperationRecord, providerEvent } from '../../fixtures/provider-events';

jest.mock('@temporalio/workflow', () => ({ ...jest.requireActual('@temporalio/workflow'), setHandler: jest.fn() }));
const registered = jest.mocked(setHandler);

interface Status extends StageStatus {
  stage: 'validating' | 'sending' | 'completed' | 'failed';
  route?: string;
}
const statusQuery = defineQuery<Status>('testStatus');
const event: ProviderEvent = providerEvent('card_transaction', cardOperationRecord(), 'r1');

beforeEach(() => registered.mockClear());

function handlerOf(index: number): (...args: unknown[]) => unknown {
  return registered.mock.calls[index]![1] as (...args: unknown[]) => unknown;
}

it('registers the provider-event signal, then the status query that answers the live status', () => {
  const added: ProviderEvent[] = [];
  const { status, enter } = trackStatus<Status>({ stage: 'validating', route: 'x' }, statusQuery, {
    add: (e) => added.push(e),
  });
  expect(registered.mock.calls.map(([definition]) => definition)).toEqual([providerEventSignal, statusQuery]);
  expect(handlerOf(0)(event)).toBeUndefined();
  expect(added).toEqual([event]);
  enter('sending');
  expect(handlerOf(1)()).toBe(status);
  expect(status).toEqual({ stage: 'sending', route: 'x' });
});

it('leaves provider events unhandled when there is no inbox (fundTransfer)', () => {
  trackStatus<Status>({ stage: 'validating' }, statusQuery);
  expect(registered.mock.calls.map(([definition]) => definition)).toEqual([statusQuery]);
});

it('fail records the failure in the status and throws the same failure', () => {
  const { status, fail } = trackStatus<Status>({ stage: 'sending' }, statusQuery);
  const failure = ApplicationFailure.create({
    type: 'InvalidInput',
    message: 'amount: must be positive',
    nonRetryable: true,
  });
  expect(() => fail(failure)).toThrow(failure);
  expect(status).toEqual({ stage: 'failed', failure: { type: 'InvalidInput', message: 'amount: must be positive' } });
});

it('fail(type, issues) makes the non-retryable failure that names each field, with the issues as its details', () => {
  const { status, fail } = trackStatus<Status>({ stage: 'sending' }, statusQuery);
  const issues = [
    { path: 'amount', message: 'must be positive' },
    { path: 'currency', message: 'is required' },
  ];
  let thrown: unknown;
  try {
    fail(FailureTypes.invalidInput, issues);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ApplicationFailure);
  expect(thrown).toMatchObject({
    type: 'InvalidInput',
    message: 'amount: must be positive; currency: is required',
    nonRetryable: true,
    details: [issues],
  });
  expect(status.failure).toEqual({ type: 'InvalidInput', message: 'amount: must be positive; currency: is required' });
});

it('fail(type, message) makes a non-retryable failure without details', () => {
  const { status, fail } = trackStatus<Status>({ stage: 'sending' }, statusQuery);
  expect(() => fail(FailureTypes.operationFailed, 'card creation o-1 failed')).toThrow(
    expect.objectContaining({ type: 'OperationFailed', nonRetryable: true, details: undefined }),
  );
  expect(status).toEqual({
    stage: 'failed',
    failure: { type: 'OperationFailed', message: 'card creation o-1 failed' },
  });
});

describe('step', () => {
  const activityFailure = (cause: Error) =>
    new ActivityFailure('activity failed', 'getCardStatus', '1', RetryState.NON_RETRYABLE_FAILURE, 'id', cause);

  it('returns what the step returns and leaves the status alone', async () => {
    const { status, step } = trackStatus<Status>({ stage: 'sending' }, statusQuery);
    await expect(step(async () => 'ok')).resolves.toBe('ok');
    expect(status).toEqual({ stage: 'sending' });
  });

  it("rethrows an activity's failure as the workflow's own, with the root type, non-retryable", async () => {
    const { status, step } = trackStatus<Status>({ stage: 'sending' }, statusQuery);
    const root = ApplicationFailure.create({ type: 'InsufficientBalance', message: 'account 1 is short' });
    const thrown = await step(() => Promise.reject(activityFailure(root))).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ApplicationFailure);
    expect(thrown).toMatchObject({ type: 'InsufficientBalance', message: 'account 1 is short', nonRetryable: true });
    expect(status.failure).toEqual({ type: 'InsufficientBalance', message: 'account 1 is short' });
  });

  it("uses onTimeout's failure when the activity timed out, and only then", async () => {
    const onTimeout = () =>
      ApplicationFailure.create({ type: 'DepositExpired', message: 'no deposit', nonRetryable: true });
    const { status, step } = trackStatus<Status>({ stage: 'sending' }, statusQuery);
    const timeout = activityFailure(new TimeoutFailure('timed out', undefined, TimeoutType.START_TO_CLOSE));
    await expect(step(() => Promise.reject(timeout), onTimeout)).rejects.toMatchObject({ type: 'DepositExpired' });
    expect(status).toEqual({ stage: 'failed', failure: { type: 'DepositExpired', message: 'no deposit' } });
    const other = trackStatus<Status>({ stage: 'sending' }, statusQuery);
    await expect(other.step(() => Promise.reject(new Error('boom')), onTimeout)).rejects.toMatchObject({
      type: 'Error',
      message: 'boom',
    });
  });
});

describe('guard', () => {
  it('keeps a failure fail() recorded and re-raises it with its type, message and details', async () => {
    const { status, fail, guard } = trackStatus<Status>({ stage: 'sending' }, statusQuery);
    const failure = ApplicationFailure.create({
      type: 'InvalidInput',
      message: 'amount: must be positive',
      nonRetryable: true,
      details: [[{ path: 'amount' }]],
    });
    const thrown = await guard(async () => fail(failure)).catch((error: unknown) => error);
    expect(thrown).toMatchObject({ type: 'InvalidInput', message: 'amount: must be positive' });
    expect((thrown as ApplicationFailure).details).toEqual([[{ path: 'amount' }]]);
    expect(status).toEqual({ stage: 'failed', failure: { type: 'InvalidInput', message: 'amount: must be positive' } });
  });

  it('records what escaped the body by its root failure', async () => {
    const { status, guard } = trackStatus<Status>({ stage: 'sending' }, statusQuery);
    const root = ApplicationFailure.create({ type: 'OperationFailed', message: 'deposit failed' });
    await expect(guard(() => Promise.reject(root))).rejects.toMatchObject({ type: 'OperationFailed' });
    expect(status).toEqual({ stage: 'failed', failure: { type: 'OperationFailed', message: 'deposit failed' } });
  });
});

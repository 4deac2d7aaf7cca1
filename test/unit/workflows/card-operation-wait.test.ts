/**
 * The card operation's outcome as the workflows that send one read it
 * (workflows/events/waits.ts): a record already final needs no wait; a `fail` record becomes
 * OperationFailed naming the operation, raised through the workflow's own `fail`.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { CardOperation } from '../../../activities/types';
import { FailureTypes } from '../../../domain/failure-types';
import { TEST_WAIT } from '../../../domain/wait-profile';
import type { EventInbox } from '../../../workflows/events/inbox';
import { waitForCardOperationSuccess } from '../../../workflows/events/waits';
import { cardOperationRecord } from '../../fixtures/provider-events';

const inbox = { markSeen: jest.fn() } as unknown as EventInbox;
const operation = (overrides: Pick<CardOperation, 'status'> & { description?: string }): CardOperation =>
  cardOperationRecord(overrides) as CardOperation;

it('returns a succeeded record at once, told to record', async () => {
  const recorded: string[] = [];
  const sent = operation({ status: 'success' });
  await expect(
    waitForCardOperationSuccess(inbox, sent, TEST_WAIT, 'deposit CF1', { record: (r) => recorded.push(r.status) }),
  ).resolves.toBe(sent);
  expect(recorded).toEqual(['success']);
});

it('turns a fail record into OperationFailed naming the operation, through the given fail or thrown', async () => {
  const sent = operation({ status: 'fail', description: 'card frozen' });
  const failed: ApplicationFailure[] = [];
  const fail = (failure: ApplicationFailure): never => {
    failed.push(failure);
    throw new Error('failed through the tracker');
  };
  await expect(waitForCardOperationSuccess(inbox, sent, TEST_WAIT, 'deposit CF1', { fail })).rejects.toThrow(
    'failed through the tracker',
  );
  expect(failed.map((f) => [f.type, f.message, f.nonRetryable])).toEqual([
    [FailureTypes.operationFailed, 'deposit CF1 failed: card frozen', true],
  ]);

  const thrown = await waitForCardOperationSuccess(inbox, operation({ status: 'fail' }), TEST_WAIT, 'freeze CF1').catch(
    (e: unknown) => e,
  );
  expect(thrown).toBeInstanceOf(ApplicationFailure);
  expect((thrown as ApplicationFailure).message).toBe('freeze CF1 failed: no description');
});

/**
 * A review state reached again in a later round (workflows/events/inbox.ts): a holder rejected,
 * corrected, resubmitted and rejected once more. The second reject is a new event when the
 * provider's time of it falls in the new round; a late delivery of the first round's stays a
 * repeat.
 */
import { patched } from '@temporalio/workflow';
import { EventInbox, RECURRING_REVIEW_STATES_KEPT } from '../../../workflows/events/inbox';
import { cardholderResult, providerEvent } from '../../fixtures/provider-events';

jest.mock('@temporalio/workflow', () => ({ ...jest.requireActual('@temporalio/workflow'), patched: jest.fn() }));
const patchedMock = jest.mocked(patched);

const ROUND_ONE = 1_795_657_053_000;
const RESUBMITTED = ROUND_ONE + 60_000;
const HOLDER = '1989887271659823105';

const reject = (updateTime: number | undefined, requestId: string) =>
  providerEvent(
    'card_holder',
    {
      ...cardholderResult({ holderId: HOLDER, status: 'reject' }),
      ...(updateTime === undefined ? {} : { updateTime }),
    },
    requestId,
  );

/** An inbox that took the first round's reject, then began a second round at RESUBMITTED. */
function secondRound(): { inbox: EventInbox; since: number } {
  const inbox = new EventInbox();
  expect(inbox.add(reject(ROUND_ONE, 'r1'))).toBe(true);
  jest.spyOn(Date, 'now').mockReturnValue(RESUBMITTED);
  inbox.beginReviewRound(HOLDER);
  return { inbox, since: inbox.position };
}

beforeEach(() => patchedMock.mockReset().mockReturnValue(true));
afterEach(() => jest.restoreAllMocks());

it('takes the second round reject, once, and it ends the round', () => {
  const { inbox, since } = secondRound();
  expect(inbox.finalReviewSince(HOLDER, since)).toBeUndefined();
  expect(inbox.add(reject(RESUBMITTED + 500, 'r2'))).toBe(true);
  expect(inbox.add(reject(RESUBMITTED + 500, 'r2-again'))).toBe(false);
  expect(inbox.finalReviewSince(HOLDER, since)).toMatchObject({ status: 'reject' });
  expect(patchedMock).toHaveBeenCalledWith(RECURRING_REVIEW_STATES_KEPT);
});

it('keeps the first round reject delivered late a repeat, and one without updateTime', () => {
  const { inbox, since } = secondRound();
  expect(inbox.add(reject(ROUND_ONE, 'r1-retried'))).toBe(false);
  expect(inbox.add(reject(undefined, 'r-untimed'))).toBe(false);
  expect(inbox.finalReviewSince(HOLDER, since)).toBeUndefined();
  expect(patchedMock).not.toHaveBeenCalled();
});

it('without a new round, a reject seen before is a repeat whatever its time', () => {
  const inbox = new EventInbox();
  inbox.add(reject(ROUND_ONE, 'r1'));
  expect(inbox.add(reject(RESUBMITTED + 500, 'r2'))).toBe(false);
});

it('takes the second round reject after the first was seen by the probe only', () => {
  const inbox = new EventInbox();
  inbox.markSeen('card_holder', HOLDER, 'reject');
  jest.spyOn(Date, 'now').mockReturnValue(RESUBMITTED);
  inbox.beginReviewRound(HOLDER);
  const since = inbox.position;
  expect(inbox.add(reject(ROUND_ONE, 'r1-late'))).toBe(false);
  expect(inbox.add(reject(RESUBMITTED + 500, 'r2'))).toBe(true);
  expect(inbox.finalReviewSince(HOLDER, since)).toMatchObject({ status: 'reject' });
});

it('a second round state its probe saw first is a repeat when its webhook follows', () => {
  const { inbox, since } = secondRound();
  inbox.markSeen('card_holder', HOLDER, 'reject');
  expect(inbox.add(reject(RESUBMITTED + 500, 'r2'))).toBe(false);
  expect(inbox.finalReviewSince(HOLDER, since)).toBeUndefined();
  expect(patchedMock).not.toHaveBeenCalled();
});

it('a third round takes its reject too, and keeps the second round reject delivered late a repeat', () => {
  const { inbox } = secondRound();
  inbox.add(reject(RESUBMITTED + 500, 'r2'));
  jest.spyOn(Date, 'now').mockReturnValue(RESUBMITTED + 60_000);
  inbox.beginReviewRound(HOLDER);
  const since = inbox.position;
  expect(inbox.add(reject(RESUBMITTED + 500, 'r2-retried'))).toBe(false);
  expect(inbox.add(reject(RESUBMITTED + 60_500, 'r3'))).toBe(true);
  expect(inbox.finalReviewSince(HOLDER, since)).toMatchObject({ status: 'reject' });
});

it('an execution started before recurring states were kept drops the second reject, as it did', () => {
  patchedMock.mockReturnValue(false);
  const { inbox, since } = secondRound();
  expect(inbox.add(reject(RESUBMITTED + 500, 'r2'))).toBe(false);
  expect(inbox.finalReviewSince(HOLDER, since)).toBeUndefined();
});

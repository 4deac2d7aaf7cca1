/**
 * The card state's rules on its record (workflows/card-entity/state.ts): an authorization's
 * reported state only moves forward (recordAuthorization), and the kept lists stay bounded.
 */
import type { AuthorizationSummary } from '../../../domain/card-entity';
import { keepLatest, recordAuthorization } from '../../../workflows/card-entity/state';
import { trimRecord } from '../../../workflows/events/inbox';

const auth = (tradeNo: string, status: string, extra: Partial<AuthorizationSummary> = {}): AuthorizationSummary => ({
  tradeNo,
  type: 'auth',
  status,
  authorizedAmount: '12.50',
  currency: 'USD',
  fee: '0',
  crossBoardFee: '0',
  ...extra,
});

it('replaces an authorized record with its settlement', () => {
  const list = recordAuthorization([auth('t1', 'authorized')], auth('t1', 'succeed', { settleAmount: '12.50' }), 50);
  expect(list).toEqual([auth('t1', 'succeed', { settleAmount: '12.50' })]);
});

it('keeps the settlement when the authorized event arrives after it (webhooks out of order)', () => {
  const settled = [auth('t1', 'succeed'), auth('t2', 'failed')];
  expect(recordAuthorization(settled, auth('t1', 'authorized'), 50)).toBe(settled);
  expect(recordAuthorization(settled, auth('t2', 'authorized'), 50)).toBe(settled);
});

it('lets a later final event replace an earlier one, appends new tradeNos and bounds the list', () => {
  expect(recordAuthorization([auth('t1', 'succeed')], auth('t1', 'failed'), 50)).toEqual([auth('t1', 'failed')]);
  const list = recordAuthorization([auth('t1', 'succeed'), auth('t2', 'authorized')], auth('t3', 'authorized'), 2);
  expect(list.map((a) => a.tradeNo)).toEqual(['t2', 't3']);
});

describe('card entity state helpers', () => {
  it('keepLatest replaces by key and keeps the newest', () => {
    let list: { id: string; v: number }[] = [];
    for (let i = 0; i < 5; i++) list = keepLatest(list, { id: `t${i}`, v: i }, (x) => x.id, 3);
    list = keepLatest(list, { id: 't3', v: 30 }, (x) => x.id, 3);
    expect(list).toEqual([
      { id: 't2', v: 2 },
      { id: 't4', v: 4 },
      { id: 't3', v: 30 },
    ]);
  });
  it('trimRecord keeps the last keys', () => {
    expect(Object.keys(trimRecord({ a: 1, b: 2, c: 3 }, 2))).toEqual(['b', 'c']);
  });
});

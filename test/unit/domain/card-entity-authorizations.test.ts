/**
 * recordAuthorization (domain/card-entity.ts): an authorization's reported state only moves
 * forward.
 */
import { recordAuthorization, type AuthorizationSummary } from '../../../domain/card-entity';

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

/**
 * What the card entity tells the merchant's backend (workflows/card-entity/notices.ts), and the
 * state's answer that makes a repeated webhook told once (CardState.learnEvent).
 */
import { CardState } from '../../../workflows/card-entity/state';
import { eventNotices, relayedThreeDs, statusNotices, transactionNotice } from '../../../workflows/card-entity/notices';
import {
  authFeeRecord,
  authorizationRecord,
  card3dsRecord,
  cardOperationRecord,
  providerEvent,
} from '../../fixtures/provider-events';

it('learnEvent says whether the event was new: a repeat, another card and a record without tradeNo are not', () => {
  const card = new CardState('C1', undefined);
  expect(card.learnEvent(providerEvent('card_auth_transaction', authorizationRecord()))).toBe('new');
  expect(card.learnEvent(providerEvent('card_auth_transaction', authorizationRecord()))).toBe('ignored');
  expect(card.learnEvent(providerEvent('card_auth_transaction', authorizationRecord({ status: 'succeed' })))).toBe(
    'new',
  );
  expect(card.learnEvent(providerEvent('card_auth_transaction', authorizationRecord({ cardNo: 'C2' })))).toBe(
    'ignored',
  );
  expect(card.learnEvent(providerEvent('card_fee_patch', authFeeRecord({ tradeNo: '' })))).toBe('ignored');
  // What it records is the same as before: one authorization, settled.
  expect(card.snapshot(0).authorizations.map((a) => [a.tradeNo, a.status])).toEqual([['T1', 'succeed']]);
});

it('learnEvent says when a record state came after a later one: older, and the record keeps its later state', () => {
  const card = new CardState('C1', undefined);
  const settled = authorizationRecord({ tradeNo: 'T2', status: 'succeed', settleAmount: '12.50' });
  expect(card.learnEvent(providerEvent('card_auth_transaction', settled))).toBe('new');
  const totals = card.totals;
  // The hold's webhook, crossed by its settlement's: new to the state, but older than what it
  // holds.
  expect(card.learnEvent(providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T2' })))).toBe('older');
  expect(card.learnEvent(providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T2' })))).toBe(
    'ignored',
  );
  expect(card.snapshot(0).authorizations.map((a) => [a.tradeNo, a.status, a.settleAmount])).toEqual([
    ['T2', 'succeed', '12.50'],
  ]);
  expect(card.totals).toEqual(totals);
  expect(card.snapshot(0).authorizationCount).toBe(1);
});

it('maps each money record to its card.transaction kind, with ids and amounts only', () => {
  const kind = (event: Parameters<typeof transactionNotice>[1]) => transactionNotice('C1', event)?.kind;
  expect(kind(providerEvent('card_auth_transaction', authorizationRecord()))).toBe('authorization');
  expect(kind(providerEvent('card_auth_transaction', authorizationRecord({ status: 'failed' })))).toBe('authorization');
  expect(kind(providerEvent('card_auth_transaction', authorizationRecord({ type: 'refund' })))).toBe('refund');
  expect(kind(providerEvent('card_auth_transaction', authorizationRecord({ type: 'maintain_fee' })))).toBe('fee');
  expect(kind(providerEvent('card_fee_patch', authFeeRecord()))).toBe('fee');
  expect(kind(providerEvent('card_transaction', cardOperationRecord({ type: 'overdraft_statement' })))).toBe(
    'overdraft',
  );
  expect(kind(providerEvent('card_transaction', cardOperationRecord({ type: 'withdraw' })))).toBeUndefined();
  const settled = transactionNotice(
    'C1',
    providerEvent(
      'card_auth_transaction',
      authorizationRecord({ status: 'succeed', settleAmount: '12.50', settleCurrency: 'USD', merchantName: 'Shop' }),
    ),
  );
  expect(settled).toEqual({
    cardNo: 'C1',
    kind: 'settlement',
    tradeNo: 'T1',
    amount: '12.50',
    currency: 'USD',
    status: 'succeed',
    merchantName: 'Shop',
  });
});

it('tells the block set and lifted, a status move, and nothing for a first status or a cancel', () => {
  expect(statusNotices('C1', { status: 'Normal', blocked: false }, { status: 'Freeze', blocked: true })).toEqual([
    { type: 'card.blocked', data: { cardNo: 'C1', cardStatus: 'blocked' } },
  ]);
  expect(
    statusNotices(
      'C1',
      { status: 'Freeze', blocked: true },
      { status: 'Normal', blocked: false },
      { merchantOrderNo: 'CF9' },
    ),
  ).toEqual([{ type: 'card.unblocked', data: { cardNo: 'C1', merchantOrderNo: 'CF9', cardStatus: 'Normal' } }]);
  expect(statusNotices('C1', { status: 'Normal', blocked: false }, { status: 'Freeze', blocked: false })).toEqual([
    { type: 'card.status_changed', data: { cardNo: 'C1', status: 'Freeze', previousStatus: 'Normal' } },
  ]);
  expect(statusNotices('C1', { blocked: false }, { status: 'Normal', blocked: false })).toEqual([]);
  expect(statusNotices('C1', { status: 'Normal', blocked: false }, { status: 'cancel', blocked: false })).toEqual([]);
  // A blocked card cancelled: the cancel lifts the block flag, but that is no unblock.
  expect(statusNotices('C1', { status: 'Freeze', blocked: true }, { status: 'cancel', blocked: false })).toEqual([]);
});

it('relays a 3DS code or URL by its tradeNo, never an activation code', () => {
  const { values: _v, ...otp } = card3dsRecord({ type: 'third_3ds_otp', tradeNo: 'D1' });
  const { values: _w, ...activation } = card3dsRecord();
  expect(relayedThreeDs(providerEvent('card_3ds', otp))).toBe('D1');
  expect(relayedThreeDs(providerEvent('card_3ds', { ...otp, type: 'auth_url' }))).toBe('D1');
  expect(relayedThreeDs(providerEvent('card_3ds', activation))).toBeUndefined();
});

it('eventNotices tells one event in order: its transaction, the move it made, the 3DS record to relay', () => {
  const card = new CardState('C1', undefined);
  const learnt = (event: Parameters<CardState['learnEvent']>[0]) => {
    const before = card.mark();
    const learned = card.learnEvent(event);
    if (learned === 'ignored') throw new Error('not learned');
    return { learned, move: { before, after: card.mark(), customerRef: 'cust-1' } };
  };
  const never = () => {
    throw new Error('asked for a new state');
  };
  card.learnRead({ status: 'Normal' }, 1_700_000_000_000, true);
  const blocked = providerEvent('card_transaction', cardOperationRecord({ type: 'blocked', transactionTime: 2e12 }));
  const step = learnt(blocked);
  expect(eventNotices('C1', blocked, step.learned, step.move, never)).toEqual({
    notices: [
      {
        type: 'card.blocked',
        data: { cardNo: 'C1', customerRef: 'cust-1', merchantOrderNo: 'CF1', cardStatus: 'blocked' },
      },
    ],
    relay: undefined,
  });
  const settled = providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T9', status: 'succeed' }));
  expect(eventNotices('C1', settled, learnt(settled).learned, step.move, never).notices.map((n) => n.type)).toEqual([
    'card.transaction',
    'card.blocked',
  ]);
  const hold = providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T9' }));
  const older = learnt(hold);
  expect(older.learned).toBe('older');
  expect(eventNotices('C1', hold, older.learned, older.move, () => false).notices).toEqual([]);
  expect(eventNotices('C1', hold, older.learned, older.move, () => true).notices).toHaveLength(1);
  const otp = providerEvent('card_3ds', card3dsRecord({ type: 'third_3ds_otp', tradeNo: 'D2' }));
  expect(eventNotices('C1', otp, learnt(otp).learned, older.move, never)).toEqual({ notices: [], relay: 'D2' });
});

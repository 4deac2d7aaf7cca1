/**
 * The card's life in its entity's state, outside a workflow: each authorization type, fee source
 * and provider-initiated operation booked once (domain/card-ledger.ts) however its webhooks come,
 * a bank block as a state of its own that refuses unfreeze and deposit, and the receiver's choice
 * of which events start a card's workflow (webhooks/card-route.ts).
 */
import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../../../domain/failure-types';
import { CardRequests } from '../../../workflows/card-entity/requests';
import { CardState } from '../../../workflows/card-entity/state';
import { cardDelivery } from '../../../webhooks/card-route';
import { routeEvent } from '../../../webhooks/routing';
import {
  authFeeRecord,
  authorizationRecord,
  card3dsRecord,
  cardOperationRecord,
  providerEvent,
} from '../../fixtures/provider-events';

const T = 1_700_000_000_000;
type OperationType = NonNullable<Parameters<typeof cardOperationRecord>[0]>['type'] & string;
const auth = (overrides: Parameters<typeof authorizationRecord>[0]) =>
  providerEvent('card_auth_transaction', authorizationRecord(overrides));

it('books each authorization type once: hold, settlement with its difference, decline, Void, refund, verification, card fee', () => {
  const card = new CardState('C1', undefined);
  const events = [
    auth({ tradeNo: 'A1', authorizedAmount: '20' }),
    auth({ tradeNo: 'A1', authorizedAmount: '20', status: 'succeed', settleAmount: '21.50', transactionTime: T + 1 }),
    auth({ tradeNo: 'A1', authorizedAmount: '20', status: 'authorized' }), // late, reordered: ignored
    auth({ tradeNo: 'A2', authorizedAmount: '7' }),
    auth({ tradeNo: 'A2', authorizedAmount: '7', status: 'failed', transactionTime: T + 2 }),
    auth({ tradeNo: 'V1', type: 'Void', authorizedAmount: '7', status: 'succeed', originTradeNo: 'A2' }),
    auth({ tradeNo: 'R1', type: 'refund', authorizedAmount: '3', status: 'succeed', originTradeNo: 'A1' }),
    auth({ tradeNo: 'X1', type: 'verification', authorizedAmount: '0', status: 'succeed' }),
    auth({ tradeNo: 'M1', type: 'maintain_fee', authorizedAmount: '1.25', status: 'succeed' }),
    auth({ tradeNo: 'D1', authorizedAmount: '5000', status: 'failed' }),
  ];
  for (const event of [...events, ...events]) card.learnEvent(event);
  const { totals, entries, authorizationCount } = card.snapshot(0);
  expect(totals).toMatchObject({
    held: '0',
    settled: '21.5',
    settleDifference: '1.5',
    voided: '7',
    refunded: '3',
    maintainFees: '1.25',
    declined: 1,
    verifications: 1,
  });
  expect(entries?.map((e) => `${e.ref} ${e.effect}`)).toEqual([
    'A1 held',
    'A1 settled (difference 1.5)',
    'A2 held',
    'A2 reversed',
    'V1 reversal released',
    'R1 refunded',
    'X1 card verification',
    'M1 card fee',
    'D1 declined',
  ]);
  expect(authorizationCount).toBe(7);
  expect(card.balanceStale).toBe(true);
});

it('books fees by the funds that paid them, the reversal to the merchant, withdrawals and overdrafts', () => {
  const card = new CardState('C1', undefined);
  const fee = (tradeNo: string, deductionSourceFunds: string) =>
    providerEvent('card_fee_patch', authFeeRecord({ tradeNo, deductionSourceFunds }));
  const op = (orderNo: string, type: OperationType, amount: string, subType?: 'DEFAULT' | 'REFUND') =>
    providerEvent(
      'card_transaction',
      cardOperationRecord({ orderNo, merchantOrderNo: null, type, amount, ...(subType ? { subType } : {}) }),
    );
  for (const event of [
    fee('F1', 'card'),
    fee('F2', 'platform_reserve'),
    fee('F3', 'wallet'),
    fee('F3', 'wallet'),
    op('W1', 'withdraw', '10', 'DEFAULT'),
    op('W2', 'withdraw', '4', 'REFUND'),
    op('O1', 'overdraft_statement', '1'),
    op('O1', 'overdraft_statement', '1'),
  ])
    card.learnEvent(event);
  expect(card.snapshot(0).totals).toMatchObject({
    feesFromCard: '0.2',
    feesFromPlatformReserve: '0.2',
    feeReversals: '0.2',
    withdrawn: '10',
    refundWithdrawn: '4',
    overdraft: '1',
  });
  expect(card.snapshot(0).entries).toHaveLength(6);
});

it('a bank block is its own state: unfreeze and deposit are refused naming it, an unblock needs a blocked card', () => {
  const card = new CardState('C1', undefined);
  const requests = new CardRequests(card);
  card.learnRead({ status: 'Normal', blocked: false }, T, true);
  expect(() => requests.validateUnblock({ requestId: 'u1', files: [{ ref: 'note.pdf' }] })).toThrow(
    /is not blocked by the issuing bank/,
  );
  card.learnEvent(
    providerEvent(
      'card_transaction',
      cardOperationRecord({
        orderNo: 'B1',
        merchantOrderNo: null,
        type: 'blocked',
        amount: '0',
        transactionTime: T + 5,
      }),
    ),
  );
  expect(card.snapshot(0)).toMatchObject({ status: 'blocked', blocked: true });
  for (const run of [
    () => requests.validateOperation('r1', 'unfreeze'),
    () => requests.validateDeposit({ requestId: 'd1', amount: '10', cardTypeId: '1' }),
  ]) {
    try {
      run();
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ApplicationFailure);
      expect((error as ApplicationFailure).type).toBe(FailureTypes.operationNotAllowed);
      expect((error as ApplicationFailure).message).toMatch(/blocked by the issuing bank.*requestUnblock/);
    }
  }
  expect(() => requests.validateUnblock({ requestId: 'u1', files: [] })).toThrow(/at least one supporting file/);
  expect(() => requests.validateUnblock({ requestId: 'u1', files: [{ ref: 'note.pdf' }] })).not.toThrow();
  card.learnUnblocked();
  expect(card.snapshot(0)).toMatchObject({ status: 'Normal' });
  expect(card.blocked).toBe(false);
});

it('the receiver starts a card workflow for the card’s own events, only signals it for a merchant’s operations', () => {
  const authEvent = auth({ cardNo: 'C9' });
  expect(cardDelivery(authEvent)).toEqual({ cardNo: 'C9', start: true });
  expect(cardDelivery(providerEvent('card_3ds', card3dsRecord({ cardNo: 'C9' })))).toEqual({
    cardNo: 'C9',
    start: true,
  });
  for (const type of ['blocked', 'cancel', 'withdraw', 'overdraft_statement'] as const)
    expect(cardDelivery(providerEvent('card_transaction', cardOperationRecord({ cardNo: 'C9', type })))).toEqual({
      cardNo: 'C9',
      start: true,
    });
  for (const type of ['create', 'deposit', 'Freeze', 'UnFreeze', 'update_pin'] as const)
    expect(cardDelivery(providerEvent('card_transaction', cardOperationRecord({ cardNo: 'C9', type })))?.start).toBe(
      false,
    );
  // An activation's result: the only word that the card left un_activated.
  const activation = providerEvent('physical_card', {
    merchantOrderNo: 'ACT9',
    cardNo: 'C9',
    type: 'card_activated',
    status: 'success',
  });
  expect(cardDelivery(activation)).toEqual({ cardNo: 'C9', start: true });
  expect(routeEvent(activation).map((l) => l.kind)).toEqual(['order']);
  expect(cardDelivery(auth({ cardNo: "C9' OR 1=1" }))).toBeUndefined();
  // The card's workflow has it: an authorization needs no lookup; an operation still reaches its
  // sender.
  expect(routeEvent(authEvent)).toEqual([]);
  const freeze = providerEvent('card_transaction', cardOperationRecord({ cardNo: 'C9', type: 'Freeze' }));
  expect(routeEvent(freeze).map((l) => l.kind)).toEqual(['order']);
});

it('an auth learned failed before its hold (catch-up, reordered webhooks) is a reversal once its Void names it, in either order', () => {
  for (const voidFirst of [false, true]) {
    const card = new CardState('C1', undefined);
    const failed = auth({ tradeNo: 'A2', authorizedAmount: '7', status: 'failed', transactionTime: T + 2 });
    const reversal = auth({
      tradeNo: 'V1',
      type: 'Void',
      authorizedAmount: '7',
      status: 'succeed',
      originTradeNo: 'A2',
    });
    for (const event of voidFirst ? [reversal, failed] : [failed, reversal]) card.learnEvent(event);
    card.learnEvent(auth({ tradeNo: 'A2', authorizedAmount: '7' })); // the hold, last: older, ignored
    const { totals, entries } = card.snapshot(0);
    expect(totals).toMatchObject({ declined: 0, voided: '7', held: '0' });
    expect(entries?.find((e) => e.ref === 'A2')?.effect).toBe('reversed');
  }
});

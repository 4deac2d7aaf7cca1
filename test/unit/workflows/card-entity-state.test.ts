/**
 * The card entity's state (workflows/card-entity/state.ts) and its requests' validators
 * (workflows/card-entity/requests.ts), outside a workflow: what events, reads and its own
 * operations teach it, what it carries across continue-as-new, and which requests it refuses.
 */
import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../../../domain/failure-types';
import { CardRequests } from '../../../workflows/card-entity/requests';
import { CardState, type CardEntityState } from '../../../workflows/card-entity/state';
import { authorizationRecord, cardOperationRecord, providerEvent } from '../../fixtures/provider-events';

const T = 1_700_000_000_000;

function refusal(run: () => void): { type: string | undefined; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApplicationFailure) return { type: error.type ?? undefined, message: error.message };
    throw error;
  }
  throw new Error('the request was accepted');
}

it('counts an authorization once however often its webhook comes, and ignores another card', () => {
  const card = new CardState('C1', undefined);
  const authorized = providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T1' }));
  card.learnEvent(authorized);
  card.learnEvent(providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T1' })));
  card.learnEvent(providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T1', status: 'succeed' })));
  card.learnEvent(providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T2', cardNo: 'C2' })));
  const snapshot = card.snapshot(0);
  expect(snapshot.authorizationCount).toBe(1);
  expect(snapshot.authorizations.map((a) => [a.tradeNo, a.status])).toEqual([['T1', 'succeed']]);
});

it('ends on a cancel record, with its reason, and a cancelled card refuses a new request but answers a repeat', () => {
  const card = new CardState('C1', undefined);
  const requests = new CardRequests(card);
  card.remember('r1', {
    cardNo: 'C1',
    kind: 'freeze',
    merchantOrderNo: 'CF1',
    orderNo: 'P1',
    status: 'success',
    cardStatus: 'Freeze',
  });
  card.learnEvent(
    providerEvent(
      'card_transaction',
      cardOperationRecord({
        merchantOrderNo: 'RISK1',
        type: 'cancel',
        description: 'high-risk merchant',
        transactionTime: T,
      }),
    ),
  );
  expect(card.cancelled).toBe(true);
  expect(card.projected).toBe('cancel');
  expect(card.result()).toEqual({
    cardNo: 'C1',
    status: 'cancel',
    reason: 'high-risk merchant',
    authorizationCount: 0,
    runs: 1,
    // What came back to the account is not known yet: the workflow waits for the ledger's
    // card_cancel.
    cancellation: { orderNo: 'P1', reason: 'high-risk merchant' },
  });
  expect(refusal(() => requests.validateOperation('r2', 'unfreeze'))).toEqual({
    type: FailureTypes.cardCancelled,
    message: 'card C1 is cancelled',
  });
  expect(() => requests.validateOperation('r1', 'freeze')).not.toThrow();
});

it('refuses an operation the projected status does not allow, and names a malformed requestId', () => {
  const card = new CardState('C1', undefined);
  const requests = new CardRequests(card);
  card.learnRead({ status: 'Normal' }, T, true);
  expect(card.projected).toBe('Normal');
  expect(() => requests.validateOperation('r1', 'freeze')).not.toThrow();
  card.project('freeze');
  card.learnRead({ status: 'Normal' }, T + 1000, false);
  expect(card.projected).toBe('Freeze');
  expect(refusal(() => requests.validateOperation('r2', 'freeze'))).toEqual({
    type: FailureTypes.operationNotAllowed,
    message: 'card C1 is (or will be) Freeze; freeze needs Normal',
  });
  card.settle();
  expect(card.projected).toBe('Normal');
  expect(refusal(() => requests.validateOperation('bad id', 'freeze')).type).toBe(FailureTypes.invalidInput);
  expect(refusal(() => requests.validateOperation('bad id', 'freeze')).message).toMatch(/requestId: must be 1 to 64/);
  expect(
    refusal(() => requests.validateDeposit({ requestId: 'r3', amount: '1e3', cardTypeId: '1001' })).message,
  ).toMatch(/amount: must be a decimal string/);
});

it("takes its own operation's record as seen, so that record's late webhook changes nothing", () => {
  const card = new CardState('C1', undefined);
  card.learnRead({ status: 'Normal' }, T, true);
  card.learnOwnRecord('CF9', 'success');
  card.learnEvent(
    providerEvent(
      'card_transaction',
      cardOperationRecord({ merchantOrderNo: 'CF9', type: 'Freeze', transactionTime: Date.now() + 60_000 }),
    ),
  );
  expect(card.snapshot(0).status).toBe('Normal');
  card.learnEvent(
    providerEvent(
      'card_transaction',
      cardOperationRecord({ merchantOrderNo: 'CF10', type: 'Freeze', transactionTime: Date.now() + 60_000 }),
    ),
  );
  expect(card.snapshot(0).status).toBe('Freeze');
});

it('carries its record across continue-as-new: the run count, the seen keys and a cancelled status', () => {
  const first = new CardState('C1', undefined);
  first.learnEvent(providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T1' })));
  const carried: CardEntityState = JSON.parse(JSON.stringify(first.carried));
  const second = new CardState('C1', carried);
  second.learnEvent(providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T1' })));
  expect(second.snapshot(0)).toMatchObject({ run: 2, authorizationCount: 1 });
  const cancelled = new CardState('C1', { ...carried, status: 'cancel' });
  expect(cancelled.cancelled).toBe(true);
  expect(cancelled.projected).toBe('cancel');
});

it('an activation result makes an un_activated card Normal (a frozen one keeps its status), and a card read before its activation is not refused', () => {
  const activated = (status: 'success' | 'fail', merchantOrderNo = 'ACT1') =>
    providerEvent('physical_card', { merchantOrderNo, cardNo: 'C1', type: 'card_activated', status });
  const card = new CardState('C1', undefined);
  const requests = new CardRequests(card);
  card.learnRead({ status: 'un_activated' }, T, true);
  // Read before its activation, the card may be active by now: the provider decides.
  expect(() => requests.validateOperation('p1', 'updatePin', { sealedPin: 'sealed' })).not.toThrow();
  expect(() => requests.validateOperation('f1', 'freeze')).not.toThrow();
  // Without the patch (a run sent one before) the result is ignored, as it always was.
  card.learnEvent(activated('success', 'ACT0'), () => false);
  expect(card.projected).toBe('un_activated');
  card.learnEvent(activated('fail'), () => true);
  expect(card.projected).toBe('un_activated');
  card.learnEvent(activated('success'), () => true);
  expect(card.snapshot(0).status).toBe('Normal');
  expect(card.projected).toBe('Normal');
  expect(refusal(() => requests.validateOperation('u1', 'unfreeze')).type).toBe(FailureTypes.operationNotAllowed);

  const frozen = new CardState('C1', undefined);
  frozen.learnEvent(
    providerEvent('card_transaction', cardOperationRecord({ cardNo: 'C1', type: 'Freeze', transactionTime: T })),
  );
  frozen.learnEvent(activated('success'), () => true);
  expect(frozen.snapshot(0).status).toBe('Freeze');
});

import { keyBeforeStateFields, providerEventKey, recordStateKey, recordTimeOf } from '../../../domain/event-identity';
import {
  authorizationRecord,
  card3dsRecord,
  cardholderResult,
  cardOperationRecord,
  providerEvent,
  workOrderRecord,
} from '../../fixtures/provider-events';

describe('providerEventKey', () => {
  it('keys a card operation on merchantOrderNo and status, ignoring the delivery id', () => {
    const a = providerEventKey(providerEvent('card_transaction', cardOperationRecord({ status: 'success' }), 'r1'));
    const b = providerEventKey(providerEvent('card_transaction', cardOperationRecord({ status: 'success' }), 'r2'));
    const c = providerEventKey(providerEvent('card_transaction', cardOperationRecord({ status: 'processing' }), 'r3'));
    expect(a).toBe('card_transaction|CF1|success');
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(providerEventKey(providerEvent('card_transaction', cardOperationRecord({ merchantOrderNo: null })))).toBe(
      'card_transaction|P1|success',
    );
  });

  it('keys cardholders on holderId and authorizations on tradeNo; no key without an id', () => {
    expect(providerEventKey(providerEvent('card_holder', cardholderResult({ holderId: '19', status: 'reject' })))).toBe(
      'card_holder|19|reject',
    );
    expect(providerEventKey(providerEvent('card_auth_transaction', authorizationRecord({ tradeNo: 'T' })))).toBe(
      'card_auth_transaction|T|authorized',
    );
    expect(providerEventKey(providerEvent('card_holder', cardholderResult({ holderId: '' })))).toBeUndefined();
  });

  it('keys a review state per round too; the event keeps the state key and gives its time apart', () => {
    const timed = providerEvent('card_holder', {
      ...cardholderResult({ holderId: '19', status: 'reject' }),
      updateTime: 1795657053636,
    });
    expect(providerEventKey(timed)).toBe('card_holder|19|reject');
    expect(recordTimeOf(timed)).toBe(1795657053636);
    expect(recordTimeOf(providerEvent('card_holder', cardholderResult()))).toBeUndefined();
    expect(recordStateKey('card_holder', '19', 'reject', 1)).toBe('card_holder|19|reject|round 1');
  });

  it('keys work orders by tradeStatus and 3DS records by their kind; the earlier key left both out', () => {
    const work = providerEvent('work', workOrderRecord());
    const code = providerEvent('card_3ds', card3dsRecord({ tradeNo: 'T3' }));
    expect(providerEventKey(work)).toBe('work|CFwork|success');
    expect(providerEventKey(code)).toBe('card_3ds|T3|activation_code');
    expect(keyBeforeStateFields(work)).toBeUndefined();
    expect(keyBeforeStateFields(code)).toBeUndefined();
    expect(keyBeforeStateFields(providerEvent('card_transaction', cardOperationRecord()))).toBe(
      'card_transaction|CF1|success',
    );
  });
});

import { providerEventKey } from '../../../domain/event-identity';

describe('providerEventKey', () => {
  it('keys a card operation on merchantOrderNo and status, ignoring the delivery id', () => {
    const a = providerEventKey({
      category: 'card_transaction',
      requestId: 'r1',
      record: { merchantOrderNo: 'CF1', orderNo: 'P1', status: 'success' },
    });
    const b = providerEventKey({
      category: 'card_transaction',
      requestId: 'r2',
      record: { merchantOrderNo: 'CF1', orderNo: 'P1', status: 'success' },
    });
    const c = providerEventKey({
      category: 'card_transaction',
      requestId: 'r3',
      record: { merchantOrderNo: 'CF1', orderNo: 'P1', status: 'processing' },
    });
    expect(a).toBe('card_transaction|CF1|success');
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it('keys cardholders on holderId and authorizations on tradeNo; no key without id or status', () => {
    expect(
      providerEventKey({ category: 'card_holder', requestId: 'r', record: { holderId: '19', status: 'reject' } }),
    ).toBe('card_holder|19|reject');
    expect(
      providerEventKey({
        category: 'card_auth_transaction',
        requestId: 'r',
        record: { tradeNo: 'T', status: 'authorized' },
      }),
    ).toBe('card_auth_transaction|T|authorized');
    expect(providerEventKey({ category: 'card_holder', requestId: 'r', record: { status: 'reject' } })).toBeUndefined();
  });
});

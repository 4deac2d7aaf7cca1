/** merchantOrderNo is unique across every operation type: a repeat creates nothing (40003). */
import { SandboxErrorCode } from '../../../../tools/sandbox/contract';
import { createHarness } from './harness';
import { orderNo, TYPES } from './fixtures';

describe('duplicate merchantOrderNo', () => {
  it('leaves exactly one order when a create card is retried, and changes nothing', async () => {
    const h = createHarness();
    const merchantOrderNo = orderNo();
    const first = h.call('createCard', { merchantOrderNo, cardTypeId: TYPES.subscription, amount: '0' });
    const snapshot = h.engine.moneySnapshot();
    const events = h.events.length;

    const again = h.refusal('createCard', { merchantOrderNo, cardTypeId: TYPES.subscription, amount: '0' });
    expect(again.code).toBe(SandboxErrorCode.duplicateOrder);
    expect(again.message).toMatch(/^merchantOrderNo: Duplicate order number/);
    expect(h.engine.moneySnapshot()).toEqual(snapshot);
    expect(h.events.length).toBe(events);

    await h.settle();
    const found = h.call('listCardTransactions', { merchantOrderNo, pageNum: 1, pageSize: 10 });
    expect(found.total).toBe('1');
    expect(found.records[0]).toMatchObject({ orderNo: first.orderNo, status: 'success' });
    expect(h.call('listCardPurchases', { merchantOrderNo, pageNum: 1, pageSize: 10 }).total).toBe('1');
  });

  it('is unique across operation types (a deposit, a transfer or a cardholder cannot reuse it)', async () => {
    const h = createHarness();
    const merchantOrderNo = orderNo();
    const { cardNo } = h.call('createCard', { merchantOrderNo, cardTypeId: TYPES.subscription, amount: '0' });
    await h.settle();
    const wallet = h.call('getAccountInfo', {})[0]!;
    const margin = h.call('createSharedAccount', { accountName: 'M' });
    const attempts = [
      () => h.refusal('depositCard', { cardNo, merchantOrderNo, amount: '10' }),
      () => h.refusal('freezeCard', { cardNo, merchantOrderNo }),
      () =>
        h.refusal('transferFunds', {
          type: 'TRANSFER',
          merchantOrderNo,
          amount: '1',
          payerAccountId: wallet.accountId,
          payeeAccountId: margin.accountId,
        }),
      () => h.refusal('submitWorkOrder', { merchantOrderNo, title: 't', target: cardNo, tradeType: 'OTHER' }),
    ];
    for (const attempt of attempts) expect(attempt().code).toBe(SandboxErrorCode.duplicateOrder);
    expect(h.call('getCardInfo', { cardNo }).status).toBe('Normal');
    expect(h.call('getAccount', { accountId: margin.accountId }).totalBalance).toBe('0.00');
    await expect(h.helper('cancelCard', { cardNo, merchantOrderNo })).rejects.toMatchObject({
      code: SandboxErrorCode.duplicateOrder,
    });
  });

  it('does not consume the number when the first request is refused', () => {
    const h = createHarness();
    const merchantOrderNo = orderNo();
    expect(h.refusal('createCard', { merchantOrderNo, cardTypeId: TYPES.offline, amount: '0' }).code).toBe(
      SandboxErrorCode.state,
    );
    expect(h.call('createCard', { merchantOrderNo, cardTypeId: TYPES.subscription, amount: '0' }).merchantOrderNo).toBe(
      merchantOrderNo,
    );
  });
});

/** A cancelled card's balance leaves by each path the spec describes, or stays (`never`). */
import { createHarness, type Harness } from './harness';
import { orderNo, TYPES } from './fixtures';

async function cancelled(h: Harness, returnBy?: string) {
  const { cardNo } = h.call('createCard', { merchantOrderNo: orderNo(), cardTypeId: TYPES.gift, amount: '100' });
  await h.settle();
  const charged = h.call('getCardBalance', { cardNo }).amount;
  await h.helper('cancelCard', { cardNo, ...(returnBy ? { returnBy } : {}) });
  await h.settle();
  const [cancel] = h.call('listCardTransactions', { type: 'cancel', cardNo, pageNum: 1, pageSize: 1 }).records;
  expect(cancel).toMatchObject({ status: 'success', amount: charged });
  return { cardNo, charged, cancel: cancel! };
}

type BizType = 'card_cancel' | 'card_withdraw' | 'card_refund';
const entries = (h: Harness, bizType: BizType) =>
  h.call('listLedgerEntries', { bizType, pageNum: 1, pageSize: 100 }).records as Array<Record<string, unknown>>;

describe('sandbox: where a cancelled card’s balance goes', () => {
  it('cancel (default): a card_cancel entry under the cancel record’s orderNo', async () => {
    const h = createHarness();
    const { charged, cancel } = await cancelled(h);
    expect(entries(h, 'card_cancel')).toEqual([
      expect.objectContaining({ orderNo: cancel.orderNo, amount: charged, direction: 'IN' }),
    ]);
  });

  it('withdraw: a withdraw record with subType REFUND and its card_withdraw entry', async () => {
    const h = createHarness();
    const { cardNo, charged } = await cancelled(h, 'withdraw');
    const [refund] = h.call('listCardTransactions', { type: 'withdraw', cardNo, pageNum: 1, pageSize: 10 }).records;
    expect(refund).toMatchObject({ subType: 'REFUND', status: 'success', amount: charged });
    expect(entries(h, 'card_withdraw')).toEqual([
      expect.objectContaining({ orderNo: refund!.orderNo, amount: charged, direction: 'IN' }),
    ]);
    expect(entries(h, 'card_cancel')).toEqual([]);
  });

  it('refund and cancel_own_order: an entry under an orderNo that is not the cancel record’s', async () => {
    for (const [returnBy, bizType] of [
      ['refund', 'card_refund'],
      ['cancel_own_order', 'card_cancel'],
    ] as const) {
      const h = createHarness();
      const { charged, cancel } = await cancelled(h, returnBy);
      const [entry] = entries(h, bizType);
      expect(entry).toMatchObject({ amount: charged, direction: 'IN' });
      expect(entry!.orderNo).not.toBe(cancel.orderNo);
    }
  });

  it('never: the balance stays with the cancelled card, and no entry returns it', async () => {
    const h = createHarness();
    const { cardNo, charged } = await cancelled(h, 'never');
    expect(h.call('getCardBalance', { cardNo }).amount).toBe(charged);
    for (const bizType of ['card_cancel', 'card_withdraw', 'card_refund'] as const)
      expect(entries(h, bizType)).toEqual([]);
  });
});

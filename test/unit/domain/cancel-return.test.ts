/** Where a cancelled card's balance went: matched by the card and the amount, on each path. */
import { findCancelReturn, type CancelFacts } from '../../../domain/cancel-return';
import type { LedgerEntry } from '../../../provider/schemas/account';
import type { CardOperationRecord } from '../../../provider/schemas/card';

const cancel: CancelFacts = { cardNo: '5000000000000000001', orderNo: 'C-1', amount: '25.00', at: 100 };

function entry(over: Partial<LedgerEntry>): LedgerEntry {
  return {
    txId: '1',
    accountId: '9000000000000000001',
    currency: 'USD',
    amount: '25',
    beforeBalance: '0',
    afterBalance: '25',
    orderNo: 'L-1',
    bizType: 'card_cancel',
    direction: 'IN',
    createTime: 100,
    ...over,
  };
}

function withdrawal(over: Partial<CardOperationRecord>): CardOperationRecord {
  return {
    orderNo: 'W-1',
    cardNo: cancel.cardNo,
    currency: 'USD',
    amount: '25.00',
    fee: '0',
    type: 'withdraw',
    subType: 'REFUND',
    status: 'success',
    transactionTime: 2,
    ...over,
  };
}

describe('findCancelReturn', () => {
  it('takes the card_cancel entry under the cancel record’s orderNo as the card’s', () => {
    const match = findCancelReturn({ cancel, withdrawals: [], entries: [entry({ orderNo: 'C-1' })] });
    expect(match).toMatchObject({ path: 'card_cancel', orderNo: 'C-1', matchedBy: 'card' });
  });

  it('takes the card_withdraw entry of the card’s REFUND withdrawal as the card’s', () => {
    const match = findCancelReturn({
      cancel,
      withdrawals: [withdrawal({})],
      entries: [entry({ bizType: 'card_withdraw', orderNo: 'W-1' })],
    });
    expect(match).toMatchObject({ path: 'card_withdraw', orderNo: 'W-1', matchedBy: 'card' });
  });

  it('takes the card’s REFUND withdrawal alone when its ledger entry is not seen', () => {
    const match = findCancelReturn({ cancel, withdrawals: [withdrawal({})], entries: [] });
    expect(match).toMatchObject({ path: 'refund_withdrawal', orderNo: 'W-1', matchedBy: 'card' });
  });

  it('takes a card_refund entry under an orderNo of its own by its amount, unless it is known foreign', () => {
    const refund = entry({ bizType: 'card_refund', orderNo: 'R-9', amount: '25.000' });
    expect(findCancelReturn({ cancel, withdrawals: [], entries: [refund] })).toMatchObject({
      path: 'card_refund',
      matchedBy: 'amount',
    });
    expect(findCancelReturn({ cancel, withdrawals: [], entries: [refund], foreign: new Set(['R-9']) })).toBeUndefined();
  });

  it('never takes by its amount alone an entry made before the cancel', () => {
    const earlier = entry({ bizType: 'card_cancel', orderNo: 'X-1', createTime: 99 });
    expect(findCancelReturn({ cancel, withdrawals: [], entries: [earlier] })).toBeUndefined();
  });

  it('ignores another amount, an outgoing entry, another bizType, another card’s or a failed withdrawal', () => {
    const entries = [
      entry({ orderNo: 'C-1', amount: '24.99' }),
      entry({ orderNo: 'C-1', direction: 'OUT' }),
      entry({ orderNo: 'C-1', bizType: 'card_deposit' }),
    ];
    const withdrawals = [withdrawal({ cardNo: '5000000000000000002' }), withdrawal({ status: 'fail' })];
    expect(findCancelReturn({ cancel, withdrawals, entries })).toBeUndefined();
  });
});

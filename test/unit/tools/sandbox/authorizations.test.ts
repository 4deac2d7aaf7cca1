/**
 * Authorizations, settlement, fees with the fee-offset rule, Void, refund, card fees, overdraft and
 * risk control.
 */
import { createHarness, type Harness } from './harness';
import { orderNo, TYPES } from './fixtures';

async function giftCard(h: Harness, amount = '100'): Promise<string> {
  const { cardNo } = h.call('createCard', { merchantOrderNo: orderNo(), cardTypeId: TYPES.gift, amount });
  await h.settle();
  return cardNo;
}

const wallet = (h: Harness) => h.call('getAccountInfo', {})[0]!;
const balance = (h: Harness, cardNo: string) => h.call('getCardBalance', { cardNo }).amount;
const auths = (h: Harness, tradeNo: string) =>
  h.call('listCardAuthTransactions', { tradeNo, pageNum: 1, pageSize: 10 }).records;

describe('card authorizations', () => {
  it('holds an auth, then settles it with fees and pushes the same tradeNo again', async () => {
    const h = createHarness({ cardOperationMs: 1000 });
    const cardNo = await giftCard(h);
    await h.clock.advance(10_000);
    const auth = await h.helper('authorizeCard', {
      cardNo,
      type: 'auth',
      amount: '40',
      merchantName: 'Amazon',
      mcc: '5942',
      merchantCountry: 'FR',
    });
    expect(auth).toMatchObject({ status: 'authorized' });
    const tradeNo = String(auth.tradeNo);
    expect(balance(h, cardNo)).toBe('60.00');
    expect(auths(h, tradeNo)[0]).toMatchObject({ status: 'authorized', fee: '0.00', crossBoardFee: '0.00' });

    await h.clock.advance(1000);
    // Settled: auth fee 0.20 and cross-border 1% of 40 = 0.40, from the card.
    expect(auths(h, tradeNo)[0]).toMatchObject({
      status: 'succeed',
      settleAmount: '40.00',
      fee: '0.20',
      crossBoardFee: '0.40',
    });
    expect(balance(h, cardNo)).toBe('59.40');
    const fees = h.call('listCardAuthFees', { originTradeNo: tradeNo, pageNum: 1, pageSize: 10 }).records;
    expect(fees.map((f) => [f.type, f.amount, f.deductionSourceFunds]).sort()).toEqual([
      ['card_patch_cross_border', '0.40', 'card'],
      ['card_patch_fee', '0.20', 'card'],
    ]);
    const pushed = h.events.filter((e) => e.category === 'card_auth_transaction' && e.payload.tradeNo === auth.tradeNo);
    expect(pushed.map((e) => e.payload.status)).toEqual(['authorized', 'succeed']);
    expect(h.events.filter((e) => e.category === 'card_fee_patch')).toHaveLength(2);
  });

  it('offsets a fee the card cannot cover from the merchant reserve, with a fee reversal record', async () => {
    const h = createHarness();
    const cardNo = await giftCard(h, '25');
    const before = wallet(h).totalBalance;
    const auth = await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '25' });
    await h.settle();
    expect(balance(h, cardNo)).toBe('0.00');
    const fees = h.call('listCardAuthFees', { originTradeNo: String(auth.tradeNo), pageNum: 1, pageSize: 10 }).records;
    expect(fees.map((f) => f.deductionSourceFunds).sort()).toEqual(['platform_reserve', 'wallet']);
    expect(fees.find((f) => f.deductionSourceFunds === 'wallet')!.statusStr).toMatch(/Fee reversal/);
    const entries = h.call('listLedgerEntries', { bizType: 'card_auth_fee_patch', pageNum: 1, pageSize: 10 }).records;
    expect(entries.map((e) => [e.amount, e.beforeBalance, e.afterBalance])).toEqual([
      ['0.20', before, (Number(before) - 0.2).toFixed(2)],
    ]);
  });

  it('releases a Void before settlement and refunds after settlement', async () => {
    const h = createHarness({ cardOperationMs: 1000 });
    const cardNo = await giftCard(h);
    await h.clock.advance(5000);
    const held = await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '30', settle: false });
    const voided = await h.helper('authorizeCard', { cardNo, type: 'Void', originTradeNo: held.tradeNo });
    expect(auths(h, String(voided.tradeNo))[0]).toMatchObject({ type: 'Void', status: 'succeed', amount: '30.00' });
    expect(auths(h, String(held.tradeNo))[0]!.status).toBe('failed');
    expect(balance(h, cardNo)).toBe('100.00');

    const spent = await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '10' });
    await expect(
      h.helper('authorizeCard', { cardNo, type: 'refund', originTradeNo: spent.tradeNo, amount: '5' }),
    ).rejects.toMatchObject({ code: 40005 });
    await h.clock.advance(1000);
    await h.helper('authorizeCard', { cardNo, type: 'refund', originTradeNo: spent.tradeNo, amount: '4' });
    await expect(
      h.helper('authorizeCard', { cardNo, type: 'refund', originTradeNo: spent.tradeNo, amount: '6.01' }),
    ).rejects.toMatchObject({ code: 40002 });
    // 100 - 10 - 0.20 fee + 4
    expect(balance(h, cardNo)).toBe('93.80');
  });

  it('turns a balance below zero into an overdraft statement charged to the merchant account', async () => {
    const h = createHarness();
    const cardNo = await giftCard(h, '25');
    const before = wallet(h).totalBalance;
    await h.helper('authorizeCard', { cardNo, type: 'maintain_fee', amount: '30' });
    expect(balance(h, cardNo)).toBe('0.00');
    const statement = h.call('listCardTransactions', { type: 'overdraft_statement', cardNo, pageNum: 1, pageSize: 10 })
      .records[0]!;
    expect(statement).toMatchObject({ amount: '5.00', status: 'success' });
    expect(
      h.call('listLedgerEntries', { bizType: 'card_overdraft_statement', pageNum: 1, pageSize: 10 }).records[0],
    ).toMatchObject({
      amount: '5.00',
      beforeBalance: before,
      direction: 'OUT',
    });
  });

  it('declines spending at a high-risk merchant of the bin, freezes and cancels the card, and returns its balance', async () => {
    const h = createHarness();
    const cardNo = await giftCard(h);
    const before = wallet(h).totalBalance;
    const auth = await h.helper('authorizeCard', {
      cardNo,
      type: 'auth',
      amount: '5',
      merchantName: 'Stake.com',
      mcc: '7995',
    });
    expect(auth).toMatchObject({ status: 'failed', description: expect.stringMatching(/high-risk/) });
    expect(h.call('getCardInfo', { cardNo }).status).toBe('canceling');
    await h.settle();
    expect(h.call('getCardInfo', { cardNo }).status).toBe('cancel');
    expect(
      h.call('listCardTransactions', { type: 'cancel', cardNo, pageNum: 1, pageSize: 1 }).records[0],
    ).toMatchObject({ status: 'success', amount: '100.00' });
    expect(wallet(h).totalBalance).toBe((Number(before) + 100).toFixed(2));
    const declined = await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '1' });
    expect(declined).toMatchObject({ status: 'failed' });
  });

  it('blocks a card at the bank: unfreeze is refused until a manual application (OTHER work order) succeeds', async () => {
    const h = createHarness();
    const cardNo = await giftCard(h);
    await h.helper('blockCard', { cardNo });
    expect(h.call('getCardInfo', { cardNo })).toMatchObject({ status: 'Freeze', blocked: true });
    expect(h.refusal('unfreezeCard', { cardNo, merchantOrderNo: orderNo() }).message).toMatch(/^cardNo: .*blocked/);
    h.call('submitWorkOrder', { merchantOrderNo: orderNo(), title: 'Unblock', target: cardNo, tradeType: 'OTHER' });
    await h.settle();
    expect(h.call('getCardInfo', { cardNo })).toMatchObject({ status: 'Normal', blocked: false });
  });
});

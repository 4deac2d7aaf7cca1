/**
 * State rules of card operations, accounts, work orders and helpers: each refusal carries its
 * code and a message that starts with the field to fix, and changes nothing.
 */
import { createHarness, type Harness } from './harness';
import { b2cHolder, orderNo, TYPES } from './fixtures';

async function normalCard(h: Harness): Promise<string> {
  const { cardNo } = h.call('createCard', { merchantOrderNo: orderNo(), cardTypeId: TYPES.gift, amount: '100' });
  await h.settle();
  return cardNo;
}

describe('operation rules', () => {
  it('refuses freeze/unfreeze/PIN/activation outside their states, naming the field', async () => {
    const h = createHarness();
    const cardNo = await normalCard(h);
    const before = { money: h.engine.moneySnapshot(), events: h.events.length };
    const cases: [() => { code: number; message: string }, number, RegExp][] = [
      [
        () => h.refusal('unfreezeCard', { cardNo, merchantOrderNo: orderNo() }),
        40005,
        /^cardNo: card \d+ is Normal; unfreezing needs status Freeze/,
      ],
      [() => h.refusal('unfreezeCardV1', { cardNo }), 40005, /^cardNo: /],
      [
        () => h.refusal('freezeCard', { cardNo: 'missing', merchantOrderNo: orderNo() }),
        40004,
        /^cardNo: card missing does not exist/,
      ],
      [
        () => h.refusal('activatePhysicalCard', { merchantOrderNo: orderNo(), cardNo, pin: '123456', activeCode: '1' }),
        40002,
        /^cardNo: .*physical cards only/,
      ],
      [() => h.refusal('getCardBalance', { cardNo: 'missing' }), 40004, /^cardNo: /],
      [() => h.refusal('createWalletAddress', { coinKey: 'DOGE' }), 40004, /^coinKey: coin DOGE does not exist/],
      [
        () => h.refusal('createSharedAccount', { accountName: 'Merchant wallet' }),
        40002,
        /^accountName: .*already exists/,
      ],
      [
        () =>
          h.refusal('submitWorkOrder', {
            merchantOrderNo: orderNo(),
            title: 'a',
            target: 'nope',
            tradeType: 'CARD_ACTIVE',
          }),
        40004,
        /^target: card nope does not exist/,
      ],
      [
        () =>
          h.refusal('submitWorkOrder', {
            merchantOrderNo: orderNo(),
            title: 'a',
            target: cardNo,
            tradeType: 'CARD_ACTIVE',
          }),
        40002,
        /^target: .*virtual/,
      ],
    ];
    for (const [attempt, code, message] of cases) {
      const error = attempt();
      expect([error.code, error.message]).toEqual([code, expect.stringMatching(message)]);
    }
    expect(h.engine.moneySnapshot()).toEqual(before.money);
    expect(h.events.length).toBe(before.events);
    h.call('freezeCard', { cardNo, merchantOrderNo: orderNo() });
    expect(h.refusal('freezeCard', { cardNo, merchantOrderNo: orderNo() }).message).toMatch(
      /^cardNo: card \d+ is Freezing/,
    );
  });

  it('refuses helper bodies and states that do not fit, naming the field', async () => {
    const h = createHarness();
    const cardNo = await normalCard(h);
    await expect(h.helper('authorizeCard', { cardNo, type: 'auth' })).rejects.toThrow(/^amount: is required/);
    await expect(h.helper('authorizeCard', { cardNo, type: 'steal', amount: '1' })).rejects.toMatchObject({
      code: 40002,
      message: expect.stringMatching(/^type: /),
    });
    await expect(h.helper('authorizeCard', { cardNo, type: 'refund', amount: '1' })).rejects.toThrow(
      /^originTradeNo: is required/,
    );
    await expect(h.helper('withdrawCard', { cardNo, amount: '100.01' })).rejects.toThrow(
      /^amount: must be more than 0 and at most 100/,
    );
    await expect(h.helper('creditMerchantWallet', { amount: '-5' })).rejects.toThrow(/^amount: must be greater than 0/);
    await expect(h.helper('decideCardholderReview', { holderId: '1', outcome: 'pass' })).rejects.toMatchObject({
      code: 40004,
    });
    await expect(h.helper('decideOperation', { orderNo: 'none', outcome: 'success' })).rejects.toMatchObject({
      code: 40004,
    });
    const { orderNo: done } = h.call('listCardTransactions', { cardNo, pageNum: 1, pageSize: 1 }).records[0]!;
    await expect(h.helper('decideOperation', { orderNo: done, outcome: 'fail' })).rejects.toThrow(
      /^orderNo: card operation \d+ is already success/,
    );
    await expect(h.helper('creditWalletDeposit', { coinKey: 'USDC_ERC20', amount: '5' })).rejects.toThrow(/^coinKey: /);
  });

  it('withdraws to the card account keeping balanceRetentionQuota, and cancels a card for good', async () => {
    const h = createHarness();
    const cardNo = await normalCard(h);
    const before = h.call('getAccountInfo', {})[0]!.totalBalance;
    await h.helper('withdrawCard', { cardNo, amount: '40', merchantOrderNo: orderNo() });
    await h.settle();
    expect(h.call('getCardBalance', { cardNo }).amount).toBe('60.00');
    expect(
      h.call('listLedgerEntries', { bizType: 'card_withdraw', pageNum: 1, pageSize: 10 }).records[0],
    ).toMatchObject({ amount: '40.00', direction: 'IN', beforeBalance: before });
    await h.helper('cancelCard', { cardNo });
    await h.settle();
    expect(h.call('getCardInfo', { cardNo, onlySimpleInfo: false })).toMatchObject({
      status: 'cancel',
      balanceInfo: { amount: '0.00' },
    });
    expect(h.call('listLedgerEntries', { bizType: 'card_cancel', pageNum: 1, pageSize: 10 }).records[0]).toMatchObject({
      amount: '60.00',
    });
    expect(h.refusal('depositCard', { cardNo, merchantOrderNo: orderNo(), amount: '30' }).code).toBe(40005);
    await expect(h.helper('cancelCard', { cardNo })).rejects.toMatchObject({ code: 40005 });
  });

  it('checks the ID type against the nationality and the query phone pair', () => {
    const h = createHarness();
    expect(() => h.engine.handle('queryCardholders', { pageNum: 1, pageSize: 10, areaCode: '+1' })).toThrow(
      /^mobile: areaCode and mobile must be given together/,
    );
    // Driven directly (the request schema would refuse it first): HK_HKID is for Hong Kong only.
    expect(() => h.engine.handle('createCardholder', b2cHolder(h, 'id@example.com', { idType: 'HK_HKID' }))).toThrow(
      /^idType: must be one of PASSPORT, DLN, GOVERNMENT_ISSUED_ID_CARD for nationality GB/,
    );
  });
});

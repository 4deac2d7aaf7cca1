/**
 * Card creation, deposit, freeze/unfreeze with the ledger checked to the cent, and the card rules.
 */
import { SandboxErrorCode } from '../../../../tools/sandbox/contract';
import { createHarness, type Harness } from './harness';
import { approvedB2bHolder, b2bHolder, magicOrderNo, orderNo, subscriptionCard, TYPES } from './fixtures';

function wallet(h: Harness) {
  return h.call('getAccountInfo', {}).find((a) => a.accountType === 'WALLET')!;
}

function ledger(h: Harness, orderNoFilter: string) {
  return h.call('listLedgerEntries', { orderNo: orderNoFilter, pageNum: 1, pageSize: 100 }).records;
}

describe('create card, deposit, freeze, unfreeze', () => {
  it('charges card fee, initial deposit and fee to the wallet, to the cent, and the card goes Normal', async () => {
    const h = createHarness({ cardOperationMs: 500 });
    const holderId = await approvedB2bHolder(h, 'cards@example.com');
    expect(wallet(h).availableBalance).toBe('100000.00');

    const created = h.call('createCard', {
      merchantOrderNo: orderNo(),
      holderId,
      cardTypeId: TYPES.b2bVirtual,
      amount: '100.00',
    });
    // v2: the card number at once, amount = initial deposit, fee = 1.5% of it.
    expect(created).toMatchObject({ type: 'create', status: 'wait_process', amount: '100.00', fee: '1.50' });
    expect(created.cardNo).toMatch(/^\d+$/);
    expect(h.call('getCardInfo', { cardNo: created.cardNo }).status).toBe('pending');
    // Held, not yet taken: 5 + 100 + 1.50.
    expect(wallet(h)).toMatchObject({
      availableBalance: '99893.50',
      frozenBalance: '106.50',
      totalBalance: '100000.00',
    });

    await h.clock.advance(500);
    expect(
      h.call('listCardTransactions', { orderNo: created.orderNo, pageNum: 1, pageSize: 10 }).records[0]!.status,
    ).toBe('processing');
    await h.clock.advance(500);
    const info = h.call('getCardInfo', { cardNo: created.cardNo, onlySimpleInfo: false });
    expect(info).toMatchObject({
      status: 'Normal',
      holderId,
      balanceInfo: { amount: '100.00', currency: 'USD' },
      holderInfo: { firstName: 'Ada', lastName: 'Lovelace', country: 'US', state: 'California', town: 'US0102' },
    });
    expect(h.call('getCardInfo', { cardNo: created.cardNo }).balanceInfo).toBeUndefined();
    expect(wallet(h)).toMatchObject({ availableBalance: '99893.50', frozenBalance: '0.00', totalBalance: '99893.50' });
    expect(
      ledger(h, created.orderNo).map((e) => [e.bizType, e.direction, e.amount, e.beforeBalance, e.afterBalance]),
    ).toEqual([
      ['card_deposit', 'OUT', '101.50', '99995.00', '99893.50'],
      ['card_purchase', 'OUT', '5.00', '100000.00', '99995.00'],
    ]);
    expect(
      h.call('listCardPurchases', { merchantOrderNo: created.merchantOrderNo, pageNum: 1, pageSize: 10 }).records[0],
    ).toMatchObject({
      cardFee: '5.00',
      depositAmount: '100.00',
      status: 'success',
      cardType: 'Virtual',
    });

    // Deposit 200: fee 3.00.
    const deposit = h.call('depositCard', { cardNo: created.cardNo, merchantOrderNo: orderNo(), amount: '200' });
    expect(deposit).toMatchObject({ type: 'deposit', amount: '200.00', fee: '3.00', status: 'wait_process' });
    expect(deposit.receivedAmount ?? null).toBeNull();
    await h.clock.advance(1000);
    const done = h.call('listCardTransactions', { orderNo: deposit.orderNo, pageNum: 1, pageSize: 10 }).records[0]!;
    expect(done).toMatchObject({ status: 'success', receivedAmount: '200.00', receivedCurrency: 'USD' });
    expect(h.call('getCardBalance', { cardNo: created.cardNo }).amount).toBe('300.00');
    expect(ledger(h, deposit.orderNo).map((e) => [e.bizType, e.amount, e.beforeBalance, e.afterBalance])).toEqual([
      ['card_deposit', '203.00', '99893.50', '99690.50'],
    ]);

    // Freeze: Freezing while processing, then Freeze; unfreeze back to Normal.
    const freeze = h.call('freezeCard', {
      cardNo: created.cardNo,
      merchantOrderNo: orderNo(),
      clientRemark: 'lost phone',
    });
    expect(freeze).toMatchObject({ type: 'Freeze', status: 'wait_process' });
    expect(h.call('getCardInfo', { cardNo: created.cardNo }).status).toBe('Freezing');
    await h.clock.advance(1000);
    expect(h.call('getCardInfo', { cardNo: created.cardNo }).status).toBe('Freeze');
    expect(h.refusal('depositCard', { cardNo: created.cardNo, merchantOrderNo: orderNo(), amount: '20' }).code).toBe(
      SandboxErrorCode.state,
    );
    h.call('unfreezeCard', { cardNo: created.cardNo, merchantOrderNo: orderNo() });
    expect(h.call('getCardInfo', { cardNo: created.cardNo }).status).toBe('UnFreezing');
    await h.clock.advance(1000);
    expect(h.call('getCardInfo', { cardNo: created.cardNo }).status).toBe('Normal');

    // v1 freeze answers a status only; the record is in the query.
    expect(h.call('freezeCardV1', { cardNo: created.cardNo })).toEqual({
      status: 'processing',
      statusStr: 'Processing',
    });
    await h.clock.advance(1000);
    expect(
      h.call('listCardTransactionsV1', { type: 'Freeze', cardNo: created.cardNo, pageNum: 1, pageSize: 10 }).total,
    ).toBe('2');
    expect(wallet(h).totalBalance).toBe('99690.50');
  });

  it('pushes card_transaction events whose payload equals the query record, at every status', async () => {
    const h = createHarness();
    const created = h.call('createCard', { merchantOrderNo: orderNo(), cardTypeId: TYPES.subscription, amount: '0' });
    await h.settle();
    const pushed = h.events.filter((e) => e.category === 'card_transaction' && e.payload.orderNo === created.orderNo);
    expect(pushed.map((e) => e.payload.status)).toEqual(['wait_process', 'processing', 'success']);
    const record = (
      h.engine.handle('listCardTransactions', { orderNo: created.orderNo, pageNum: 1, pageSize: 10 }) as {
        records: unknown[];
      }
    ).records[0];
    expect(pushed.at(-1)!.payload).toEqual(record);
  });

  it('openCard (deprecated) answers a list, hides cardNo until success, and its amount is the card fee', async () => {
    const h = createHarness();
    const [record] = h.call('openCard', { merchantOrderNo: orderNo(), cardTypeId: TYPES.gift });
    // gift bin needs a deposit: amount defaults to depositAmountMinQuotaForActiveCard (25), fee 3%
    // = 0.75.
    expect(record).toMatchObject({ type: 'create', amount: '3.00', fee: '0.75', status: 'wait_process' });
    expect(record!.cardNo ?? null).toBeNull();
    await h.settle();
    const v1 = h.call('listCardTransactionsV1', { type: 'create', orderNo: record!.orderNo, pageNum: 1, pageSize: 10 })
      .records[0]!;
    expect(v1.cardNo).toMatch(/^\d+$/);
    expect(h.call('listCardTransactions', { orderNo: record!.orderNo, pageNum: 1, pageSize: 10 }).total).toBe('0');
    expect(
      h.call('listCardPurchases', { orderNo: record!.orderNo, pageNum: 1, pageSize: 10 }).records[0],
    ).toMatchObject({ depositAmount: '25.00', cardFee: '3.00' });
    expect(h.call('getCardBalance', { cardNo: v1.cardNo! }).amount).toBe('25.00');
    // Gift cards: only activateUrl, encrypted.
    expect(h.call('getCardSensitiveData', { cardNo: v1.cardNo! })).toEqual({
      activateUrl: expect.stringMatching(/^enc\(https:/),
    });
    expect(wallet(h).totalBalance).toBe('99971.25');
  });

  it('returns sensitive data encrypted and never in clear', async () => {
    const h = createHarness();
    const cardNo = subscriptionCard(h);
    expect(h.refusal('getCardSensitiveData', { cardNo }).code).toBe(SandboxErrorCode.state);
    await h.settle();
    const data = h.call('getCardSensitiveData', { cardNo });
    expect(data.cardNumber).toMatch(/^enc\(531993\d{10}\)$/);
    expect(data.cvv).toMatch(/^enc\(\d{3}\)$/);
    expect(data.expireDate).toMatch(/^enc\(\d{2}\/\d{2}\)$/);
    expect(data.activateUrl ?? undefined).toBeUndefined();
  });

  it('charges a BUDGET_CARD to the given shared account, and its deposits too', async () => {
    const h = createHarness();
    const [margin] = [h.call('createSharedAccount', { accountName: 'Team A' })];
    const walletId = wallet(h).accountId;
    h.call('transferFunds', {
      type: 'TRANSFER',
      merchantOrderNo: orderNo(),
      amount: '50',
      payerAccountId: walletId,
      payeeAccountId: margin.accountId,
    });
    const { cardNo } = h.call('createCard', {
      merchantOrderNo: orderNo(),
      cardTypeId: TYPES.budget,
      amount: '0',
      accountId: margin.accountId,
    });
    await h.settle();
    h.call('depositCard', { cardNo, merchantOrderNo: orderNo(), amount: '10' });
    await h.settle();
    // 50 - card fee 1 - (10 + 1% fee 0.10)
    expect(h.call('getAccount', { accountId: margin.accountId }).totalBalance).toBe('38.90');
  });

  it('fails a creation for the magic amount .13 and releases the hold; stalls for a _STALL merchantOrderNo until decided', async () => {
    const h = createHarness();
    const holderId = await approvedB2bHolder(h, 'magic@example.com');
    const failed = h.call('createCard', {
      merchantOrderNo: orderNo(),
      holderId,
      cardTypeId: TYPES.b2bVirtual,
      amount: '50.13',
    });
    await h.settle();
    expect(h.call('getCardInfo', { cardNo: failed.cardNo }).status).toBe('fail');
    expect(h.call('listCardPurchases', { orderNo: failed.orderNo, pageNum: 1, pageSize: 10 }).records[0]!.status).toBe(
      'fail',
    );
    expect(wallet(h)).toMatchObject({
      totalBalance: '100000.00',
      availableBalance: '100000.00',
      frozenBalance: '0.00',
    });

    const stalled = h.call('createCard', {
      merchantOrderNo: magicOrderNo('_STALL'),
      holderId,
      cardTypeId: TYPES.b2bVirtual,
      amount: '50',
    });
    await h.clock.advance(3_600_000);
    expect(h.call('getCardInfo', { cardNo: stalled.cardNo }).status).toBe('pending');
    expect(await h.helper('decideOperation', { orderNo: stalled.orderNo, outcome: 'success' })).toMatchObject({
      status: 'success',
    });
    expect(h.call('getCardInfo', { cardNo: stalled.cardNo }).status).toBe('Normal');

    const deposit = h.call('depositCard', {
      cardNo: stalled.cardNo,
      merchantOrderNo: magicOrderNo('_FAIL'),
      amount: '20',
    });
    await h.settle();
    expect(
      h.call('listCardTransactions', { orderNo: deposit.orderNo, pageNum: 1, pageSize: 10 }).records[0],
    ).toMatchObject({ status: 'fail' });
    expect(h.call('getCardBalance', { cardNo: stalled.cardNo }).amount).toBe('50.00');
  });
});

describe('card rules', () => {
  let h: Harness;
  let holderId: string;
  beforeEach(async () => {
    h = createHarness();
    holderId = await approvedB2bHolder(h, 'rules@example.com');
  });

  const refuse = (params: Parameters<Harness['call']>[1], name: 'createCard' | 'depositCard' = 'createCard') => {
    const before = h.engine.moneySnapshot();
    const error = h.refusal(name, params as never);
    expect(h.engine.moneySnapshot()).toEqual(before);
    return error;
  };

  it('needs the initial deposit inside the bin bounds when needDepositForActiveCard=true', () => {
    const e = refuse({ merchantOrderNo: orderNo(), holderId, cardTypeId: TYPES.b2bVirtual, amount: '9.99' });
    expect([e.code, e.message]).toEqual([
      40002,
      expect.stringMatching(/^amount: initial deposit must be between 10 and 10000/),
    ]);
    expect(
      refuse({ merchantOrderNo: orderNo(), holderId, cardTypeId: TYPES.b2bVirtual, amount: '10000.01' }).code,
    ).toBe(40002);
  });

  it('refuses an initial deposit when the bin does not support one', () => {
    const e = refuse({ merchantOrderNo: orderNo(), cardTypeId: TYPES.subscription, amount: '10' });
    expect(e.message).toMatch(/^amount: .*needDepositForActiveCard=false/);
  });

  it('needs a cardholder that passed review, of the same card type, within the card limit', async () => {
    expect(refuse({ merchantOrderNo: orderNo(), cardTypeId: TYPES.b2bVirtual, amount: '10' }).message).toMatch(
      /^holderId: is required/,
    );
    expect(
      refuse({ merchantOrderNo: orderNo(), holderId, cardTypeId: TYPES.subscription, amount: '0' }).message,
    ).toMatch(/^holderId: .*needCardHolder=false/);
    for (let i = 0; i < 5; i++)
      h.call('createCard', { merchantOrderNo: orderNo(), holderId, cardTypeId: TYPES.b2bVirtual, amount: '10' });
    const e = refuse({ merchantOrderNo: orderNo(), holderId, cardTypeId: TYPES.b2bVirtual, amount: '10' });
    expect([e.code, e.message]).toEqual([40005, expect.stringMatching(/^holderId: .*cardHolderMaxCardLimit/)]);
  });

  it('refuses a cardholder still in review', () => {
    const pending = h.call('createCardholder', b2bHolder('pending@example.com'));
    const e = refuse({
      merchantOrderNo: orderNo(),
      holderId: pending.holderId,
      cardTypeId: TYPES.b2bVirtual,
      amount: '10',
    });
    expect([e.code, e.message]).toEqual([40005, expect.stringMatching(/^holderId: .*pass_audit/)]);
  });

  it('refuses an offline bin, an unknown bin, a missing physical card number and a short balance', () => {
    expect(refuse({ merchantOrderNo: orderNo(), cardTypeId: TYPES.offline, amount: '0' }).message).toMatch(
      /^cardTypeId: .*offline/,
    );
    expect(refuse({ merchantOrderNo: orderNo(), cardTypeId: '42', amount: '0' }).code).toBe(40004);
    expect(
      refuse({
        merchantOrderNo: orderNo(),
        cardTypeId: TYPES.subscription,
        amount: '0',
        cardNumber: '5319930000000000',
      }).message,
    ).toMatch(/^cardNumber: /);
    h.call('transferFunds', {
      type: 'TRANSFER',
      merchantOrderNo: orderNo(),
      amount: '99999',
      payerAccountId: wallet(h).accountId,
      payeeAccountId: h.call('createSharedAccount', { accountName: 'sink' }).accountId,
    });
    const e = refuse({ merchantOrderNo: orderNo(), holderId, cardTypeId: TYPES.b2bVirtual, amount: '10' });
    expect([e.code, e.message]).toEqual([40006, expect.stringMatching(/^amount: insufficient available balance/)]);
  });

  it('keeps deposits within rechargeMin/MaxQuota and rechargeDigital', async () => {
    const cardNo = subscriptionCard(h);
    await h.settle();
    expect(refuse({ cardNo, merchantOrderNo: orderNo(), amount: '4.99' }, 'depositCard').message).toMatch(
      /^amount: must be between 5 and 10000/,
    );
    expect(refuse({ cardNo, merchantOrderNo: orderNo(), amount: '10.001' }, 'depositCard').message).toMatch(
      /^amount: .*rechargeDigital/,
    );
    expect(refuse({ cardNo: 'nope', merchantOrderNo: orderNo(), amount: '10' }, 'depositCard').code).toBe(40004);
  });
});

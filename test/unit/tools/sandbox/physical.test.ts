/**
 * Physical cards: creation with the printed number, activation code, activation, PIN, and the
 * CARD_ACTIVE work order.
 */
import { SandboxErrorCode } from '../../../../tools/sandbox/contract';
import { luhnCheckDigit } from '../../../../tools/sandbox/random';
import { createHarness, type Harness } from './harness';
import { b2cHolder, magicOrderNo, orderNo, subscriptionCard, TYPES } from './fixtures';

function printedNumber(seq: number): string {
  const body = `522981${String(seq).padStart(9, '0')}`;
  return body + luhnCheckDigit(body);
}

async function physicalCard(h: Harness, email: string, seq: number): Promise<string> {
  const { holderId } = h.call('createCardholder', b2cHolder(h, email));
  await h.settle();
  const created = h.call('createCard', {
    merchantOrderNo: orderNo(),
    holderId,
    cardTypeId: TYPES.physicalB2C,
    amount: '50',
    cardNumber: printedNumber(seq),
  });
  await h.settle();
  return created.cardNo;
}

describe('physical cards', () => {
  it('are created un_activated and activate with the issued code and a 6-digit PIN', async () => {
    const h = createHarness();
    const cardNo = await physicalCard(h, 'phys@example.com', 1);
    expect(h.call('getCardInfo', { cardNo })).toMatchObject({ status: 'un_activated', noPinPaymentAmount: '500.00' });

    const activate = (activeCode: string, merchantOrderNo = orderNo()) =>
      ({ merchantOrderNo, cardNo, pin: '123456', activeCode, noPinPaymentAmount: '300' }) as const;
    const early = h.refusal('activatePhysicalCard', activate('000000'));
    expect([early.code, early.message]).toEqual([
      SandboxErrorCode.state,
      expect.stringMatching(/^activeCode: no activation code/),
    ]);

    const issued = await h.helper('issueActivationCode', { cardNo });
    const records = h.call('listCard3dsRecords', { cardNo, type: 'activation_code', pageNum: 1, pageSize: 10 }).records;
    expect(records[0]!.values).toBe(`enc(${String(issued.activationCode)})`);
    expect(h.events.some((e) => e.category === 'card_3ds')).toBe(true);

    const wrong = String(issued.activationCode) === '111111' ? '222222' : '111111';
    expect(h.refusal('activatePhysicalCard', activate(wrong)).message).toMatch(/^activeCode: does not match/);

    const result = h.call('activatePhysicalCard', activate(String(issued.activationCode)));
    expect(result).toMatchObject({ cardNo, type: 'card_activated', status: 'processing' });
    await h.settle();
    expect(h.call('getCardInfo', { cardNo })).toMatchObject({ status: 'Normal', noPinPaymentAmount: '300.00' });
    expect(h.events.filter((e) => e.category === 'physical_card').at(-1)!.payload).toMatchObject({ status: 'success' });

    const pin = h.call('updatePin', { cardNo, merchantOrderNo: orderNo(), pin: '654321' });
    expect(pin).toMatchObject({ type: 'update_pin', status: 'wait_process' });
    await h.settle();
    expect(h.call('listCardTransactions', { orderNo: pin.orderNo, pageNum: 1, pageSize: 1 }).records[0]!.status).toBe(
      'success',
    );
  });

  it('need the printed card number of the bin, once', async () => {
    const h = createHarness();
    const { holderId } = h.call('createCardholder', b2cHolder(h, 'num@example.com'));
    await h.settle();
    const base = { holderId, cardTypeId: TYPES.physicalB2C, amount: '50' };
    expect(h.refusal('createCard', { ...base, merchantOrderNo: orderNo() }).message).toMatch(
      /^cardNumber: is required for a physical card/,
    );
    expect(
      h.refusal('createCard', { ...base, merchantOrderNo: orderNo(), cardNumber: '4111111111111111' }).message,
    ).toMatch(/^cardNumber: must be the number printed/);
    h.call('createCard', { ...base, merchantOrderNo: orderNo(), cardNumber: printedNumber(7) });
    // The B2C physical bin allows one card per holder.
    expect(
      h.refusal('createCard', { ...base, merchantOrderNo: orderNo(), cardNumber: printedNumber(8) }).message,
    ).toMatch(/cardHolderMaxCardLimit/);
  });

  it('refuses PIN and activation on a virtual card', async () => {
    const h = createHarness();
    const cardNo = subscriptionCard(h);
    await h.settle();
    expect(h.refusal('updatePin', { cardNo, merchantOrderNo: orderNo(), pin: '123456' }).message).toMatch(
      /^cardNo: .*physical cards only/,
    );
    await expect(h.helper('issueActivationCode', { cardNo })).rejects.toMatchObject({ code: 40002 });
  });

  it('activate through a CARD_ACTIVE work order, which fails for a _FAIL number', async () => {
    const h = createHarness({ workOrderMs: 1000 });
    const cardNo = await physicalCard(h, 'wo@example.com', 2);
    const failing = h.call('submitWorkOrder', {
      merchantOrderNo: magicOrderNo('_FAIL'),
      title: 'Activate',
      target: cardNo,
      tradeType: 'CARD_ACTIVE',
    });
    await h.clock.advance(2000);
    expect(h.call('listWorkOrders', { orderNo: failing.orderNo, pageSize: 10 }).records[0]!.tradeStatus).toBe('fail');
    expect(h.call('getCardInfo', { cardNo }).status).toBe('un_activated');

    const order = h.call('submitWorkOrder', {
      merchantOrderNo: orderNo(),
      title: 'Activate',
      target: cardNo,
      tradeType: 'CARD_ACTIVE',
      content: 'please',
    });
    expect(order).toMatchObject({ tradeStatus: 'wait_process', target: cardNo });
    await h.clock.advance(1000);
    expect(h.call('listWorkOrders', { target: cardNo, tradeStatus: 'processing', pageSize: 10 }).total).toBe('1');
    await h.clock.advance(1000);
    expect(
      h.call('listWorkOrders', { merchantOrderNo: order.merchantOrderNo, pageSize: 10 }).records[0]!.tradeStatus,
    ).toBe('success');
    expect(h.call('getCardInfo', { cardNo }).status).toBe('Normal');
    expect(h.events.filter((e) => e.category === 'work').map((e) => e.payload.tradeStatus)).toEqual([
      'wait_process',
      'processing',
      'fail',
      'wait_process',
      'processing',
      'success',
    ]);
    // Now Normal: a new CARD_ACTIVE is refused.
    expect(
      h.refusal('submitWorkOrder', {
        merchantOrderNo: orderNo(),
        title: 'Again',
        target: cardNo,
        tradeType: 'CARD_ACTIVE',
      }).code,
    ).toBe(SandboxErrorCode.state);
  });

  it('decides a stalled work order with decideWorkOrder, and refuses unknown file ids', async () => {
    const h = createHarness();
    expect(
      h.refusal('submitWorkOrder', {
        merchantOrderNo: orderNo(),
        title: 't',
        target: 'x',
        tradeType: 'OTHER',
        files: ['F1'],
      }).message,
    ).toMatch(/^files: /);
    const order = h.call('submitWorkOrder', {
      merchantOrderNo: magicOrderNo('_STALL'),
      title: 'Question',
      target: 'account',
      tradeType: 'OTHER',
    });
    await h.clock.advance(60_000);
    expect(h.call('listWorkOrders', { orderNo: order.orderNo, pageSize: 10 }).records[0]!.tradeStatus).toBe(
      'processing',
    );
    expect(
      await h.helper('decideWorkOrder', { orderNo: order.orderNo, outcome: 'fail', description: 'Not possible' }),
    ).toMatchObject({ tradeStatus: 'fail', description: 'Not possible' });
  });
});

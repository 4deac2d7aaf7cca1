/** Cardholder review flow (admin -> channel), update after reject, and the cardholder rules. */
import { SandboxErrorCode } from '../../../../tools/sandbox/contract';
import { createHarness } from './harness';
import { b2bHolder, b2cHolder, orderNo, TYPES } from './fixtures';

const delays = { reviewAdminMs: 1000, reviewChannelMs: 2000 };

describe('cardholder review', () => {
  it('passes through platform (admin) then bank (channel) review to pass_audit', async () => {
    const h = createHarness(delays);
    const created = h.call('createCardholder', b2bHolder('ada@example.com'));
    expect(created).toMatchObject({ status: 'wait_audit', statusFlowLocation: 'admin', cardTypeId: TYPES.b2bVirtual });
    const query = () =>
      h.call('queryCardholders', { holderId: created.holderId, pageNum: 1, pageSize: 10 }).records[0]!;

    await h.clock.advance(999);
    expect(query()).toMatchObject({ status: 'wait_audit', statusFlowLocation: 'admin' });
    await h.clock.advance(1);
    expect(query()).toMatchObject({ status: 'under_review', statusFlowLocation: 'channel' });
    await h.clock.advance(2000);
    expect(query()).toMatchObject({
      status: 'pass_audit',
      statusFlowLocation: 'channel',
      email: 'ada@example.com',
      town: 'US0102',
    });

    const statuses = h.events.filter((e) => e.category === 'card_holder').map((e) => e.payload.status);
    expect(statuses).toEqual(['wait_audit', 'under_review', 'pass_audit']);
  });

  it('rejects at admin for the magic email reject.admin, without reaching the bank', async () => {
    const h = createHarness(delays);
    const { holderId } = h.call('createCardholder', b2bHolder('reject.admin@example.com'));
    await h.clock.advance(10_000);
    const record = h.call('queryCardholders', { holderId, pageNum: 1, pageSize: 10 }).records[0]!;
    expect(record).toMatchObject({ status: 'reject', statusFlowLocation: 'admin' });
  });

  it('rejects at channel for the magic email reject.channel', async () => {
    const h = createHarness(delays);
    const { holderId } = h.call('createCardholder', b2bHolder('reject.channel+1@example.com'));
    await h.clock.advance(1000);
    expect(h.call('queryCardholders', { holderId, pageNum: 1, pageSize: 10 }).records[0]).toMatchObject({
      status: 'under_review',
    });
    await h.clock.advance(2000);
    expect(h.call('queryCardholders', { holderId, pageNum: 1, pageSize: 10 }).records[0]).toMatchObject({
      status: 'reject',
      statusFlowLocation: 'channel',
    });
  });

  it('stalls for review.stall until decideCardholderReview decides each stage', async () => {
    const h = createHarness(delays);
    const { holderId } = h.call('createCardholder', b2bHolder('review.stall@example.com'));
    await h.clock.advance(60_000);
    const status = () => h.call('queryCardholders', { holderId, pageNum: 1, pageSize: 10 }).records[0]!.status;
    expect(status()).toBe('wait_audit');
    expect(await h.helper('decideCardholderReview', { holderId, outcome: 'pass' })).toMatchObject({
      status: 'under_review',
      statusFlowLocation: 'channel',
    });
    await h.clock.advance(60_000);
    expect(status()).toBe('under_review');
    expect(
      await h.helper('decideCardholderReview', { holderId, outcome: 'reject', description: 'ID unreadable' }),
    ).toMatchObject({
      status: 'reject',
      description: 'ID unreadable',
    });
  });

  it('accepts an update only in reject, and the update goes back to admin review and can pass', async () => {
    const h = createHarness(delays);
    const { holderId } = h.call('createCardholder', b2bHolder('reject.admin@example.com'));
    const { merchantOrderNo: _m, cardTypeId: _c, ...fields } = b2bHolder('fixed@example.com');

    // Not yet rejected: refused, nothing changes.
    const early = h.refusal('updateCardholder', { ...fields, holderId });
    expect(early.code).toBe(SandboxErrorCode.state);
    expect(early.message).toMatch(/^holderId: .*only when status=reject/);

    await h.clock.advance(1000);
    const updated = h.call('updateCardholder', { ...fields, holderId });
    expect(updated).toMatchObject({ holderId, status: 'wait_audit', statusFlowLocation: 'admin' });
    await h.clock.advance(3000);
    expect(h.call('queryCardholders', { holderId, pageNum: 1, pageSize: 10 }).records[0]).toMatchObject({
      status: 'pass_audit',
      email: 'fixed@example.com',
    });
    // Approved now: a second update is refused again.
    expect(h.refusal('updateCardholder', { ...fields, holderId }).code).toBe(SandboxErrorCode.state);
  });

  it('runs the deprecated v1 and the IDV shapes through the same review', async () => {
    const h = createHarness();
    const { cardHolderModel: _m, ...v1 } = b2bHolder('v1@example.com');
    const a = h.call('createCardholderV1', { ...v1, nationality: 'US' });
    const b = h.call('createCardholderIdv', {
      merchantOrderNo: orderNo(),
      cardTypeId: TYPES.b2cVirtual,
      areaCode: '+852',
      mobile: '91234567',
      email: 'idv@example.com',
      firstName: 'Chan',
      lastName: 'Tai Man',
      annualSalary: '500000 HKD',
      accountPurpose: 'Travel',
      expectedMonthlyVolume: '10000 HKD',
      idvShareToken: 'share-token-123',
      ipAddress: '198.51.100.4',
    });
    await h.settle();
    for (const holderId of [a.holderId, b.holderId]) {
      expect(h.call('queryCardholders', { holderId, pageNum: 1, pageSize: 10 }).records[0]!.status).toBe('pass_audit');
    }
  });

  it('emits card_holder events equal to the query record', async () => {
    const h = createHarness();
    const { holderId } = h.call('createCardholder', b2bHolder('ev@example.com'));
    await h.settle();
    const last = h.events.filter((e) => e.category === 'card_holder').at(-1)!;
    const record = h.engine.handle('queryCardholders', { holderId, pageNum: 1, pageSize: 10 }) as {
      records: unknown[];
    };
    expect(last.payload).toEqual(record.records[0]);
  });
});

describe('cardholder rules', () => {
  const cases: [string, (h: ReturnType<typeof createHarness>) => Record<string, unknown>, number, RegExp][] = [
    [
      'model must match the bin',
      () => ({ ...b2bHolder('m@example.com'), cardTypeId: TYPES.b2cVirtual }),
      40002,
      /^cardHolderModel: .*B2C/,
    ],
    [
      'town must be a city code',
      () => b2bHolder('t@example.com', { town: 'Springfield' }),
      40002,
      /^town: .*not a city code/,
    ],
    [
      'town must lie in the country',
      () => b2bHolder('t2@example.com', { town: 'GB0101' }),
      40002,
      /^town: .*not in country US/,
    ],
    [
      'areaCode must be supported by the bin',
      () => b2bHolder('a@example.com', { areaCode: '+234' }),
      40002,
      /^areaCode: .*supportHolderAreaCode/,
    ],
    [
      'country must be supported by the bin',
      (h) => b2cHolder(h, 'c@example.com', { country: 'CN', town: 'CN0101' }),
      40002,
      /^country: .*supportHolderRegin/,
    ],
    [
      'bin without cardholders',
      () => ({ ...b2bHolder('n@example.com'), cardTypeId: TYPES.subscription }),
      40002,
      /^cardTypeId: .*needCardHolder=false/,
    ],
    [
      'unknown card type',
      () => ({ ...b2bHolder('u@example.com'), cardTypeId: '123' }),
      40004,
      /^cardTypeId: .*does not exist/,
    ],
    [
      'occupation from the list',
      (h) => b2cHolder(h, 'o@example.com', { occupation: '99-9999' }),
      40002,
      /^occupation: /,
    ],
    [
      'identity files must exist',
      (h) => b2cHolder(h, 'f@example.com', { idFrontId: 'F404' }),
      40004,
      /^idFrontId: .*not uploaded/,
    ],
  ];

  it.each(cases)('%s', (_name, request, code, message) => {
    const h = createHarness();
    const before = h.events.length;
    const body = request(h);
    const name = body.cardHolderModel === undefined ? 'createCardholderV1' : 'createCardholder';
    const error = h.refusal(name as 'createCardholder', body as never);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(h.events.length).toBe(before);
  });

  it('keeps email and ID number unique per cardTypeId', () => {
    const h = createHarness();
    h.call('createCardholder', b2bHolder('dup@example.com'));
    const dupEmail = h.refusal('createCardholder', b2bHolder('DUP@example.com'));
    expect(dupEmail.code).toBe(40002);
    expect(dupEmail.message).toMatch(/^email: already used|^email: is already used/);

    const first = b2cHolder(h, 'one@example.com', { idNumber: 'P1234567' });
    h.call('createCardholder', first);
    const dupId = h.refusal('createCardholder', b2cHolder(h, 'two@example.com', { idNumber: 'P1234567' }));
    expect(dupId.message).toMatch(/^idNumber: is already used/);

    // The same email under another card type is a different cardholder.
    const other = b2cHolder(h, 'dup@example.com', {
      cardTypeId: TYPES.b2cVirtual,
      areaCode: '+852',
      country: 'HK',
      nationality: 'HK',
      town: 'HK0101',
    });
    expect(h.call('createCardholder', other).status).toBe('wait_audit');
  });
});

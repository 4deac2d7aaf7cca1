import { jsonNumber, parseJson } from '../../../api/json';
import { parseEvent, plainJson, routeEvent, visibilityQuery } from '../../../webhooks/routing';

/** Deposit addresses as the provider returns them (spec: Wallet address): TRC20 base58 and BEP20 hex. */
const TRC20_ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const BEP20_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

describe('routeEvent', () => {
  it('routes a card operation by merchantOrderNo first, then by cardNo', () => {
    const lookups = routeEvent('card_transaction', {
      merchantOrderNo: 'CFabc123',
      cardNo: '8812345',
      status: 'success',
    });
    expect(lookups).toEqual([
      {
        attribute: 'CardflowOrderNos',
        value: 'CFabc123',
        query: "CardflowOrderNos = 'CFabc123' AND ExecutionStatus = 'Running'",
      },
      {
        attribute: 'CardflowCardNo',
        value: '8812345',
        query: "CardflowCardNo = '8812345' AND ExecutionStatus = 'Running'",
      },
    ]);
  });

  it('routes a card operation without merchantOrderNo by card only', () => {
    expect(
      routeEvent('card_transaction', { merchantOrderNo: null, cardNo: '8812345', status: 'fail' }).map(
        (l) => l.attribute,
      ),
    ).toEqual(['CardflowCardNo']);
  });

  it('routes a cardholder review result by merchantOrderNo, then holderId', () => {
    expect(
      routeEvent('card_holder', { holderId: '1989887271659823105', merchantOrderNo: 'CF1', status: 'reject' }).map(
        (l) => `${l.attribute}=${l.value}`,
      ),
    ).toEqual(['CardflowOrderNos=CF1', 'CardflowHolderId=1989887271659823105']);
  });

  it.each(['card_auth_transaction', 'card_fee_patch', 'card_3ds'])('routes %s by card', (category) => {
    expect(
      routeEvent(category, { cardNo: 'C1', tradeNo: 'T1', merchantOrderNo: 'ignored' }).map((l) => l.attribute),
    ).toEqual(['CardflowCardNo']);
  });

  it('routes a work order by merchantOrderNo', () => {
    expect(routeEvent('work', { merchantOrderNo: 'CFwork' }).map((l) => l.value)).toEqual(['CFwork']);
  });

  it('routes a wallet transaction by orderNo, then by the deposit address a funding workflow listed', () => {
    expect(
      routeEvent('wallet_transaction_v2', { orderNo: 'W77', destinationAddress: TRC20_ADDRESS }).map(
        (l) => `${l.attribute}=${l.value}`,
      ),
    ).toEqual(['CardflowOrderNos=W77', `CardflowOrderNos=${TRC20_ADDRESS}`]);
    expect(routeEvent('wallet_transaction_v2', { orderNo: '', destinationAddress: BEP20_ADDRESS })).toEqual([
      {
        attribute: 'CardflowOrderNos',
        value: BEP20_ADDRESS,
        query: `CardflowOrderNos = '${BEP20_ADDRESS}' AND ExecutionStatus = 'Running'`,
      },
    ]);
  });

  it('accepts on-chain addresses as safe query values', () => {
    expect(visibilityQuery('CardflowOrderNos', TRC20_ADDRESS)).toBe(
      `CardflowOrderNos = '${TRC20_ADDRESS}' AND ExecutionStatus = 'Running'`,
    );
    expect(visibilityQuery('CardflowOrderNos', BEP20_ADDRESS)).toBeDefined();
  });

  it.each(['wait_process', 'processing'])(
    'records but does not signal a card operation still %s (no workflow acts on it)',
    (status) => {
      expect(routeEvent('card_transaction', { merchantOrderNo: 'CFabc123', cardNo: '8812345', status })).toEqual([]);
    },
  );

  it.each(['wait_audit', 'under_review'])('records but does not signal a cardholder review still %s', (status) => {
    expect(routeEvent('card_holder', { holderId: '1989887271659823105', merchantOrderNo: 'CF1', status })).toEqual([]);
  });

  it('does not signal a card operation or review record without a status', () => {
    expect(routeEvent('card_transaction', { merchantOrderNo: 'CFabc123', cardNo: '8812345' })).toEqual([]);
    expect(routeEvent('card_holder', { holderId: '1989887271659823105' })).toEqual([]);
  });

  it('keeps signalling intermediate authorization statuses (card-entity records authorized ones)', () => {
    expect(
      routeEvent('card_auth_transaction', { cardNo: 'C1', tradeNo: 'T1', status: 'authorized' }).map(
        (l) => l.attribute,
      ),
    ).toEqual(['CardflowCardNo']);
  });

  it('has no lookup for an unknown category', () => {
    expect(routeEvent('brand_new_category', { cardNo: 'C1', merchantOrderNo: 'CF1' })).toEqual([]);
  });

  it('refuses values that could widen the visibility query', () => {
    expect(
      routeEvent('card_transaction', { merchantOrderNo: "x' OR 'a'='a", cardNo: 'C 1', status: 'success' }),
    ).toEqual([]);
    expect(routeEvent('wallet_transaction_v2', { destinationAddress: "T1' OR 'a'='a" })).toEqual([]);
    expect(visibilityQuery('CardflowCardNo', "a'b")).toBeUndefined();
    expect(visibilityQuery('CardflowCardNo', '')).toBeUndefined();
  });
});

describe('parseEvent', () => {
  const operation = {
    orderNo: '1989887271659823105',
    merchantOrderNo: 'CFabc',
    cardNo: 'C1',
    currency: 'USD',
    amount: jsonNumber('100.10'),
    fee: jsonNumber('1.00'),
    type: 'create',
    status: 'success',
    transactionTime: jsonNumber('1700000000000'),
  };

  it('parses with the category schema, keeping amounts and ids exact as strings', () => {
    const parsed = parseEvent(
      'card_transaction',
      parseJson(
        '{"orderNo":"1989887271659823105","merchantOrderNo":"CFabc","cardNo":"C1","currency":"USD","amount":12345678901234567.10,"fee":1.00,"type":"create","status":"success","transactionTime":1700000000000}',
      ),
    );
    expect(parsed).toEqual({
      kind: 'known',
      record: expect.objectContaining({ orderNo: '1989887271659823105', amount: '12345678901234567.10', fee: '1.00' }),
    });
    expect(parseEvent('card_transaction', operation).kind).toBe('known');
  });

  it('drops the personal fields of a cardholder query record', () => {
    const parsed = parseEvent('card_holder', {
      holderId: jsonNumber('1989887271659823105'),
      cardTypeId: jsonNumber('7'),
      statusFlowLocation: 'channel',
      status: 'pass_audit',
      firstName: 'Ada',
      email: 'ada@example.com',
      mobile: '5550100',
    });
    expect(parsed.kind).toBe('known');
    if (parsed.kind !== 'known') return;
    expect(parsed.record.holderId).toBe('1989887271659823105');
    expect(parsed.record).not.toHaveProperty('firstName');
    expect(parsed.record).not.toHaveProperty('email');
    expect(parsed.record).not.toHaveProperty('mobile');
  });

  it('names the field and rule of a record that breaks its schema', () => {
    expect(parseEvent('card_transaction', { ...operation, status: 'exploded' })).toEqual({
      kind: 'unparseable',
      problem: expect.stringMatching(/^status: /),
    });
    expect(parseEvent('card_transaction', [1, 2])).toEqual({
      kind: 'unparseable',
      problem: 'body: must be a JSON object',
    });
  });

  it('parses but does not forward a record in a status no workflow acts on', () => {
    expect(parseEvent('card_transaction', { ...operation, status: 'processing' })).toEqual({
      kind: 'not_forwarded',
      record: expect.objectContaining({ status: 'processing' }),
    });
    expect(parseEvent('card_transaction', { ...operation, status: 'fail' }).kind).toBe('known');
  });

  it('reports an unknown category as such', () => {
    expect(parseEvent('brand_new_category', { a: 1 })).toEqual({ kind: 'unknown_category' });
  });

  it('keeps a schema-less category as plain JSON with numbers as digit strings', () => {
    expect(parseEvent('physical_card', parseJson('{"cardNo":"C1","fee":12345678901234567890.5}'))).toEqual({
      kind: 'known',
      record: { cardNo: 'C1', fee: '12345678901234567890.5' },
    });
    expect(plainJson({ a: [jsonNumber('1')] })).toEqual({ a: ['1'] });
  });
});

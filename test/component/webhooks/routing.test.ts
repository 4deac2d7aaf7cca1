import { jsonNumber, parseJson, plainJson } from '../../../provider/json';
import type { WalletTransaction } from '../../../provider/schemas/wallet';
import { isQueryLiteral } from '../../../domain/search-attributes';
import { type RouteLookup, parseEvent, routeEvent } from '../../../webhooks/routing';
import {
  authFeeRecord,
  authorizationRecord,
  card3dsRecord,
  cardholderResult,
  cardOperationRecord,
  providerEvent,
  walletTransactionRecord,
  workOrderRecord,
} from '../../fixtures/provider-events';

/**
 * Deposit addresses as the provider returns them (spec: Wallet address): TRC20 base58 and BEP20
 * hex.
 */
const TRC20_ADDRESS = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const BEP20_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** A lookup as one string: its route store key. */
const shown = (lookup: RouteLookup) => lookup.key;

describe('routeEvent', () => {
  it("routes a card operation by the route of its merchantOrderNo alone (the card's workflow has a derived id)", () => {
    const lookups = routeEvent(
      providerEvent('card_transaction', cardOperationRecord({ merchantOrderNo: 'CFabc123', cardNo: '8812345' })),
    );
    expect(lookups).toEqual([{ kind: 'order', value: 'CFabc123', key: 'order:CFabc123' }]);
  });

  it('looks nothing up for a card operation without merchantOrderNo (only the card workflow gets it)', () => {
    const record = cardOperationRecord({ merchantOrderNo: null, cardNo: '8812345', status: 'fail' });
    expect(routeEvent(providerEvent('card_transaction', record))).toEqual([]);
  });

  it('routes a cardholder review result by the routes of its merchantOrderNo, then of its holderId', () => {
    const record = cardholderResult({ holderId: '1989887271659823105', merchantOrderNo: 'CF1', status: 'reject' });
    expect(routeEvent(providerEvent('card_holder', record)).map(shown)).toEqual([
      'order:CF1',
      'holder:1989887271659823105',
    ]);
  });

  it("routes authorizations and fees to no other workflow than the card's, and 3DS records to the card awaited", () => {
    expect(routeEvent(providerEvent('card_auth_transaction', authorizationRecord()))).toEqual([]);
    expect(routeEvent(providerEvent('card_fee_patch', authFeeRecord()))).toEqual([]);
    const threeDs = card3dsRecord();
    expect(routeEvent(providerEvent('card_3ds', threeDs)).map(shown)).toEqual([`card:${threeDs.cardNo}`]);
  });

  it('routes an activation result by its merchantOrderNo', () => {
    const activation = providerEvent('physical_card', {
      merchantOrderNo: 'ACT9',
      cardNo: 'C9',
      type: 'card_activated',
      status: 'success',
    });
    expect(routeEvent(activation).map(shown)).toEqual(['order:ACT9']);
  });

  it('routes a work order by merchantOrderNo', () => {
    const work = providerEvent('work', workOrderRecord({ tradeStatus: 'processing' }));
    expect(routeEvent(work).map((l) => l.value)).toEqual(['CFwork']);
  });

  it('routes a wallet transaction by orderNo, then by the deposit address a funding workflow recorded', () => {
    const deposit = (overrides: Partial<WalletTransaction>) =>
      providerEvent('wallet_transaction_v2', walletTransactionRecord(overrides));
    expect(routeEvent(deposit({ orderNo: 'W77', destinationAddress: TRC20_ADDRESS })).map(shown)).toEqual([
      'order:W77',
      `address:${TRC20_ADDRESS}`,
    ]);
    expect(routeEvent(deposit({ orderNo: '', destinationAddress: BEP20_ADDRESS }))).toEqual([
      { kind: 'address', value: BEP20_ADDRESS, key: `address:${BEP20_ADDRESS}` },
    ]);
  });

  it('accepts on-chain addresses as safe query values (reconciliation lists owners by them)', () => {
    expect(isQueryLiteral(TRC20_ADDRESS)).toBe(true);
    expect(isQueryLiteral(BEP20_ADDRESS)).toBe(true);
  });

  it.each(['wait_process', 'processing'] as const)(
    'records but does not signal a card operation still %s (no workflow acts on it)',
    (status) => {
      expect(routeEvent(providerEvent('card_transaction', cardOperationRecord({ status })))).toEqual([]);
    },
  );

  it.each(['wait_audit', 'under_review'] as const)(
    'records but does not signal a cardholder review still %s',
    (status) => {
      expect(routeEvent(providerEvent('card_holder', cardholderResult({ merchantOrderNo: 'CF1', status })))).toEqual(
        [],
      );
    },
  );

  it('looks up any value as a plain key, and refuses as a query literal what could widen a visibility query', () => {
    expect(
      routeEvent(
        providerEvent('card_transaction', cardOperationRecord({ merchantOrderNo: "x' OR 'a'='a", cardNo: 'C 1' })),
      ).map(shown),
    ).toEqual(["order:x' OR 'a'='a"]);
    expect(isQueryLiteral("a'b")).toBe(false);
    expect(isQueryLiteral('')).toBe(false);
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
      event: {
        category: 'card_transaction',
        record: expect.objectContaining({
          orderNo: '1989887271659823105',
          amount: '12345678901234567.10',
          fee: '1.00',
        }),
      },
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
    expect(parsed.event.record).toMatchObject({ holderId: '1989887271659823105' });
    expect(parsed.event.record).not.toHaveProperty('firstName');
    expect(parsed.event.record).not.toHaveProperty('email');
    expect(parsed.event.record).not.toHaveProperty('mobile');
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
      event: { category: 'card_transaction', record: expect.objectContaining({ status: 'processing' }) },
    });
    expect(parseEvent('card_transaction', { ...operation, status: 'fail' }).kind).toBe('known');
  });

  it('reports an unknown category as such', () => {
    expect(parseEvent('brand_new_category', { a: 1 })).toEqual({ kind: 'unknown_category' });
  });

  it('parses a physical_card event as the activation result it carries', () => {
    expect(
      parseEvent(
        'physical_card',
        parseJson(
          '{"merchantOrderNo":"CFact","cardNo":"C1","type":"card_activated","status":"success","remark":"Success"}',
        ),
      ),
    ).toEqual({
      kind: 'known',
      event: {
        category: 'physical_card',
        record: {
          merchantOrderNo: 'CFact',
          cardNo: 'C1',
          type: 'card_activated',
          status: 'success',
          remark: 'Success',
        },
      },
    });
    expect(plainJson({ a: [jsonNumber('1')] })).toEqual({ a: ['1'] });
  });
});

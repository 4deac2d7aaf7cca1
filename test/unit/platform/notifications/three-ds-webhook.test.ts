/**
 * A `card_3ds` webhook reaches workflows (and the receiver's delivery log) without its `values`:
 * the one-time code, authorization URL or activation code, even encrypted, never enters a history;
 * the relay and activation activities read the record by its tradeNo instead.
 */
import { CATEGORY_RULES } from '../../../../webhooks/categories';

it('parses a card_3ds record without its values', () => {
  const parsed = CATEGORY_RULES.card_3ds.schema.parse({
    cardNo: '1917954809605185712',
    tradeNo: '1917954809605185999',
    currency: 'USD',
    amount: '12.34',
    merchantName: 'ACME SHOP',
    values: 'c2VhbGVkLW90cC12YWx1ZQ==',
    type: 'third_3ds_otp',
    transactionTime: 1_780_000_000_000,
    expirationTime: 1_780_000_300_000,
  });
  expect(parsed).toMatchObject({ tradeNo: '1917954809605185999', type: 'third_3ds_otp' });
  expect(parsed).not.toHaveProperty('values');
  expect(JSON.stringify(parsed)).not.toContain('c2VhbGVkLW90cC12YWx1ZQ==');
});

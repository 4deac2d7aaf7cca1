import { CardholderQueryRecordSchema } from '../../../provider/schemas/cardholder';
import type { ProviderPort } from '../../../activities/deps';
import { orderPage } from '../../../activities/reconciliation/orders';

// A missed review result is redelivered as the webhook would have carried it: with the record's
// time, which tells a later review round's state from an earlier round's, and without the
// holder's personal data.
it('a cardholder order carries the review result and its time, and no personal data', async () => {
  const record = CardholderQueryRecordSchema.parse({
    holderId: '1234567890123456789',
    merchantOrderNo: 'CF-holder-order-0001',
    cardTypeId: '111',
    areaCode: '+1',
    mobile: '5550100',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    birthday: '1990-01-01',
    country: 'US',
    town: 'NYC',
    address: '1 Main St',
    postCode: '10001',
    statusFlowLocation: 'admin',
    status: 'reject',
    statusStr: 'rejected',
    createTime: 1_700_000_000_000,
    updateTime: 1_700_000_500_000,
  });
  const provider = {
    queryCardholders: () => Promise.resolve({ records: [record], total: '1' }),
  } as unknown as ProviderPort;
  const page = await orderPage(
    provider,
    { source: 'cardholders', pageNum: 1, sliceStart: 0, sliceEnd: 0 },
    { start: 1_700_000_000_000, end: 1_700_001_000_000 },
  );
  expect(page.orders).toEqual([
    {
      event: {
        category: 'card_holder',
        record: {
          holderId: '1234567890123456789',
          merchantOrderNo: 'CF-holder-order-0001',
          cardTypeId: '111',
          statusFlowLocation: 'admin',
          status: 'reject',
          statusStr: 'rejected',
          updateTime: 1_700_000_500_000,
        },
      },
      time: 1_700_000_500_000,
    },
  ]);
});

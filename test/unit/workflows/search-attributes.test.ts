/**
 * The replay-safe search attribute upserts (workflows/search.ts): what is already set comes
 * from the input, so a workflow upserts only real changes, one command per change.
 */
import { upsertSearchAttributes } from '@temporalio/workflow';
import { CardflowCardNo, CardflowCustomerRef, CardflowFlow, CardflowOrderNos } from '../../../domain/search-attributes';
import { Attributes } from '../../../workflows/reporting/search';

jest.mock('@temporalio/workflow', () => ({ upsertSearchAttributes: jest.fn(), workflowInfo: jest.fn() }));
const upsert = jest.mocked(upsertSearchAttributes);

beforeEach(() => upsert.mockClear());

it('upserts what the starter did not set, once, in one command', () => {
  const attributes = new Attributes();
  attributes.set({ cardNo: 'C1', customerRef: 'cust-1', flow: 'card_entity' });
  attributes.set({ cardNo: 'C1', customerRef: 'cust-1', flow: 'card_entity' });
  expect(upsert.mock.calls).toEqual([
    [
      [
        { key: CardflowCustomerRef, value: 'cust-1' },
        { key: CardflowFlow, value: 'card_entity' },
        { key: CardflowCardNo, value: 'C1' },
      ],
    ],
  ]);
});

it('does not upsert what was set at start (or by an earlier run), only the change', () => {
  const attributes = new Attributes({ cardNo: 'C1', customerRef: 'cust-1', flow: 'card_entity' });
  attributes.set({ cardNo: 'C1', customerRef: 'cust-1', flow: 'card_entity' });
  expect(upsert).not.toHaveBeenCalled();
  attributes.set({ cardNo: 'C2', customerRef: undefined });
  expect(upsert.mock.calls).toEqual([[[{ key: CardflowCardNo, value: 'C2' }]]]);
});

it('adds a merchantOrderNo to the list once, and not at all when the parent listed it at start', () => {
  const attributes = new Attributes({ flow: 'wallet_funding', orderNos: ['CFparent'] });
  attributes.addOrderNo('CFparent');
  expect(upsert).not.toHaveBeenCalled();
  attributes.addOrderNo('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
  attributes.addOrderNo('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
  attributes.addOrderNo('CFtransfer');
  expect(upsert.mock.calls).toEqual([
    [[{ key: CardflowOrderNos, value: ['CFparent', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE'] }]],
    [[{ key: CardflowOrderNos, value: ['CFparent', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', 'CFtransfer'] }]],
  ]);
});

/** The card entity's deposit Update is checked by the field rules every cardflow input shares. */
import { depositRequestIssues } from '../../../domain/card-entity';

it('accepts a decimal amount and a card type id of digits', () => {
  expect(depositRequestIssues({ requestId: 'r1', amount: '10.50', cardTypeId: '1001' })).toEqual([]);
});

it.each([
  [{ amount: '1e3', cardTypeId: '1001' }, [{ path: 'amount', message: 'must be a decimal string such as "10.50"' }]],
  [{ amount: '10', cardTypeId: 'abc' }, [{ path: 'cardTypeId', message: 'must be an id of digits' }]],
  [{ amount: '10', cardTypeId: '12345678901234567890' }, [{ path: 'cardTypeId', message: 'must be an id of digits' }]],
  [
    { amount: 10, cardTypeId: '1001' },
    [{ path: 'amount', message: 'must be a decimal string such as "10.50" (not a number)' }],
  ],
])('names the field and the rule it breaks: %j', (request, issues) => {
  expect(depositRequestIssues({ requestId: 'r1', ...request })).toEqual(issues);
});

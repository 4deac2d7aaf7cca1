/** The card entity's Updates are checked by the field rules every cardflow input shares. */
import { depositRequestIssues, requestIdIssues } from '../../../domain/card-entity';

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

it.each([
  ['r-1.a_B', []],
  ['', [{ path: 'requestId', message: 'must be 1 to 64 letters, digits, "_", "." or "-"' }]],
  ['x'.repeat(65), [{ path: 'requestId', message: 'must be 1 to 64 letters, digits, "_", "." or "-"' }]],
  [undefined, [{ path: 'requestId', message: 'is required' }]],
])('checks a requestId as the client does: %j', (requestId, issues) => {
  expect(requestIdIssues(requestId)).toEqual(issues);
});

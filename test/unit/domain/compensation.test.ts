import { describeCompensation } from '../../../domain/compensation';

describe('describeCompensation', () => {
  it('says what went back and what stays, where and why, in one line', () => {
    expect(
      describeCompensation({
        returned: [
          { fromAccountId: '7002', toAccountId: '1001', amount: '101.14', currency: 'USD', merchantOrderNo: 'CF1' },
        ],
        remaining: [{ where: 'card', account: '4001', amount: '50.00', currency: 'USD', why: 'no card withdraw' }],
      }),
    ).toBe('returned 101.14 USD from account 7002 to 1001; left 50.00 USD in card 4001: no card withdraw');
  });

  it('says so when nothing was left to return (what moved was spent)', () => {
    expect(describeCompensation({ returned: [], remaining: [] })).toBe('nothing was left to return');
  });
});

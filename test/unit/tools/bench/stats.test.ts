import { orderViolations, percentile } from '../../../../tools/bench/stats';

describe('bench statistics', () => {
  it('counts the adjacent pairs received the other way round from the reference order', () => {
    expect(orderViolations(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(0);
    expect(orderViolations(['b', 'a', 'c'], ['a', 'b', 'c'])).toBe(1);
    expect(orderViolations(['c', 'b', 'a'], ['a', 'b', 'c'])).toBe(2);
    // A subset in order keeps the order: what was not received is not a violation.
    expect(orderViolations(['a', 'c'], ['a', 'b', 'c'])).toBe(0);
  });

  it('takes percentiles by nearest rank', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 99)).toBe(5);
    expect(percentile([], 50)).toBeNaN();
  });
});

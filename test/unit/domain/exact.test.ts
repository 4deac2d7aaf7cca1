import { exact } from '../../../domain/exact';

describe('exact', () => {
  it('drops undefined keys at any depth and keeps every defined value, null included', () => {
    const parsed = {
      cardNo: '4000123412341234',
      remark: undefined,
      wait: { cardOperation: { firstPollMs: 500, maxPollMs: undefined } },
      files: [{ ref: 'a', contentType: undefined }, { fileId: '1' }],
      remaining: null,
    };
    const fitted = exact(parsed);
    expect(fitted).toStrictEqual({
      cardNo: '4000123412341234',
      wait: { cardOperation: { firstPollMs: 500 } },
      files: [{ ref: 'a' }, { fileId: '1' }],
      remaining: null,
    });
    expect('remark' in fitted).toBe(false);
  });

  it('leaves values that are not plain objects as they are', () => {
    const when = new Date(0);
    const bytes = Buffer.from('x');
    expect(exact({ when, bytes }).when).toBe(when);
    expect(exact({ when, bytes }).bytes).toBe(bytes);
    expect(exact('19-digit 1234567890123456789')).toBe('19-digit 1234567890123456789');
  });
});

import fc from 'fast-check';
import { CARD_MERCHANT_ORDER_NO, MERCHANT_ORDER_NO } from '../../../api/rules';
import { deriveMerchantOrderNo, ORDER_STEPS } from '../../../domain/merchant-order-no';

describe('deriveMerchantOrderNo', () => {
  it('is deterministic for the same workflow id and step', () => {
    expect(deriveMerchantOrderNo('onboarding-c1/card', ORDER_STEPS.cardCreate)).toBe(
      deriveMerchantOrderNo('onboarding-c1/card', ORDER_STEPS.cardCreate),
    );
  });

  it('differs by step and by workflow id, including split-point ambiguity', () => {
    const a = deriveMerchantOrderNo('onboarding-c1/card', ORDER_STEPS.cardCreate);
    expect(deriveMerchantOrderNo('onboarding-c1/card', ORDER_STEPS.cardDeposit)).not.toBe(a);
    expect(deriveMerchantOrderNo('onboarding-c2/card', ORDER_STEPS.cardCreate)).not.toBe(a);
    expect(deriveMerchantOrderNo('ab', 'c')).not.toBe(deriveMerchantOrderNo('a', 'bc'));
  });

  it('is alphanumeric and fits every bound: 20–40, 15–65 and the older deposit bound of 35', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (id, step) => {
        for (const lengths of [MERCHANT_ORDER_NO, CARD_MERCHANT_ORDER_NO]) {
          const no = deriveMerchantOrderNo(id, step, lengths);
          expect(no).toMatch(/^[A-Za-z0-9]+$/);
          expect(no.length).toBeGreaterThanOrEqual(Math.max(lengths.min, MERCHANT_ORDER_NO.min));
          expect(no.length).toBeLessThanOrEqual(35);
        }
      }),
    );
  });

  it('honours forced bounds and refuses impossible ones', () => {
    expect(deriveMerchantOrderNo('w', 's', { min: 20, max: 24 })).toHaveLength(24);
    expect(deriveMerchantOrderNo('w', 's', { min: 50, max: 65 })).toHaveLength(50);
    expect(() => deriveMerchantOrderNo('w', 's', { min: 5, max: 10 })).toThrow(RangeError);
    expect(() => deriveMerchantOrderNo('', 's')).toThrow(TypeError);
  });

  it('has no collisions over many distinct inputs', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20000; i++)
      seen.add(deriveMerchantOrderNo(`onboarding-customer-${i}/card`, ORDER_STEPS.cardCreate));
    expect(seen.size).toBe(20000);
  });
});

import fc from 'fast-check';
import { CARD_MERCHANT_ORDER_NO, MERCHANT_ORDER_NO } from '../../../provider/rules';
import { deriveMerchantOrderNo } from '../../../domain/merchant-order-no';
import { cardOperationWorkflows, ORDER_STEPS, WORKFLOWS } from '../../../domain/workflows';

describe('deriveMerchantOrderNo', () => {
  it('is deterministic for the same workflow id and step', () => {
    expect(WORKFLOWS.cardIssuance.orderKeys('onboarding-c1/card').create).toBe(
      WORKFLOWS.cardIssuance.orderKeys('onboarding-c1/card').create,
    );
  });

  it('differs by step and by workflow id, including split-point ambiguity', () => {
    const a = WORKFLOWS.cardIssuance.orderKeys('onboarding-c1/card').create;
    expect(WORKFLOWS.cardDeposit.orderKeys('onboarding-c1/card').deposit).not.toBe(a);
    expect(WORKFLOWS.cardIssuance.orderKeys('onboarding-c2/card').create).not.toBe(a);
    expect(deriveMerchantOrderNo('ab', 'c')).not.toBe(deriveMerchantOrderNo('a', 'bc'));
  });

  it('is alphanumeric and of one length that fits every bound: 20–40, 15–65 and the older deposit bound of 35', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (id, step) => {
        const no = deriveMerchantOrderNo(id, step);
        expect(no).toMatch(/^CF[0-9a-f]+$/);
        for (const lengths of [MERCHANT_ORDER_NO, CARD_MERCHANT_ORDER_NO, { min: 20, max: 35 }]) {
          expect(no.length).toBeGreaterThanOrEqual(lengths.min);
          expect(no.length).toBeLessThanOrEqual(lengths.max);
        }
      }),
    );
  });

  it('refuses an empty workflow id or step', () => {
    expect(() => deriveMerchantOrderNo('', 's')).toThrow(TypeError);
    expect(() => deriveMerchantOrderNo('w', '')).toThrow(TypeError);
  });

  it('gives every step of every workflow its own key (a merchantOrderNo is unique across operation types)', () => {
    const id = 'onboarding-c1/x';
    const keys = [
      ...Object.values(WORKFLOWS.cardholderOnboarding.orderKeys(id)),
      ...Object.values(WORKFLOWS.cardIssuance.orderKeys(id)),
      ...Object.values(WORKFLOWS.cardDeposit.orderKeys(id)),
      ...Object.values(WORKFLOWS.fundTransfer.orderKeys(id)),
      ...Object.values(WORKFLOWS.physicalCardActivation.orderKeys(id)),
      ...(['freeze', 'unfreeze', 'updatePin'] as const).map(
        (kind) => cardOperationWorkflows[kind].orderKeys(id).operation,
      ),
    ];
    expect(new Set(keys).size).toBe(ORDER_STEPS.length);
  });

  it('has no collisions over many distinct inputs', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20000; i++) seen.add(WORKFLOWS.cardIssuance.orderKeys(`onboarding-customer-${i}/card`).create);
    expect(seen.size).toBe(20000);
  });
});

import * as ids from '../../../domain/workflow-ids';

describe('workflow ids', () => {
  it('builds onboarding and child ids from the customer reference', () => {
    expect(ids.onboardingWorkflowId('cust_42.a-b')).toBe('onboarding-cust_42.a-b');
    expect(ids.cardholderWorkflowId('c1')).toBe('onboarding-c1/cardholder');
    expect(ids.childWorkflowId('onboarding-c1', 'deposit')).toBe('onboarding-c1/deposit');
    expect(ids.customerRefOf('onboarding-c1/card')).toBe('c1');
    expect(ids.customerRefOf('transfer-1')).toBeUndefined();
  });

  it.each([
    ['', 'is required'],
    ['a'.repeat(65), 'length must be 1 to 64'],
    ['has space', 'only letters'],
    ['a/card', 'only letters'],
    ['-lead', 'must start with a letter or digit'],
  ])('refuses %j with a message naming the rule', (ref, message) => {
    expect(() => ids.assertCustomerRef(ref)).toThrow(ids.InvalidBusinessRefError);
    expect(() => ids.onboardingWorkflowId(ref)).toThrow(message);
  });

  it('cannot make a child id equal to another customer onboarding id', () => {
    expect(() => ids.onboardingWorkflowId('a/card')).toThrow(ids.InvalidBusinessRefError);
  });
});

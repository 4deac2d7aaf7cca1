import {
  assertCustomerRef,
  cardholderWorkflowId,
  childWorkflowId,
  customerRefOf,
  InvalidCustomerRefError,
  onboardingWorkflowId,
} from '../../../domain/workflow-ids';

describe('workflow ids', () => {
  it('builds onboarding and child ids from the customer reference', () => {
    expect(onboardingWorkflowId('cust_42.a-b')).toBe('onboarding-cust_42.a-b');
    expect(cardholderWorkflowId('c1')).toBe('onboarding-c1/cardholder');
    expect(childWorkflowId('onboarding-c1', 'deposit')).toBe('onboarding-c1/deposit');
    expect(customerRefOf('onboarding-c1/card')).toBe('c1');
    expect(customerRefOf('transfer-1')).toBeUndefined();
  });

  it.each([
    ['', 'is required'],
    ['a'.repeat(65), 'length must be 1 to 64'],
    ['has space', 'only letters'],
    ['a/card', 'only letters'],
    ['-lead', 'must start with a letter or digit'],
  ])('refuses %j with a message naming the rule', (ref, message) => {
    expect(() => assertCustomerRef(ref)).toThrow(InvalidCustomerRefError);
    expect(() => onboardingWorkflowId(ref)).toThrow(message);
  });

  it('cannot make a child id equal to another customer onboarding id', () => {
    expect(() => onboardingWorkflowId('a/card')).toThrow(InvalidCustomerRefError);
  });
});

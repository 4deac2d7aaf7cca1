/**
 * Every client start derives its id and search attributes through one function
 * (domain/workflow-definition.ts `definedStartOf`): the generic starts, the onboarding's (with its
 * first stage) and the card's (with its card), each as its own code set them before.
 */
import { cardEntityStartOf } from '../../../domain/card-entity-start';
import { definedStartOf } from '../../../domain/workflow-definition';
import { customerOnboardingWorkflow, fundTransferWorkflow } from '../../../domain/workflows';

const pairs = (start: { searchAttributes: { key: { name: string }; value: unknown }[] }) =>
  start.searchAttributes.map(({ key, value }) => [key.name, value]);

it("the card's workflow: its id, flow and customer, then its card", () => {
  const start = cardEntityStartOf({ cardNo: '7001', customerRef: 'c-1' });
  expect(start.workflowId).toBe('card-7001');
  expect(pairs(start)).toEqual([
    ['CardflowFlow', 'card_entity'],
    ['CardflowCustomerRef', 'c-1'],
    ['CardflowCardNo', '7001'],
  ]);
  expect(pairs(cardEntityStartOf({ cardNo: '7001' }))).toEqual([
    ['CardflowFlow', 'card_entity'],
    ['CardflowCardNo', '7001'],
  ]);
});

it('the onboarding: its id, customer, flow and first stage, and no order keys', () => {
  const input = { customerRef: 'c-2' } as never;
  const start = definedStartOf(customerOnboardingWorkflow, 'c-2', input, {
    customerRef: 'c-2',
    stage: 'cardholder_review',
  });
  expect(start.workflowId).toBe(customerOnboardingWorkflow.id('c-2'));
  expect(start.attributes).toEqual({ customerRef: 'c-2', flow: 'onboarding', stage: 'cardholder_review' });
  expect(pairs(start).map(([name]) => name)).toEqual(['CardflowFlow', 'CardflowCustomerRef', 'CardflowStage']);
});

it('a generic start: the keys its definition routes at start', () => {
  const input = { type: 'TRANSFER', amount: '1.00', payerAccountId: '1', payeeAccountId: '2' } as never;
  const start = definedStartOf(fundTransferWorkflow, 'ref-1', input);
  expect(start.workflowId).toBe(fundTransferWorkflow.id('ref-1'));
  expect(start.attributes.orderNos).toEqual([fundTransferWorkflow.orderKeys(start.workflowId).transfer]);
  expect(start.attributes.cardNo).toBeUndefined();
});

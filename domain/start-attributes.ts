/**
 * Search attributes a workflow is started with. Set at start they cost nothing; upserted
 * later each change is a billable action. The client starts an onboarding with
 * {@link onboardingStartAttributes}; every other start derives them from the workflow's
 * definition (`startAttributesOf`, domain/workflow-definition.ts).
 *
 * `CardflowOrderNos` (KeywordList) routes card_transaction webhooks to the workflow that sent
 * the merchantOrderNo. It is looked up by name in `cardflowSearchAttributes` so that a dev
 * server without it registered degrades to polling instead of failing workflow tasks.
 */
import { SearchAttributeType, type SearchAttributePair } from '@temporalio/common';
import type { SearchAttributeKey } from '@temporalio/common/lib/search-attributes';
import { CardflowCustomerRef, CardflowFlow, CardflowStage, cardflowSearchAttributes } from './search-attributes';
import type { Flow } from './workflows';

export const ORDER_NOS_ATTRIBUTE = 'CardflowOrderNos';

/** The CardflowOrderNos key when the project registers it, else undefined. */
export function orderNosKey(): SearchAttributeKey<typeof SearchAttributeType.KEYWORD_LIST> | undefined {
  const key = cardflowSearchAttributes.find(
    (k) => k.name === ORDER_NOS_ATTRIBUTE && k.type === SearchAttributeType.KEYWORD_LIST,
  );
  return key as SearchAttributeKey<typeof SearchAttributeType.KEYWORD_LIST> | undefined;
}

export interface StartAttributes {
  customerRef?: string;
  flow: Flow;
  stage?: string;
  /** merchantOrderNos the workflow will send (routing of card_transaction webhooks). */
  orderNos?: string[];
}

export function startAttributes(input: StartAttributes): SearchAttributePair[] {
  const pairs: SearchAttributePair[] = [{ key: CardflowFlow, value: input.flow }];
  if (input.customerRef) pairs.push({ key: CardflowCustomerRef, value: input.customerRef });
  if (input.stage) pairs.push({ key: CardflowStage, value: input.stage });
  const orderNos = orderNosKey();
  if (orderNos && input.orderNos?.length) pairs.push({ key: orderNos, value: input.orderNos });
  return pairs;
}

/**
 * The stage an onboarding is started in: the first one it waits in, as far as its input tells.
 * Holder data without a holderId means the cardholder review (whether the card type needs a
 * cardholder is read by the workflow; one that needs none starts its card instead and upserts
 * its next stage). Set at start it costs nothing, where the workflow's upsert on entering the
 * review was one action of every happy onboarding.
 */
export function firstOnboardingStage(input: { holder?: unknown; holderId?: string | undefined }): string {
  return input.holder !== undefined && !input.holderId ? 'cardholder_review' : 'validating';
}

/**
 * What `startWorkflow(customerOnboarding, …)` should pass as `typedSearchAttributes`: the
 * workflow reads them back from its start and upserts only what differs. A starter that sets
 * `validating` (or nothing) is still right; its onboarding upserts the review stage itself.
 */
export function onboardingStartAttributes(customerRef: string, stage = 'validating'): SearchAttributePair[] {
  return startAttributes({ customerRef, flow: 'onboarding', stage });
}

/**
 * The search attributes a card's workflow (`cardEntity`) starts with, whoever starts it: a client's
 * Update-with-Start, the receiver's signal-with-start, or cardIssuance when it has made the card.
 * Set at start (free), so the workflow upserts nothing.
 */
import type { SearchAttributePair } from '@temporalio/common';
import type { CardEntityInput } from './card-entity';
import { CardflowCardNo } from './search-attributes';
import { startAttributes } from './start-attributes';
import { startAttributesOf } from './workflow-definition';
import { cardEntityWorkflow } from './workflows';

export function cardEntityStartAttributes(input: CardEntityInput): SearchAttributePair[] {
  const workflowId = cardEntityWorkflow.id(input.cardNo);
  const context = input.customerRef ? { customerRef: input.customerRef } : {};
  return [
    ...startAttributes(startAttributesOf(cardEntityWorkflow, workflowId, input, context)),
    { key: CardflowCardNo, value: input.cardNo },
  ];
}

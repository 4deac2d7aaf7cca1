/**
 * How a card's workflow (`cardEntity`) starts, whoever starts it: a client's Update-with-Start, the
 * receiver's signal-with-start, or the createCard activity when it has made the card. Its input and
 * its search attributes are derived here, so every starter starts the same workflow; the
 * attributes are set at start (free), so the workflow upserts nothing.
 */
import type { CardEntityInput } from './card-entity';
import type { WaitOverrides } from './wait-profile';
import { definedStartOf, type DefinedStart } from './workflow-definition';
import { cardEntityWorkflow } from './workflows';

/**
 * What a starter knows of the card beyond its number: whose it is, and the waits its flows run
 * with.
 */
export interface CardEntityStartContext {
  customerRef?: string | undefined;
  wait?: WaitOverrides | undefined;
}

/** The input a card's workflow starts with, from its card number and what its starter knows. */
export function cardEntityInputFor(cardNo: string, context: CardEntityStartContext = {}): CardEntityInput {
  return {
    cardNo,
    ...(context.customerRef ? { customerRef: context.customerRef } : {}),
    ...(context.wait ? { wait: context.wait } : {}),
  };
}

/** The id and search attributes of the card's workflow, as every start derives them. */
export function cardEntityStartOf(input: CardEntityInput): DefinedStart {
  const context = input.customerRef ? { customerRef: input.customerRef } : {};
  return definedStartOf(cardEntityWorkflow, input.cardNo, input, { ...context, cardNo: input.cardNo });
}

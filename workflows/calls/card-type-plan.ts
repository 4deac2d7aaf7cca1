/**
 * The start the card's money workflows share (card issuance, card deposit): the provider-call
 * proxy, the inbox of provider events, the search attributes known at start and the tracked
 * status; then, inside the status's guard, the card type (given, or read from the provider) and
 * the plan the card type's bounds allow, failing `not_eligible` with the plan's issues. Of these
 * only the card type read (when the starter gave no card type) is a command, sent where both
 * workflows always sent it, so their saved histories replay.
 */
import type { QueryDefinition } from '@temporalio/workflow';
import type { CardType } from '../../provider/schemas/card-type';
import type { FieldIssue } from '../../domain/cardholder-data';
import { FailureTypes } from '../../domain/failure-types';
import type { StartAttributes } from '../../domain/start-attributes';
import type { WaitOverrides } from '../../domain/wait-profile';
import { EventInbox } from '../events/inbox';
import { providerCallsFor, type ProviderCalls } from './profiles';
import { Attributes } from '../reporting/search';
import { trackStatus, type StageStatus, type Tracker } from '../reporting/tracked-status';

/** What such a workflow's input carries for its start. */
export interface CardTypePlanInput {
  cardTypeId: string;
  /** The card type as the starter already read it (one activity less). */
  cardType?: CardType;
  wait?: WaitOverrides;
  startAttributes?: StartAttributes;
}

/** What the body works with once the plan stands. */
export interface PlannedRun<S extends StageStatus, P> {
  provider: ProviderCalls;
  inbox: EventInbox;
  attributes: Attributes;
  tracker: Tracker<S>;
  cardType: CardType;
  plan: P;
}

/**
 * Starts the workflow as above and runs `body` with the plan, inside the status's guard (what
 * escapes the body marks the status failed).
 */
export function withCardTypePlan<S extends StageStatus, P, R>(
  input: CardTypePlanInput,
  status: S,
  query: QueryDefinition<S>,
  planFor: (cardType: CardType) => { plan: P } | { issues: FieldIssue[] },
  body: (run: PlannedRun<S, P>) => Promise<R>,
): Promise<R> {
  const provider = providerCallsFor(input.wait);
  const inbox = new EventInbox();
  const attributes = new Attributes(input.startAttributes);
  const tracker = trackStatus<S>(status, query, inbox);

  return tracker.guard(async () => {
    const cardType = input.cardType ?? (await provider.getCardType({ cardTypeId: input.cardTypeId }));
    const planned = planFor(cardType);
    if ('issues' in planned) return tracker.fail(FailureTypes.notEligible, planned.issues);
    return await body({ provider, inbox, attributes, tracker, cardType, plan: planned.plan });
  });
}

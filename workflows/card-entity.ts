/**
 * `cardEntity`, one long-lived workflow per card, id `card-<cardNo>` (its whole life:
 * docs/card-life.md). Started by the createCard activity with the card it just read, or by the
 * receiver's signal-with-start on the first event of a card nobody follows; any other fresh run
 * catches up from the record queries. Updates (freeze, unfreeze, updatePin, deposit, refresh,
 * requestUnblock) run one at a time in arrival order, a repeated requestId answered once.
 * This function follows the run: the first read, the parked loop (no timer while nothing
 * happens), continue-as-new, the cancel's return. Its parts, in reading order from an event to a
 * notification: workflows/card-entity/README.md.
 */
import { allHandlersFinished, condition, continueAsNew, patched, workflowInfo } from '@temporalio/workflow';
import type { CardEntityResult } from '../domain/card-entity';
import { cardEntityWorkflow } from '../domain/workflows';
import { registerHandlers } from './card-entity/handlers';
import { CardRun } from './card-entity/run';
import type { CardEntityRunInput } from './card-entity/state';
import { Attributes, isChild } from './reporting/search';

export const DEFAULT_MAX_HISTORY_EVENTS = 2000;
export const DEFAULT_REFRESH_INTERVAL_MS = 6 * 60 * 60 * 1000;
/**
 * The card's whole life: catch-up from the record queries, balance reads after money moved, the
 * cancel followed to its return, and no timer while parked. Runs that started before it replay
 * their own commands (the 6-hour re-read, the end right at the cancel).
 */
export const CARD_LIFE_PATCH = 'card-entity-life';
/** `card.issued` told after the first read; runs that read their card before replay without it. */
export const CARD_ISSUED_PATCH = 'card-entity-issued';

/**
 * A first run started by the activity that made its card learns the card from its input
 * (`CardBirth`): no catch-up, no read, and no other patch asked (the card's life, `card.issued`
 * and learning an activation come with it). A run given a birth by a newer starter but begun by
 * an older build replays as that build ran it: the marker is absent, so it takes the older path.
 */
export const CARD_BORN_PATCH = 'card-entity-born';

export async function cardEntity(input: CardEntityRunInput): Promise<CardEntityResult> {
  const startedAtBirth = input.born !== undefined && input.carried === undefined && patched(CARD_BORN_PATCH);
  const run = new CardRun(input, startedAtBirth || patched(CARD_LIFE_PATCH), startedAtBirth);
  registerHandlers(run);
  // Continue-as-new keeps the search attributes: a carried run does not upsert what the first one
  // set, nor does a run whose starter set them (cardEntityStartOf, `attributesSetAtStart`).
  const mine = { cardNo: input.cardNo, customerRef: input.customerRef, flow: cardEntityWorkflow.flow };
  if (!isChild()) new Attributes(input.carried || input.attributesSetAtStart ? mine : {}).set(mine);
  if (startedAtBirth && input.born) run.tellIssued(run.learnBirth(input.born), () => true);
  else if (run.card.carried.asOf === undefined) await readFirst(run);
  await followUntilCancelled(run);
  if (run.followsLife && !run.card.cancelReturned) await run.awaitCancelReturn();
  await condition(allHandlersFinished);
  if (run.notices.plan) await run.notices.deliver();
  return run.card.result();
}

/** A run with nothing carried learns the card: its records (with the card's life), then a read. */
async function readFirst(run: CardRun): Promise<void> {
  if (run.followsLife) await run.catchUp();
  const first = await run.refresh();
  run.tellIssued(first, () => patched(CARD_ISSUED_PATCH));
}

/**
 * Until the card is cancelled: parked on the handlers (before the card's life, re-read every
 * `refreshIntervalMs`), reading the balance when it is stale, and continuing as new with the
 * card's state once history grows large.
 */
async function followUntilCancelled(run: CardRun): Promise<void> {
  const { input, card, followsLife } = run;
  const maxEvents = input.maxHistoryEvents ?? DEFAULT_MAX_HISTORY_EVENTS;
  const historyIsLarge = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= maxEvents;
  const interval = input.refreshIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS;
  const readBalance = () => followsLife && card.balanceStale;
  while (!card.cancelled) {
    const wake = () => card.cancelled || historyIsLarge() || readBalance();
    // Parked: no timer, only the handlers wake it (a signal, an Update).
    const woke = followsLife ? await condition(wake).then(() => true) : await condition(wake, interval);
    if (card.cancelled) break;
    if (woke && historyIsLarge()) {
      await condition(allHandlersFinished);
      if (run.notices.plan) await run.notices.deliver();
      if (!card.cancelled) {
        const { carried: _previous, born: _born, ...rest } = input;
        await continueAsNew<typeof cardEntity>({ ...rest, carried: card.carried });
      }
    } else {
      await run.refreshQuietly();
    }
  }
}

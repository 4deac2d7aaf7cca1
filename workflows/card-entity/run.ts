/**
 * One run of `cardEntity` (workflows/card-entity.ts): its card's state (`CardState`), its
 * requests, its inbox, and what it tells the merchant's backend (`NoticeHold`). Every provider
 * event, from a webhook or a catch-up, goes one way, read top to bottom in `learn`: the state
 * learns it, the notices are derived from what moved (card-entity/notices.ts), and the hold sends
 * them. Catch-ups, reads and the cancel's return follow it in this file, in that order.
 */
import { patched, workflowInfo } from '@temporalio/workflow';
import type { CancelReturn } from '../../activities';
import type { CardBirth, CardSnapshot } from '../../domain/card-entity';
import { isTimeout } from '../../domain/failures';
import { cardIssuedEventId } from '../../domain/notifications';
import { CANCEL_RETURN_DEADLINE_MS } from '../../domain/wait-profile';
import { strandedMoneyWorkflow } from '../../domain/workflows';
import type { ProviderEventBody } from '../../domain/provider-event';
import { cardOperationRecordOf } from '../../domain/provider-records';
import { CardRequests } from './requests';
import { CardState, type CardEntityRunInput } from './state';
import { cancelledNotice, eventNotices, issuedNotice, statusNotices, type CardMark } from './notices';
import { NoticeHold } from './notice-hold';
import { EventInbox } from '../events/inbox';
import { startAbandoned } from '../calls/children';
import { cardOperationWait, longPollCalls, pollSettings, providerCallsFor } from '../calls/profiles';

/**
 * An activation's result makes the card Normal. Runs that were sent one before (by a visibility
 * lookup of the card) replay ignoring it.
 */
export const CARD_ACTIVATION_PATCH = 'card-entity-activation';

/**
 * A state of a record older than the one the run learned (the provider's webhooks crossed) is not
 * told. Runs that told one before replay telling it; the patch is asked only when one comes.
 */
export const OLDER_STATE_UNTOLD_PATCH = 'card-entity-older-state-untold';

/**
 * A cancelled card's balance is awaited up to a deadline, matched by the card and the amount on
 * every path the spec describes, and reported as not returned past it. Runs that began the wait
 * before wait with no deadline, as they always did.
 */
export const CANCEL_RETURN_BOUNDED_PATCH = 'card-entity-cancel-return-bounded';

export class CardRun {
  readonly info = workflowInfo();
  readonly provider: ReturnType<typeof providerCallsFor>;
  readonly cardNo: string;
  readonly card: CardState;
  readonly requests: CardRequests;
  readonly inbox = new EventInbox();
  readonly profile: ReturnType<typeof cardOperationWait>;
  /**
   * What the run tells (docs/notifications.md, card events): on when the first run's catch-up
   * returned a plan, which the carried state keeps; held in a fresh run until that answer.
   */
  readonly notices: NoticeHold;

  /**
   * `followsLife`: the run follows the card's whole life (CARD_LIFE_PATCH). `startedAtBirth`: the
   * run began with its card's birth (CARD_BORN_PATCH), on code that learns activations: it asks no
   * patch for them.
   */
  constructor(
    readonly input: CardEntityRunInput,
    readonly followsLife: boolean,
    private readonly startedAtBirth = false,
  ) {
    this.provider = providerCallsFor(input.wait);
    this.cardNo = input.cardNo;
    this.card = new CardState(input.cardNo, input.carried);
    this.requests = new CardRequests(this.card);
    this.profile = cardOperationWait(input.wait);
    this.notices = new NoticeHold(input.cardNo, input.carried, followsLife && input.carried === undefined);
  }

  /**
   * Every provider event of the card, from a webhook or from a catch-up, is learned here and only
   * here, and told here when it is new: a repeat is told once. A record's state that comes after a
   * later one (an authorization's hold after its settlement) is not told: the later state, told
   * already, stands for it, and a backend that counts holds would otherwise keep one that was
   * settled. A catch-up, which reads only a record's latest state, tells the same.
   */
  learn(event: ProviderEventBody & { requestId?: string }): void {
    if (event.requestId !== undefined) this.inbox.add(event as Parameters<EventInbox['add']>[0]);
    const before = this.card.mark();
    const learned = this.card.learnEvent(event, () => this.startedAtBirth || patched(CARD_ACTIVATION_PATCH));
    if (learned === 'ignored') return;
    const move = { before, after: this.card.mark(), customerRef: this.input.customerRef };
    const told = eventNotices(this.cardNo, event, learned, move, () => !patched(OLDER_STATE_UNTOLD_PATCH));
    for (const notice of told.notices) this.notices.tell(notice);
    if (told.relay) this.notices.relayThreeDs(told.relay);
  }

  /** Tells the block set or lifted, or the status moved, by a step of the state after `before`. */
  tellMoves(before: CardMark, merchantOrderNo?: string): void {
    const context = { customerRef: this.input.customerRef, merchantOrderNo };
    for (const notice of statusNotices(this.cardNo, before, this.card.mark(), context)) this.notices.tell(notice);
  }

  /**
   * Learns the records the webhooks may have missed (the entity was not running, or one was lost).
   * Its answer carries the notification plan: what the run held until then goes first.
   */
  async catchUp(): Promise<void> {
    const { card, cardNo, notices } = this;
    const since = card.carried.recordsUpTo;
    const found = await this.provider.cardRecordsSince({ cardNo, ...(since === undefined ? {} : { since }) });
    card.keepPlan(notices.learnPlan(found));
    notices.releaseHeld();
    for (const record of found.operations) this.learn({ category: 'card_transaction', record });
    for (const record of found.authorizations) this.learn({ category: 'card_auth_transaction', record });
    for (const record of found.fees) this.learn({ category: 'card_fee_patch', record });
    const times = [...found.operations, ...found.authorizations, ...found.fees].map((r) => r.transactionTime ?? 0);
    card.caughtUp(times.length ? Math.max(...times) : undefined);
  }

  /**
   * The card as the activity that made it knew it (`CardBirth`): the notification plan, the create
   * record learned as its webhook would be, and the read after it. What was held for the plan goes.
   */
  learnBirth(birth: CardBirth): CardSnapshot {
    const { card, notices } = this;
    card.keepPlan(notices.learnPlan(birth));
    notices.releaseHeld();
    this.learn({ category: 'card_transaction', record: cardOperationRecordOf(birth.create) });
    card.caughtUp(birth.create.transactionTime);
    card.learnRead(birth.card, birth.readAt, true);
    return card.snapshot(this.requests.pending);
  }

  async refresh(): Promise<CardSnapshot> {
    const sentAt = Date.now();
    if (this.followsLife) this.card.readingBalance();
    const read = await this.provider.getCardSummary({ cardNo: this.cardNo });
    const before = this.card.mark();
    this.card.learnRead(read, sentAt, this.requests.pending === 0);
    this.tellMoves(before);
    return this.card.snapshot(this.requests.pending);
  }

  /**
   * The loop's read: in a run with the card's life, a read that fails for good is tried at the next
   * event.
   */
  async refreshQuietly(): Promise<void> {
    if (!this.followsLife) {
      await this.refresh();
      return;
    }
    try {
      await this.refresh();
    } catch {
      this.card.readingBalance();
    }
  }

  /**
   * The card's first run tells the backend the card exists, once per card (its id is the card's).
   * Runs that read the card before this was told replay without it (`issuedPatched` is asked last).
   */
  tellIssued(first: CardSnapshot, issuedPatched: () => boolean): void {
    const { cardNo, input, notices } = this;
    if (this.followsLife && notices.plan && first.cardTypeId && !first.cancelled && issuedPatched())
      notices.tellNow(
        issuedNotice(cardNo, { ...first, cardTypeId: first.cardTypeId }, input.customerRef),
        cardIssuedEventId(cardNo),
      );
  }

  /**
   * The cancel is recorded; the card's balance leaves by a path the spec describes
   * (domain/cancel-return.ts). Awaited up to the cancel-return deadline in runs that bound it
   * ({@link CANCEL_RETURN_BOUNDED_PATCH}); past it, what was left is recorded instead.
   */
  async awaitCancelReturn(): Promise<void> {
    const { cardNo, input, profile } = this;
    const bounded = patched(CANCEL_RETURN_BOUNDED_PATCH);
    const deadlineMs = input.wait?.cancelReturnMs ?? CANCEL_RETURN_DEADLINE_MS;
    let returned: CancelReturn;
    try {
      returned = await longPollCalls(profile, bounded ? deadlineMs : undefined).awaitCancelReturn({
        cardNo,
        poll: pollSettings(profile),
      });
    } catch (error) {
      if (!bounded || !isTimeout(error)) throw error;
      await this.recordUnreturned(deadlineMs);
      return;
    }
    this.card.learnCancelReturn(returned);
    const back = { amountReturned: returned.returnedAmount, currency: returned.currency };
    this.notices.tell(cancelledNotice(cardNo, input.customerRef, back));
  }

  /**
   * The balance was not seen back within the deadline: the money the cancel took off the card is
   * kept open in a `strandedMoney` record (a reconciliation finding until an operator
   * acknowledges it), and the backend is told of the cancel without an amount returned.
   */
  private async recordUnreturned(deadlineMs: number): Promise<void> {
    const { cardNo, input } = this;
    const { cancel } = await this.provider.cancelRecordOf({ cardNo });
    const known = this.card.carried.balance;
    const amount = cancel?.amount ?? known?.amount;
    const currency = cancel?.currency ?? known?.currency ?? '';
    const hours = Math.round(deadlineMs / 360_000) / 10;
    const reason = cancel
      ? `the balance of cancelled card ${cardNo} (cancel ${cancel.orderNo}, ${cancel.status}) was not seen back within ${hours} h`
      : `card ${cardNo} is cancelled but its cancel record was not found within ${hours} h`;
    const { runId } = workflowInfo();
    const strandedRecord = await startAbandoned(
      strandedMoneyWorkflow,
      {
        ...(input.customerRef ? { customerRef: input.customerRef } : {}),
        sourceWorkflowId: this.info.workflowId,
        reason,
        left: [{ where: 'card', account: cardNo, amount: amount ?? '0', currency, why: reason }],
      },
      { ...(input.customerRef ? { customerRef: input.customerRef } : {}), suffix: `stranded.${runId}` },
    );
    this.card.learnUnreturned({ orderNo: cancel?.orderNo, amount, currency }, strandedRecord);
    this.notices.tell(cancelledNotice(cardNo, input.customerRef, { currency }));
  }
}

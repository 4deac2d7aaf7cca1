/**
 * The last step from event to notification: a card entity's notices (card-entity/notices.ts) go
 * to the merchant's backend through the run's `Notifier`, and its 3DS records through the relay.
 * One deferral sits here: a fresh run can learn (from the event that started it) before its first
 * catch-up says whether notifications are on. Until that plan is known, what it tells is held, in
 * order; once known, the held steps run (and send nothing when notifications are off). A carried
 * run, or one from before the card's life, knows its plan from the start and holds nothing.
 */
import type { NotificationPlan } from '../../domain/notifications';
import { Notifier } from '../reporting/notifier';
import type { CardNotice } from './notices';
import { relayThreeDsRecord } from './three-ds-relay';

export class NoticeHold {
  private readonly notifier = new Notifier();
  /** The steps held until the plan is known; undefined once it is (or when none are held). */
  private held: (() => void)[] | undefined;
  /** The 3DS relays under way: awaited before the run ends or continues as new. */
  private readonly relays: Promise<unknown>[] = [];
  private readonly relayed = new Set<string>();

  /** `holdUntilPlanKnown`: a fresh run with the card's life, whose catch-up brings the plan. */
  constructor(
    private readonly cardNo: string,
    carried: { notifications?: NotificationPlan | undefined } | undefined,
    holdUntilPlanKnown: boolean,
  ) {
    this.notifier.enable(carried);
    this.held = holdUntilPlanKnown ? [] : undefined;
  }

  /** The plan (notifications on), to carry across continue-as-new; undefined when off. */
  get plan(): NotificationPlan | undefined {
    return this.notifier.current;
  }

  /** Tells a notice now, or once the plan is known. */
  tell(notice: CardNotice): void {
    this.afterPlanKnown(() => this.notifier.emit(notice.type, notice.data));
  }

  /** Tells a notice now, with its own id: only for a step taken once the plan is known. */
  tellNow(notice: CardNotice, id: string): void {
    this.notifier.emit(notice.type, notice.data, id);
  }

  /** Relays the 3DS record `tradeNo` once (its code or URL), now or once the plan is known. */
  relayThreeDs(tradeNo: string): void {
    this.afterPlanKnown(() => {
      if (!this.notifier.current || this.relayed.has(tradeNo)) return;
      this.relayed.add(tradeNo);
      this.relays.push(relayThreeDsRecord({ cardNo: this.cardNo, tradeNo }));
    });
  }

  /** The plan a catch-up or the card's birth returned: notifications are on when it has one. */
  learnPlan(result: { notifications?: NotificationPlan | undefined }): NotificationPlan | undefined {
    this.notifier.enable(result);
    return this.notifier.current;
  }

  /** The plan is known: the held steps run, in the order they were held, and nothing is held. */
  releaseHeld(): void {
    const waiting = this.held;
    this.held = undefined;
    for (const step of waiting ?? []) step();
  }

  /** Waits for the relays under way, then for every notice to be delivered or recorded. */
  async deliver(): Promise<void> {
    while (this.relays.length > 0) await Promise.all(this.relays.splice(0));
    await this.notifier.flush();
  }

  private afterPlanKnown(step: () => void): void {
    if (this.held) this.held.push(step);
    else step();
  }
}

/**
 * A workflow's notifications to the merchant's backend (docs/notifications.md). `emit` never
 * waits: events are queued and delivered by activities, one batch after another, so they arrive
 * in order and a backend that is down never holds the workflow back. `flush` waits until each is
 * delivered or recorded undeliverable; a workflow flushes before it ends. It costs nothing unless
 * the first activity's result carried a plan ({@link Notifier.enable}), which is also why no
 * `patched()` marker is needed: histories from before notifications hold no plan and replay as
 * they were.
 */
import { CancellationScope, proxyActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { CardflowActivities } from '../../activities';
import {
  workflowEventId,
  type NotificationData,
  type NotificationEvent,
  type NotificationPlan,
  type NotificationType,
} from '../../domain/notifications';
import { summarize } from '../../domain/failures';

/**
 * One delivery: each attempt one request per event (10 s timeout each); a dead worker's attempt
 * is retried after the 5 s heartbeat timeout; the retry policy backs off from 1 s to 1 min until
 * the plan's delivery window (schedule-to-close) runs out.
 */
function deliveryOptions(plan: NotificationPlan): ActivityOptions {
  return {
    startToCloseTimeout: '2m',
    heartbeatTimeout: '5s',
    scheduleToCloseTimeout: plan.deliveryWindowMs,
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
  };
}

/** Recording what could not be delivered: the store is ours, so it is retried without a limit. */
const { recordUndelivered } = proxyActivities<CardflowActivities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

export class Notifier {
  private plan: NotificationPlan | undefined;
  private seq = 0;
  private readonly pending: NotificationEvent[] = [];
  private draining: Promise<void> | undefined;

  /** Turns notifications on when the worker sent a plan with its first activity's result. */
  enable(result: { notifications?: NotificationPlan | undefined } | undefined): void {
    const plan = result?.notifications;
    if (plan && !this.plan) this.plan = plan;
  }

  /** The plan, to carry across continue-as-new. */
  get current(): NotificationPlan | undefined {
    return this.plan;
  }

  /**
   * Queues an event (nothing when notifications are off); its id is the run's and its place in it,
   * unless the event has an id of its own, derived from what it is about (`id`).
   */
  emit<T extends NotificationType>(type: T, data: NotificationData<T>, id?: string): void {
    const plan = this.plan;
    if (!plan) return;
    const info = workflowInfo();
    this.pending.push({
      id: id ?? workflowEventId(info.runId, ++this.seq),
      type,
      created: new Date(Date.now()).toISOString(),
      workflowId: info.workflowId,
      data,
    } as NotificationEvent);
    this.draining ??= this.drain(plan);
  }

  /** Waits until every queued event is delivered or recorded undeliverable; never cancelled. */
  async flush(): Promise<void> {
    while (this.draining) await CancellationScope.nonCancellable(() => this.draining!);
  }

  private async drain(plan: NotificationPlan): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const events = this.pending.splice(0);
        // An operator's cancel of the workflow does not cancel what it tells the backend.
        await CancellationScope.nonCancellable(() => this.deliver(plan, events));
      }
    } finally {
      this.draining = undefined;
    }
  }

  private async deliver(plan: NotificationPlan, events: NotificationEvent[]): Promise<void> {
    try {
      await proxyActivities<CardflowActivities>(deliveryOptions(plan)).deliverNotifications({ events });
    } catch (error) {
      await recordUndelivered({ events, reason: summarize(error).message });
    }
  }
}

/**
 * Notifications to the merchant's backend (docs/notifications.md), signed and posted here, never
 * in a workflow: {@link deliverNotifications} takes a workflow's events a batch at a time, in
 * order; what the delivery window could not deliver goes to {@link recordUndelivered}, kept for
 * `cardflow events resend`. The 3DS relay ({@link relayThreeDs}) gets only a record's ids and
 * reads and opens the one-time value inside the activity, so it never enters a history; past the
 * record's expiration it records the failure, without the value, and fails for good.
 */
import { activityInfo, cancellationSignal, Context } from '@temporalio/activity';
import type { Card3dsRecord } from '../provider/schemas/card-records';
import { FailureTypes } from '../domain/failure-types';
import {
  NotificationTypes,
  threeDsEventId,
  type NotificationEvent,
  type NotificationPlan,
} from '../domain/notifications';
import { NotificationPostError, postNotification, type NotificationTarget } from '../platform/notifications/sender';
import type { UndeliveredStore } from '../platform/notifications/store';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { nonRetryable, retryable } from '../domain/failures';
import { reportProgress } from './heartbeats';
import { openSealed } from './secrets';

/** What the worker gives the notification activities when CARDFLOW_NOTIFY_URL is set. */
export interface NotificationDeps {
  target: NotificationTarget;
  deliveryWindowMs: number;
  /** Where undeliverable events are kept (platform/notifications/store.ts). */
  store: UndeliveredStore;
}

/** The plan a workflow learns from its first activity's result (absent: nothing configured). */
export function notificationPlanOf(deps: ActivityDeps): { notifications?: NotificationPlan } {
  return deps.notifications ? { notifications: { deliveryWindowMs: deps.notifications.deliveryWindowMs } } : {};
}

/** What the relay reports to its workflow: never the value. */
export interface ThreeDsRelayOutcome {
  eventId: string;
  /** The record's expiration time (epoch ms). */
  expiresAt: number;
}

const UNDELIVERABLE_METRIC = {
  name: 'cardflow_notifications_undeliverable',
  description: 'Notifications the backend did not take within the delivery window (or a 3DS code before it expired)',
} as const;

function countUndeliverable(type: string): void {
  Context.current()
    .metricMeter.createCounter(UNDELIVERABLE_METRIC.name, undefined, UNDELIVERABLE_METRIC.description)
    .add(1, {
      type,
    });
}

/** The delivered count an earlier attempt of this batch reported, so a retry resumes after it. */
function deliveredBefore(): number {
  const details: unknown = activityInfo().heartbeatDetails;
  return typeof details === 'number' && Number.isInteger(details) ? details : 0;
}

/**
 * The 3DS record `tradeNo` of `cardNo`: retryable while not found yet; an activation code is never
 * relayed.
 */
async function threeDsRecord(deps: ActivityDeps, cardNo: string, tradeNo: string): Promise<Card3dsRecord> {
  const page = await deps.provider.listCard3dsRecords(
    { pageNum: 1, pageSize: 10, cardNo, tradeNo },
    { signal: cancellationSignal() },
  );
  const record = page.records.find((r) => r.tradeNo === tradeNo && r.cardNo === cardNo);
  if (!record)
    throw retryable(FailureTypes.threeDsRecordNotFound, `3DS record ${tradeNo} of the card is not found yet`);
  if (record.type === 'activation_code')
    throw nonRetryable(FailureTypes.invalidInput, `record ${tradeNo} is an activation code, which is never relayed`);
  return record;
}

/** Records a 3DS event that can no longer be sent (without its value) and fails for good. */
async function expired(record: Card3dsRecord, reason: string, n: NotificationDeps | undefined): Promise<never> {
  const eventId = threeDsEventId(record.tradeNo);
  // Recorded without the value: it is void now, and a secret is kept at rest nowhere.
  await n?.store.record({
    id: eventId,
    type: NotificationTypes.cardThreeDs,
    workflowId: activityInfo().workflowExecution?.workflowId ?? '',
    recordedAt: new Date().toISOString(),
    reason,
  });
  countUndeliverable(NotificationTypes.cardThreeDs);
  throw nonRetryable(
    FailureTypes.threeDsExpired,
    `3DS record ${record.tradeNo} expired at ${new Date(record.expirationTime).toISOString()} before the backend took it (${reason})`,
  );
}

export function createNotificationActivities(deps: ActivityDeps) {
  const log = () => deps.logger ?? Context.current().log;

  return convertingFailures({
    /** The plan, for a workflow with no first activity to learn it from (the per-card workflow). */
    async notificationPlan(): Promise<{ notifications?: NotificationPlan }> {
      return notificationPlanOf(deps);
    },

    /**
     * Posts `events` in order, one request each; a retry resumes after the last one delivered
     * (heartbeat details). With no URL configured any more (the worker was restarted without
     * one), the events are dropped with a warning: the operator turned notifications off.
     */
    async deliverNotifications(input: { events: NotificationEvent[] }): Promise<{ delivered: number }> {
      const n = deps.notifications;
      if (!n) {
        log().warn('notifications: CARDFLOW_NOTIFY_URL is not set; events dropped', { count: input.events.length });
        return { delivered: 0 };
      }
      const from = deliveredBefore();
      for (let i = from; i < input.events.length; i++) {
        try {
          const event = input.events[i]!;
          await postNotification(
            n.target,
            { id: event.id, body: JSON.stringify(event) },
            { signal: cancellationSignal() },
          );
        } catch (error) {
          if (!(error instanceof NotificationPostError)) throw error;
          throw retryable(FailureTypes.notificationNotDelivered, `event ${input.events[i]!.id}: ${error.message}`);
        }
        if (input.events.length > 1) reportProgress(i + 1);
      }
      return { delivered: input.events.length - from };
    },

    /** Keeps events the window could not deliver, for `cardflow events list` and `resend`. */
    async recordUndelivered(input: { events: NotificationEvent[]; reason: string }): Promise<void> {
      const store = deps.notifications?.store;
      for (const event of input.events) {
        await store?.record({
          id: event.id,
          type: event.type,
          workflowId: event.workflowId,
          recordedAt: new Date().toISOString(),
          reason: input.reason,
          body: JSON.stringify(event),
        });
        countUndeliverable(event.type);
      }
      log().warn('notifications: recorded undeliverable', {
        ids: input.events.map((e) => e.id),
        reason: input.reason,
      });
    },

    /**
     * Relays the 3DS record `tradeNo` of `cardNo` to the backend as a `card.three_ds` event,
     * before the record expires. Retryable while the record is not found yet or the backend does
     * not take it; past the expiration time, recorded undeliverable and failed for good
     * (ThreeDsExpired). Returns the event id, never the value.
     */
    async relayThreeDs(input: { cardNo: string; tradeNo: string }): Promise<ThreeDsRelayOutcome> {
      const n = deps.notifications;
      if (!n)
        throw nonRetryable(
          FailureTypes.notificationNotDelivered,
          'CARDFLOW_NOTIFY_URL is not set: there is no backend to relay the 3DS code to',
        );
      const record = await threeDsRecord(deps, input.cardNo, input.tradeNo);
      const remainingMs = record.expirationTime - Date.now();
      if (remainingMs <= 0) return expired(record, 'expired before it could be sent', n);
      const value = openSealed(record.values, deps.merchantPrivateKey, '3DS value');
      const event: NotificationEvent<typeof NotificationTypes.cardThreeDs> = {
        id: threeDsEventId(record.tradeNo),
        type: NotificationTypes.cardThreeDs,
        created: new Date(record.transactionTime).toISOString(),
        workflowId: activityInfo().workflowExecution?.workflowId ?? '',
        data: {
          cardNo: record.cardNo,
          tradeNo: record.tradeNo,
          kind: record.type === 'auth_url' ? 'auth_url' : 'third_3ds_otp',
          ...(record.type === 'auth_url' ? { authUrl: value } : { otp: value }),
          amount: record.amount,
          currency: record.currency,
          merchantName: record.merchantName,
          expiresAt: new Date(record.expirationTime).toISOString(),
        },
      };
      try {
        // A request never outlasts the code it carries.
        await postNotification(
          { ...n.target, timeoutMs: Math.min(n.target.timeoutMs ?? 10_000, remainingMs) },
          { id: event.id, body: JSON.stringify(event) },
          { signal: cancellationSignal() },
        );
      } catch (error) {
        if (!(error instanceof NotificationPostError)) throw error;
        if (Date.now() >= record.expirationTime) return expired(record, error.message, n);
        throw retryable(FailureTypes.notificationNotDelivered, `event ${event.id}: ${error.message}`);
      }
      return { eventId: event.id, expiresAt: record.expirationTime };
    },
  });
}

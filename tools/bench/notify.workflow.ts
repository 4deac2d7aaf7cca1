/**
 * The notification figure's workflow: one card's authorizations told to the backend through the
 * workflows' own Notifier (workflows/reporting/notifier.ts), as the per-card workflow will tell
 * them. `burst`: all emitted at once (they batch behind the delivery in flight); otherwise each
 * waits for the one before it to be delivered (one delivery activity each: the worst case).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { CardflowActivities } from '../../activities';
import { NotificationTypes } from '../../domain/notifications';
import { Notifier } from '../../workflows/reporting/notifier';

const { notificationPlan } = proxyActivities<CardflowActivities>({ startToCloseTimeout: '10s' });

export async function notifyAuthorizations(input: { cardNo: string; count: number; burst: boolean }): Promise<void> {
  const notifier = new Notifier();
  notifier.enable(await notificationPlan());
  for (let i = 0; i < input.count; i++) {
    notifier.emit(NotificationTypes.cardTransaction, {
      cardNo: input.cardNo,
      kind: 'authorization',
      tradeNo: `${input.cardNo}${String(i).padStart(4, '0')}`,
      amount: '12.34',
      currency: 'USD',
      status: 'authorized',
    });
    if (!input.burst) await notifier.flush();
  }
  await notifier.flush();
}

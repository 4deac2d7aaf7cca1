/**
 * The card run with notifications on whose history `replay.test.ts` saves (`card-notices`): a
 * card no client touched, its workflow started by its first authorization's webhook on a worker
 * whose notification target is a backend (test/support/notification-backend.ts). Its notices wait
 * until the first catch-up tells the workflow that notifications are on, then go out: card.issued
 * and the hold, then the settlement, a 3DS code relayed (`relayThreeDs`: the history holds the
 * record's ids, never its code), a freeze Update's status change, and the cancel the workflow
 * follows to its end, so the saved history is complete.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cardSnapshotQuery, freezeUpdate } from '../../../domain/card-entity';
import { cardEntityWorkflowId } from '../../../domain/workflow-ids';
import { NotificationTypes, type NotificationEvent } from '../../../domain/notifications';
import { openFileUndeliveredStore } from '../../../platform/notifications/store';
import { startNotificationBackend } from '../../support/notification-backend';
import { eventually, startCardHarness, virtualCard } from '../support/card-harness';
import type { SavedRuns, SaveHistory } from './card-and-funds-runs';

/** The saved history of the card run with notifications on. */
export const CARD_NOTICES_HISTORY = 'card-entity-notices';

const SECRET = 'replay-notices-secret-0123456789abcdef';

/** Saves {@link CARD_NOTICES_HISTORY}; returns the 3DS code its history must not hold. */
export async function saveCardNoticeHistory(saveOne: SaveHistory): Promise<SavedRuns> {
  const h = await startCardHarness();
  const backend = await startNotificationBackend();
  const store = await openFileUndeliveredStore(await mkdtemp(join(tmpdir(), 'cardflow-replay-notices-')));
  const told = (workflowId: string, type: string) =>
    eventually(
      () => Promise.resolve(backend.delivered(SECRET).filter((e: NotificationEvent) => e.workflowId === workflowId)),
      (events) => events.some((e) => e.type === type),
      `${type} at the backend`,
    );
  try {
    const cardNo = await virtualCard(h.provider, { deposit: '50' });
    const workflowId = cardEntityWorkflowId(cardNo);
    const handle = h.client.workflow.getHandle(workflowId);
    const learned = (tradeNo: string, status: string) =>
      eventually(
        () => handle.query(cardSnapshotQuery).catch(() => undefined),
        (s) => s?.authorizations.some((a) => a.tradeNo === tradeNo && a.status === status) === true,
        `${tradeNo} ${status}`,
      );
    let code = '';
    await h.withCardWorker(
      async () => {
        // The hold's webhook starts the card's workflow; it is learned before the settlement is
        // made, so both states are told.
        const { tradeNo } = await h.helper<{ tradeNo: string }>('authorizeCard', {
          cardNo,
          type: 'auth',
          amount: '20',
          merchantName: 'Book Shop',
          settle: false,
        });
        await learned(tradeNo, 'authorized');
        await told(workflowId, NotificationTypes.cardTransaction);
        await h.helper('settleAuthorization', { tradeNo, settleAmount: '20' });
        await h.sandbox.deliveries.idle();
        await learned(tradeNo, 'succeed');
        const otp = await h.helper<{ tradeNo: string; value: string }>('issue3ds', {
          cardNo,
          type: 'third_3ds_otp',
          amount: '9.99',
        });
        code = otp.value;
        await eventually(
          () => Promise.resolve(backend.delivered(SECRET).some((e) => e.id === `evt_3ds_${otp.tradeNo}`)),
          (arrived) => arrived,
          'the 3DS code at the backend',
        );
        await handle.executeUpdate(freezeUpdate, { args: [{ requestId: 'nf1', clientRemark: 'travel' }] });
        await told(workflowId, NotificationTypes.cardStatusChanged);
        await h.helper('cancelCard', { cardNo, reason: 'closed by the customer' });
        await handle.result();
      },
      {
        notifications: {
          target: { url: backend.url, secrets: [SECRET], format: 'cardflow' },
          deliveryWindowMs: 120_000,
          store,
        },
      },
    );
    const types = backend
      .delivered(SECRET)
      .filter((e) => e.workflowId === workflowId)
      .map((e) => e.type);
    for (const type of [
      NotificationTypes.cardIssued,
      NotificationTypes.cardTransaction,
      NotificationTypes.cardThreeDs,
      NotificationTypes.cardStatusChanged,
      NotificationTypes.cardCancelled,
    ])
      if (!types.includes(type)) throw new Error(`the card-notices run told no ${type}: ${types.join(', ')}`);
    await saveOne(CARD_NOTICES_HISTORY, handle);
    return { names: [CARD_NOTICES_HISTORY], clearValues: [code] };
  } finally {
    await backend.close();
    await h.stop();
  }
}

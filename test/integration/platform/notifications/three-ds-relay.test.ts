/**
 * The 3DS relay as a workflow runs it, on the dev server: the workflow hands only the record's ids
 * to the activity, the backend receives the code and the URL before they expire, and the
 * workflow's history (every payload, as the server stores it) holds neither, only the tradeNo.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActivities } from '../../../../activities';
import { NotificationTypes } from '../../../../domain/notifications';
import { openFileUndeliveredStore } from '../../../../platform/notifications/store';
import { exportHistoryBytes } from '../codec/history-scan';
import { startNotificationBackend, type NotificationBackend } from '../../../support/notification-backend';
import { harnessPerFile, startHarness } from '../../support/harness';
import { runWithWorker } from '../../support/temporal-env';
import { virtualCard } from '../../support/card-harness';
import type { threeDsRelayStep } from './three-ds-relay.workflow';

jest.setTimeout(120_000);

const SECRET = 'three-ds-workflow-secret-0123456789abcdef';
const h = harnessPerFile(startHarness);
let backend: NotificationBackend;
beforeAll(async () => {
  backend = await startNotificationBackend();
});
afterAll(async () => backend?.close());

it('relays the code and the URL before they expire; no history holds either', async () => {
  const cardNo = await virtualCard(h.provider);
  const store = await openFileUndeliveredStore(await mkdtemp(join(tmpdir(), 'cardflow-3ds-wf-')));
  const activities = createActivities({
    provider: h.provider,
    merchantPrivateKey: h.sandbox.keys.merchant.privateKey,
    notifications: {
      target: { url: backend.url, secrets: [SECRET], format: 'cardflow' },
      deliveryWindowMs: 60_000,
      store,
    },
  });
  await runWithWorker(
    { workflowsPath: require.resolve('./three-ds-relay.workflow'), activities },
    async ({ taskQueue }) => {
      for (const type of ['third_3ds_otp', 'auth_url'] as const) {
        const issued = (await h.sandbox.engine.helpers.issue3ds!({ cardNo, type, amount: '9.99' })) as {
          tradeNo: string;
          value: string;
        };
        const workflowId = `card-3ds-${randomUUID().slice(0, 8)}`;
        const result = await h.client.workflow.execute<typeof threeDsRelayStep>('threeDsRelayStep', {
          taskQueue,
          workflowId,
          args: [{ cardNo, tradeNo: issued.tradeNo }],
        });
        expect(result).toMatchObject({ delivered: true, eventId: `evt_3ds_${issued.tradeNo}` });
        const [event] = backend.delivered(SECRET).filter((e) => e.id === `evt_3ds_${issued.tradeNo}`);
        expect(event).toMatchObject({ type: NotificationTypes.cardThreeDs, workflowId });
        expect(JSON.stringify(event!.data)).toContain(issued.value);
        expect(Date.parse((event!.data as { expiresAt: string }).expiresAt)).toBeGreaterThan(Date.now());

        // The history as the server keeps it: the record's id is there (the scan sees payloads),
        // its value is not.
        const bytes = await exportHistoryBytes(h.client, workflowId);
        expect(bytes.includes(issued.tradeNo)).toBe(true);
        expect(bytes.includes(issued.value)).toBe(false);
      }
    },
  );
});

/**
 * A notification in flight on a worker that dies is delivered by another worker with the same
 * event id: real worker processes (`workers/main.ts`, configured by CARDFLOW_NOTIFY_* as deployed),
 * the backend (test/support/notification-backend.ts) holding the first delivery unanswered while
 * worker A is killed; worker B takes the retry after the delivery's heartbeat timeout. The backend
 * sees the event twice at most, always under one id, and the second copy verifies.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { NotificationTypes } from '../../../domain/notifications';
import { WorkflowTypes } from '../../../domain/workflows';
import { startNotificationBackend, type NotificationBackend } from '../../support/notification-backend';
import { FAST_WAIT, startCardHarness, workerProcessEnv, type CardHarness } from '../support/card-harness';
import { encryptingClient } from '../support/harness';
import { testCodecKeys } from '../support/temporal-env';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';

// Worker start-ups (each bundles the workflows) on a shared machine.
jest.setTimeout(300_000);

const SECRET = 'notify-kill-secret-0123456789abcdef01234';
const codecKeys = testCodecKeys('notify-kill');
const run = randomBytes(3).toString('hex');

let h: CardHarness;
let client: Client;
let backend: NotificationBackend;
let dataDir: string;
const workers: WorkerProcess[] = [];

async function workerProcess(): Promise<WorkerProcess> {
  const worker = startWorkerProcess({
    ...workerProcessEnv(h, {
      providerUrl: h.sandbox.env.CARDFLOW_PROVIDER_BASE_URL!,
      taskQueue: h.taskQueue,
      codecKeys,
    }),
    CARDFLOW_NOTIFY_URL: backend.url,
    CARDFLOW_NOTIFY_SECRET: SECRET,
    CARDFLOW_NOTIFY_DATA_DIR: dataDir,
  });
  workers.push(worker);
  await worker.polling(200_000);
  return worker;
}

beforeAll(async () => {
  h = await startCardHarness();
  client = encryptingClient(h, codecKeys);
  backend = await startNotificationBackend();
  dataDir = await mkdtemp(join(tmpdir(), 'cardflow-notify-kill-'));
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await backend?.close();
  await h?.stop();
});

it('a delivery in flight on a killed worker is delivered by another, under the same event id', async () => {
  const accounts = await h.provider.getAccountInfo();
  const wallet = accounts.find((a) => a.accountType === 'WALLET' && a.currency === 'USD')!;
  const margin = (await h.provider.createSharedAccount({ accountName: `Kill ${run}` })).accountId;
  const a = await workerProcess();
  const held = backend.holdNext((body) => body.includes(NotificationTypes.transferCompleted));
  const transfer = await client.workflow.start(WorkflowTypes.fundTransfer, {
    taskQueue: h.taskQueue,
    workflowId: `notify-kill-${run}`,
    args: [
      { type: 'TRANSFER', amount: '3', payerAccountId: wallet.accountId, payeeAccountId: margin, wait: FAST_WAIT },
    ],
  });
  const first = await held;
  // B polls while A sits in the delivery; then A dies with the request unanswered.
  const b = await workerProcess();
  await a.stop('SIGKILL');
  await transfer.result();

  const heldId = (JSON.parse(first.body) as { id: string }).id;
  const delivered = backend.delivered(SECRET).filter((e) => e.workflowId === transfer.workflowId);
  expect(delivered.map((e) => e.type)).toEqual([NotificationTypes.transferCompleted]);
  expect(delivered[0]!.id).toBe(heldId);
  // Every copy the backend saw is the same event.
  const copies = backend.received.filter((r) => r.body.includes(transfer.workflowId));
  expect(new Set(copies.map((r) => (JSON.parse(r.body) as { id: string }).id))).toEqual(new Set([heldId]));
  expect(copies.length).toBe(2);
  await b.stop('SIGTERM');
});

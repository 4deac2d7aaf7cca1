/**
 * Replays the saved histories (test/fixtures/histories/*.json) against the current workflow
 * code. With CARDFLOW_SAVE_HISTORIES=1 it first runs representative onboardings on the dev
 * server and the sandbox and saves their histories (parents and children).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import { correctCardholderUpdate, cardholderStatusQuery } from '../../domain/cardholder-onboarding';
import { onboardingStartAttributes } from '../../domain/start-attributes';
import { cardholderWorkflowId, childWorkflowId, onboardingWorkflowId } from '../../domain/workflow-ids';
import { WorkflowTypes } from '../../domain/workflow-types';
import { CARD_TYPES, FAST_WAIT, customerRef, startHarness, workflowBundle } from './workflows/harness';
import { b2bHolder, uniqueEmail } from './workflows/holders';

jest.setTimeout(180_000);

const DIR = join(__dirname, '../fixtures/histories');

async function save(name: string, handle: WorkflowHandle): Promise<void> {
  const history = await handle.fetchHistory();
  const json = temporal.api.history.v1.History.toObject(temporal.api.history.v1.History.fromObject(history), { longs: String, enums: String, bytes: String });
  // The workflow id is part of what the code reads (derived ids and merchantOrderNos): keep it.
  writeFileSync(join(DIR, `${name}.json`), `${JSON.stringify({ workflowId: handle.workflowId, history: json }, null, 1)}\n`);
}

async function saveHistories(): Promise<void> {
  const h = await startHarness();
  try {
    await h.withWorker(async () => {
      const start = (ref: string, args: Record<string, unknown>) =>
        h.client.workflow.start(WorkflowTypes.customerOnboarding, {
          workflowId: onboardingWorkflowId(ref),
          taskQueue: h.taskQueue,
          args: [{ customerRef: ref, wait: FAST_WAIT, ...args }],
          typedSearchAttributes: onboardingStartAttributes(ref),
        });
      const happy = customerRef('replay-happy');
      const a = await start(happy, { cardTypeId: CARD_TYPES.b2bWithDeposit, holder: b2bHolder(uniqueEmail('replay')), initialDeposit: '100' });
      const later = customerRef('replay-deposit');
      const b = await start(later, { cardTypeId: CARD_TYPES.noHolderNoDeposit, initialDeposit: '50' });
      const rejected = customerRef('replay-reject');
      const c = await start(rejected, { cardTypeId: CARD_TYPES.b2bWithDeposit, holder: b2bHolder(uniqueEmail('reject.admin')), initialDeposit: '20' });
      const child = h.client.workflow.getHandle(cardholderWorkflowId(rejected));
      for (;;) {
        const status = await child.query(cardholderStatusQuery).catch(() => undefined);
        if (status?.stage === 'awaiting_correction') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await child.executeUpdate(correctCardholderUpdate, { args: [{ holder: b2bHolder(uniqueEmail('corrected')) }] });
      await Promise.all([a.result(), b.result(), c.result()]);
      await save('onboarding-with-holder', a);
      await save('onboarding-with-holder.cardholder', h.client.workflow.getHandle(childWorkflowId(a.workflowId, 'cardholder')));
      await save('onboarding-with-holder.card', h.client.workflow.getHandle(childWorkflowId(a.workflowId, 'card')));
      await save('onboarding-deposit-after-creation', b);
      await save('onboarding-deposit-after-creation.card', h.client.workflow.getHandle(childWorkflowId(b.workflowId, 'card')));
      await save('onboarding-deposit-after-creation.deposit', h.client.workflow.getHandle(childWorkflowId(b.workflowId, 'deposit')));
      await save('onboarding-rejected-corrected', c);
      await save('onboarding-rejected-corrected.cardholder', child);
    });
  } finally {
    await h.stop();
  }
}

it('replays every saved history without a determinism error', async () => {
  if (process.env.CARDFLOW_SAVE_HISTORIES) await saveHistories();
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
  expect(files.length).toBeGreaterThanOrEqual(8);
  const histories = files.map((file) => {
    const saved = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { workflowId: string; history: object };
    return { workflowId: saved.workflowId, history: temporal.api.history.v1.History.fromObject(saved.history) };
  });
  const failures: string[] = [];
  for await (const result of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) {
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  expect(failures).toEqual([]);
});

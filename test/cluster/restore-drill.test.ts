/**
 * The restore drill of docs/production.md ("Backup and restore"), on the production topology:
 * onboardings are in flight (parked in the cardholder review) when PostgreSQL is backed up
 * (`pg_basebackup`: Temporal's database, its visibility store and cardflow's own, as of one
 * instant). Half of them are then decided and complete: their holders pass review, their cards
 * are created and funded. Then the database is destroyed and the backup restored into a fresh data
 * directory, and the Temporal hosts start again on it: to Temporal, those onboardings are back in
 * review, though the provider already made their cards. The other half are decided after the
 * restore.
 *
 * What closes the gap since the backup: every wait also polls the provider, a reconciliation run
 * re-delivers what it finds, and every mutation is sent again under the merchantOrderNo it was
 * sent with before, which the provider answers with what it made the first time. So every
 * onboarding completes exactly once: one holder, one card and one deposit each, the same card
 * for those finished before the restore, and no merchantOrderNo committed twice.
 */
import { runReconciliation } from '../../client/reconciliation';
import type { OnboardingResult } from '../../domain/customer-onboarding';
import { cardholderStatusQuery } from '../../domain/cardholder-onboarding';
import { cardholderWorkflowId, onboardingWorkflowId } from '../../domain/workflow-ids';
import {
  CARD_TYPES,
  FAST_WAIT,
  cardholdersByEmail,
  customerRef,
  startOnboardingWorkflow,
} from '../integration/support/harness';
import { b2bHolder, uniqueEmail } from '../integration/support/holders';
import { controlDrill } from './support/control';
import { type ClusterWorld, startClusterWorld, until } from './support/world';

/**
 * Onboardings in flight at the backup: the first half finish before the restore, the rest after it.
 */
const IN_FLIGHT = 6;

let w: ClusterWorld;
beforeAll(async () => {
  w = await startClusterWorld({ label: 'restore' });
});
afterAll(async () => w?.stop());

interface Customer {
  ref: string;
  email: string;
  holderId?: string;
}

/** Both review stages (platform, then bank) pass for `holderId`. */
function passReview(holderId: string): void {
  for (let stage = 0; stage < 2; stage += 1) {
    const holder = w.helper('decideCardholderReview', { holderId, outcome: 'pass' }) as { status?: string };
    if (holder.status === 'pass_audit') return;
  }
  throw new Error(`cardholder ${holderId} did not reach pass_audit`);
}

async function result(c: Customer): Promise<OnboardingResult> {
  // A fresh handle each time: results are read again after the restore.
  return (await w.client.workflow.getHandle(onboardingWorkflowId(c.ref)).result()) as OnboardingResult;
}

it('a backup taken with onboardings in flight, restored over destroyed data: every onboarding completes exactly once', async () => {
  const customers: Customer[] = Array.from({ length: IN_FLIGHT }, (_, i) => ({
    ref: customerRef(`restore-${i}`),
    email: uniqueEmail('review.stall'),
  }));
  for (const c of customers) {
    await startOnboardingWorkflow(w, {
      customerRef: c.ref,
      cardTypeId: CARD_TYPES.b2bWithDeposit,
      holder: b2bHolder(c.email),
      initialDeposit: '40',
      wait: FAST_WAIT,
    });
  }
  // All parked in review, their holders created at the provider.
  for (const c of customers) {
    const status = await until(
      () => w.client.workflow.getHandle(cardholderWorkflowId(c.ref)).query(cardholderStatusQuery),
      (s) => s.stage === 'in_review' && s.holderId !== undefined,
    );
    c.holderId = status.holderId!;
  }

  const backup = await controlDrill('/backup/postgresql');

  // After the backup: the first half pass review and complete (card created and funded).
  const before = customers.slice(0, IN_FLIGHT / 2);
  const after = customers.slice(IN_FLIGHT / 2);
  for (const c of before) passReview(c.holderId!);
  const finishedBefore = await Promise.all(before.map(result));
  const commitsBeforeRestore = w.sandbox.commits().length;

  const restore = await controlDrill('/restore/postgresql');
  const restoredAt = Date.now() - restore.ms;

  // To Temporal the first half are back in review: they are found passed by their probes and the
  // reconciliation, and their steps sent again under the same keys.
  for (const c of after) passReview(c.holderId!);
  await until(
    () => runReconciliation(w.client, {}, { taskQueue: w.taskQueue, workflowId: `reconcile-restore-${Date.now()}` }),
    () => true,
    { timeoutMs: 180_000, pollMs: 2_000 },
  );
  const finished = await until(
    () => Promise.all(customers.map(result)),
    (all) => all.length === IN_FLIGHT,
    { timeoutMs: 300_000, pollMs: 2_000 },
  );
  const completedSecs = Math.round((Date.now() - restoredAt) / 1000);

  // The restore did rewind them: those finished before it completed again after it, with the
  // same card; one holder, one card, one deposit each.
  for (const [i, r] of finishedBefore.entries()) {
    const closed = (await w.client.workflow.getHandle(onboardingWorkflowId(before[i]!.ref)).describe()).closeTime;
    expect(closed!.getTime()).toBeGreaterThan(restoredAt);
    expect(finished[i]!.card.cardNo).toBe(r.card.cardNo);
  }
  for (const [i, c] of customers.entries()) {
    expect(await cardholdersByEmail(w.provider, c.email)).toHaveLength(1);
    expect(finished[i]!.card.initialDeposit).toEqual({ amount: '40.00', fee: '0.60' });
    const cardNo = finished[i]!.card.cardNo;
    expect(w.sandbox.commits({ operation: 'createCard' }).filter((x) => x.refs.cardNo === cardNo)).toHaveLength(1);
  }
  expect(new Set(finished.map((r) => r.card.cardNo)).size).toBe(IN_FLIGHT);
  // No mutation committed twice: every commit of these customers' keys is unique.
  const holderIds = new Set(customers.map((c) => c.holderId!));
  const cardNos = new Set(finished.map((r) => r.card.cardNo));
  const ours = w.sandbox
    .commits()
    .filter((x) => holderIds.has(x.refs.holderId ?? '') || cardNos.has(x.refs.cardNo ?? ''));
  const keys = ours.map((x) => `${x.operation} ${x.refs.merchantOrderNo ?? x.refs.holderId}`);
  const duplicates = keys.filter((k, i) => keys.indexOf(k) !== i);
  expect(duplicates).toEqual([]);

  process.stdout.write(
    `restore drill: ${IN_FLIGHT} onboardings in flight at the backup (${before.length} completed between backup and restore); ` +
      `backup ${(backup.bytes / 1e6).toFixed(1)} MB in ${backup.ms} ms; restore (hosts stopped, data destroyed, restored, hosts up) ` +
      `${restore.ms} ms (stop ${restore.stopMs}, database ${restore.databaseMs}, start ${restore.startMs}); all completed ${completedSecs} s after the restore; provider commits after the restore ` +
      `${w.sandbox.commits().length - commitsBeforeRestore}; duplicates ${duplicates.length}\n`,
  );
});

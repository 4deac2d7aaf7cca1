/**
 * A rollout on the production topology (docs/versioning.md), with real worker processes: 100
 * onboardings parked in review on build A; build B, whose onboarding does not replay A's
 * histories (test/support/incompatible-build.ts), starts beside A and is made current with the
 * CLI; new onboardings run on B; A's onboardings, approved, complete on A's workers with no
 * nondeterminism and nothing duplicated at the provider; the card entity (AUTO_UPGRADE) moves to
 * B; A drains and its workers stop; a rollback makes A current again for new starts; B, drained
 * and stopped, is retired.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { refreshCard } from '../../client/card-entity';
import { countOpen, describeDeployment, type DeploymentView } from '../../platform/temporal/deployments';
import { createDataConverter } from '../../platform/codec/data-converter';
import { parseKeyList } from '../../platform/codec/keys';
import { bundleCardflowWorkflows } from '../../workers/create-worker';
import { loadHistories, runReplayGate } from '../../workers/replay-gate';
import { buildIdOf } from '../../platform/telemetry/build-id';
import { cardholderStatusQuery } from '../../domain/cardholder-onboarding';
import type { OnboardingResult } from '../../domain/customer-onboarding';
import { cardEntityWorkflowId, cardholderWorkflowId } from '../../domain/workflow-ids';
import type { WorkflowType } from '../../domain/workflows';
import { WORKFLOW_VERSIONING } from '../../domain/workflow-versioning';
import type { ManagedProcess } from '../../tools/scripts/cluster/processes';
import { b2bOnboarding, cardholdersByEmail, startOnboardingWorkflow } from '../integration/support/harness';
import { runCliOn, type CliRun } from '../support/run-cli';
import { b2bHolder, uniqueEmail } from '../integration/support/holders';
import { writeIncompatibleBuild } from '../support/incompatible-build';
import { CLUSTER_ENV, clusterSettings } from './support/control';
import { type ClusterWorld, startClusterWorld, until } from './support/world';

jest.setTimeout(600_000);

const PARKED = 100;
const deploymentName = `rollout-${randomUUID().slice(0, 8)}`;
let w: ClusterWorld;
const started = Date.now();
/** Seconds since the file started, per step, printed at the end (what the rollout costs CI). */
const marks: string[] = [];
const mark = (step: string) => marks.push(`${step} ${Math.round((Date.now() - started) / 1000)} s`);

beforeAll(async () => {
  w = await startClusterWorld({
    label: 'versioning',
    // No reconciliation schedule of its own (it lists visibility when it fires): the visibility
    // queries counted during the burst below are the receivers' alone.
    services: { extraEnv: { CARDFLOW_DEPLOYMENT_NAME: deploymentName, CARDFLOW_RECONCILE_SCHEDULE: '0' } },
  });
});
afterAll(async () => {
  await w?.stop();
  process.stderr.write(
    `versioning rollout test: ${Math.round((Date.now() - started) / 1000)} s (${marks.join(', ')})\n`,
  );
});

async function buildOf(client: Client, workflowId: string): Promise<string | undefined> {
  const { raw } = await client.workflow.getHandle(workflowId).describe();
  return raw.workflowExecutionInfo?.versioningInfo?.deploymentVersion?.buildId ?? undefined;
}

/** Workflow task failures (a nondeterminism error is one) and timers in a history. */
/**
 * The failed workflow tasks of a run, each as `cause: message`, and its timers. A signal that
 * lands while the task completing the run is in flight fails that task with UNHANDLED_COMMAND and
 * the server hands the signal to a new task: Temporal's ordering, not a replay problem, so it is
 * not listed. Any other cause (a nondeterminism error above all) is, with its message.
 */
async function historyFacts(handle: WorkflowHandle): Promise<{ taskFailures: string[]; timers: number }> {
  const events = (await handle.fetchHistory()).events ?? [];
  const { WorkflowTaskFailedCause } = temporal.api.enums.v1;
  return {
    taskFailures: events
      .map((e) => e.workflowTaskFailedEventAttributes)
      .filter((f) => f && f.cause !== WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND)
      .map((f) => `${WorkflowTaskFailedCause[f?.cause ?? 0]}: ${f?.failure?.message ?? ''}`),
    timers: events.filter((e) => e.timerStartedEventAttributes).length,
  };
}

function cli(...args: string[]): Promise<CliRun> {
  // The rollout's routing changes run with the workers' credentials, as docs/production.md runs
  // them.
  return runCliOn({ client: w.workerClient, namespace: clusterSettings().namespace }, args, {
    env: { CARDFLOW_DEPLOYMENT_NAME: deploymentName },
  });
}

function pass(holderId: string): void {
  for (let stage = 0; stage < 2; stage += 1) {
    const holder = w.helper('decideCardholderReview', { holderId, outcome: 'pass' }) as { status?: string };
    if (holder.status === 'pass_audit') return;
  }
  throw new Error(`cardholder ${holderId} review did not reach pass_audit`);
}

/** Visibility list queries the Temporal hosts have served so far (their own metrics, summed). */
async function visibilityLists(): Promise<number> {
  const targets = (process.env[CLUSTER_ENV.temporalMetrics] ?? '').split(',').filter(Boolean);
  expect(targets.length).toBeGreaterThan(0);
  let total = 0;
  for (const target of targets) {
    const text = await (await fetch(`http://${target}/metrics`)).text();
    for (const line of text.split('\n'))
      if (
        line.startsWith('visibility_persistence_latency_count{') &&
        line.includes('operation="ListWorkflowExecutions"')
      )
        total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

async function view(): Promise<DeploymentView> {
  return describeDeployment(w.client, deploymentName);
}

it('rolls out an incompatible build B beside A: A’s parked onboardings finish on A, new ones on B, the card entity moves, A drains, rollback, B retired', async () => {
  // A: the world's two workers, made current by the first of them (a fresh deployment).
  const a = await until(view, (v) => v.current !== undefined, { timeoutMs: 60_000 });
  const buildA = a.current!;
  mark('A current');
  const workersA = [...w.services.workers];

  // One onboarding through to its card, whose entity starts on A.
  const first = await startOnboardingWorkflow(w, b2bOnboarding('rollout-first'));
  const firstResult = (await first.result()) as OnboardingResult;
  const cardNo = firstResult.card.cardNo;
  await refreshCard(w.client, cardNo, { taskQueue: w.taskQueue });
  expect(await buildOf(w.client, cardEntityWorkflowId(cardNo))).toBe(buildA);

  // 100 onboardings parked in review on A.
  const parked = await Promise.all(
    Array.from({ length: PARKED }, async (_, i) => {
      const input = { ...b2bOnboarding(`rollout-parked-${i}`), holder: b2bHolder(uniqueEmail('review.stall')) };
      return { input, handle: await startOnboardingWorkflow(w, input) };
    }),
  );
  // Parked once the provider holds each cardholder in review (read from the provider, one at a
  // time: a hundred query loops at once would starve the workers and the in-process sandbox).
  const holderIds: string[] = [];
  for (const { input } of parked) {
    const email = (input.holder as { email: string }).email;
    const [holder] = await until(
      () => cardholdersByEmail(w.provider, email),
      (found) => found.length === 1,
      { timeoutMs: 180_000, pollMs: 1_000 },
    );
    holderIds.push(String(holder!.holderId));
  }
  for (const { input } of parked.slice(0, 5))
    await until(
      () => w.client.workflow.getHandle(cardholderWorkflowId(input.customerRef)).query(cardholderStatusQuery),
      (status) => status.stage === 'in_review',
      { timeoutMs: 60_000, pollMs: 1_000 },
    );
  expect(await countOpen(w.client, deploymentName, buildA)).toBeGreaterThanOrEqual(2 * PARKED);
  mark('parked');

  // B: two more worker processes running the incompatible bundle; made current with the CLI.
  const b = await writeIncompatibleBuild();
  const workersB: ManagedProcess[] = [];
  for (let i = 0; i < 2; i++) workersB.push(await w.services.addWorker({ CARDFLOW_WORKFLOW_BUNDLE: b.file }));
  const withB = await until(view, (v) => v.versions.length === 2, { timeoutMs: 60_000 });
  expect(withB.current).toBe(buildA);
  const buildB = withB.versions.find((v) => v.buildId !== buildA)!.buildId;
  // Refused (exit 1, saying why) until B's workers registered both of A's task queues.
  await until(
    () => cli('deployment', 'set-current', '--build-id', buildB),
    (r) => r.code === 0,
    { timeoutMs: 30_000, pollMs: 1_000 },
  );
  mark('B current');

  // New onboardings run B's code.
  const fresh = await Promise.all(
    Array.from({ length: 5 }, (_, i) => startOnboardingWorkflow(w, b2bOnboarding(`rollout-b-${i}`))),
  );
  await Promise.all(fresh.map((handle) => handle.result()));
  for (const handle of fresh) {
    expect(await buildOf(w.client, handle.workflowId)).toBe(buildB);
    expect((await historyFacts(handle)).timers).toBe(1);
  }

  // A's onboardings, approved now, complete on A: no nondeterminism, nothing twice at the provider.
  // A burst of 100 approvals on the server's default visibility rate
  // (tools/deploy/temporal/dynamic-config.yaml raises none): the receivers find each webhook's
  // workflows by their routes and the card's by its derived id, and ask visibility nothing (by
  // search attribute it took at least one query per delivery, two or more deliveries per
  // onboarding).
  const listsBefore = await visibilityLists();
  for (const holderId of holderIds) pass(holderId);
  const results = (await Promise.all(parked.map(({ handle }) => handle.result()))) as OnboardingResult[];
  const burstLists = (await visibilityLists()) - listsBefore;
  process.stderr.write(`visibility list queries during the burst of ${PARKED} approvals: ${burstLists}\n`);
  expect(burstLists).toBe(0);
  for (const { handle } of parked) {
    expect(await buildOf(w.client, handle.workflowId)).toBe(buildA);
    expect(await historyFacts(handle)).toEqual({ taskFailures: [], timers: 0 });
  }
  const cards = new Set(results.map((r) => r.card.cardNo));
  expect(cards.size).toBe(PARKED);
  const creates = w.sandbox.commits({ operation: 'createCard' }).filter((c) => cards.has(String(c.refs.cardNo)));
  expect(creates).toHaveLength(PARKED);
  expect(new Set(results.map((r) => r.cardholder?.holderId)).size).toBe(PARKED);
  mark('A onboardings done');

  // The replay gate on live histories: A's, exported raw (payloads still encrypted), replay on
  // A's bundle (the one the workers built, by its build id) and fail on B's as PINNED findings.
  const out = await mkdtemp(path.join(tmpdir(), 'cardflow-histories-'));
  const exported = await cli('histories', 'export', '--out', out, '--build-id', buildA, '--limit', '30', '--json');
  expect(exported).toMatchObject({ code: 0, err: '' });
  const { files } = JSON.parse(exported.out) as { files: string[] };
  expect(files).toHaveLength(30);
  expect(await readFile(files[0]!, 'utf8')).toContain(Buffer.from('binary/encrypted').toString('base64'));
  const bundleA = await bundleCardflowWorkflows({ withFailureConverter: true });
  expect(buildIdOf(bundleA.code)).toBe(buildA);
  const live = await loadHistories([out]);
  const dataConverter = createDataConverter(parseKeyList(w.codecKeys));
  expect((await runReplayGate(bundleA, live, { dataConverter })).failures).toEqual([]);
  // On B, A's pinned runs are listed as A's (they finish there) and neither replayed nor counted;
  // a card entity (AUTO_UPGRADE) moves to B, so it is replayed there, and B left it unchanged.
  const onB = await runReplayGate({ code: b.code }, live, { dataConverter });
  expect(onB.failures).toEqual([]);
  const pinned = live.filter((h) => WORKFLOW_VERSIONING[h.workflowType as WorkflowType] !== 'AUTO_UPGRADE');
  expect(onB.pinnedElsewhere.map((p) => p.workflowId).sort()).toEqual(pinned.map((h) => h.workflowId).sort());
  expect(new Set(onB.pinnedElsewhere.map((p) => p.buildId))).toEqual(new Set([buildA]));
  expect(onB.replayed).toBe(live.length - pinned.length);
  mark('replay gate');

  // The card entity (AUTO_UPGRADE) moves to B at its next task, and replays there.
  await refreshCard(w.client, cardNo, { taskQueue: w.taskQueue });
  expect(await buildOf(w.client, cardEntityWorkflowId(cardNo))).toBe(buildB);
  expect((await historyFacts(w.client.workflow.getHandle(cardEntityWorkflowId(cardNo)))).taskFailures).toEqual([]);

  // A drains (nothing open on it, and the server agrees), then its workers stop.
  expect(await countOpen(w.client, deploymentName, buildA)).toBe(0);
  await until(view, (v) => v.versions.find((x) => x.buildId === buildA)?.drainage === 'drained', {
    timeoutMs: 120_000,
  });
  await Promise.all(workersA.map((p) => p.stop()));
  mark('A drained and stopped');

  // Rollback: A current again for new starts, on A workers started again.
  const back = await cli('deployment', 'rollback');
  expect(back).toMatchObject({ code: 0 });
  expect(back.out).toContain(buildA);
  await w.services.addWorker();
  const again = await startOnboardingWorkflow(w, b2bOnboarding('rollout-again'));
  await again.result();
  expect(await buildOf(w.client, again.workflowId)).toBe(buildA);
  expect((await historyFacts(again)).timers).toBe(0);

  // B retired once drained and stopped (the entity follows the current version back to A first).
  await refreshCard(w.client, cardNo, { taskQueue: w.taskQueue });
  expect(await buildOf(w.client, cardEntityWorkflowId(cardNo))).toBe(buildA);
  await Promise.all(workersB.map((p) => p.stop()));
  const retired = await until(
    () => cli('deployment', 'retire', '--build-id', buildB),
    (r) => r.code === 0,
    { timeoutMs: 120_000, pollMs: 2_000 },
  );
  expect(retired.out).toContain('retired');
  expect((await view()).versions.map((v) => v.buildId)).toEqual([buildA]);
  mark('B retired');
});

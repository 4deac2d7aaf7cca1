/**
 * Worker Deployments on the dev server, the path `npm start` runs (workers/versioning.ts,
 * docs/versioning.md): an onboarding left open by an unversioned worker moves to the first
 * version; onboardings parked in review on build A finish on A after build B, whose onboarding
 * does not replay A's histories, became current; new onboardings run on B; the card's entity
 * (AUTO_UPGRADE) moves to B; the CLI lists versions, refuses to retire A while it is open, and
 * rolls new starts back to A. The cluster tier runs the same rollout with worker processes
 * (test/cluster/versioning.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, type WorkflowHandle } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { refreshCard } from '../../../client/card-entity';
import { countOpen, describeDeployment, type DeploymentView } from '../../../platform/temporal/deployments';
import { runCliOn, type CliRun } from '../../support/run-cli';
import { cardholderStatusQuery } from '../../../domain/cardholder-onboarding';
import type { OnboardingResult } from '../../../domain/customer-onboarding';
import { cardEntityWorkflowId, cardholderWorkflowId } from '../../../domain/workflow-ids';
import type { CardflowWorker } from '../../../workers/cardflow-worker';
import { createWorker } from '../../../workers/create-worker';
import { bootstrapCurrentVersion } from '../../../workers/versioning';
import { buildIdOf } from '../../../platform/telemetry/build-id';
import { writeIncompatibleBuild } from '../../support/incompatible-build';
import { until } from '../../support/until';
import {
  b2bOnboarding,
  customerRef,
  type Harness,
  passReview,
  startHarness,
  startOnboardingWorkflow,
  workflowBundle,
} from '../support/harness';
import { connectTestNativeConnection, TEST_MAX_CACHED_WORKFLOWS, testTemporalServer } from '../support/temporal-env';

jest.setTimeout(300_000);

const deploymentName = `versioning-${randomUUID().slice(0, 8)}`;
let h: Harness;
let connection: NativeConnection;
const running: Array<{ worker: CardflowWorker; run: Promise<void> }> = [];

beforeAll(async () => {
  h = await startHarness();
  connection = await connectTestNativeConnection();
});
afterAll(async () => {
  for (const { worker, run } of running) {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await run.catch(() => undefined);
  }
  await connection?.close();
  await h?.stop();
});

async function startWorker(code: string | undefined): Promise<CardflowWorker> {
  const worker = await createWorker({
    connection,
    namespace: testTemporalServer().namespace,
    taskQueue: h.taskQueue,
    activityDeps: { provider: h.provider, routes: h.routes },
    workflowBundle: { code: code ?? (await workflowBundle()).code },
    workerOptions: { maxCachedWorkflows: TEST_MAX_CACHED_WORKFLOWS },
    ...(code === undefined ? {} : { versioning: { deploymentName } }),
  });
  running.push({ worker, run: worker.run() });
  return worker;
}

async function stopWorker(worker: CardflowWorker): Promise<void> {
  worker.shutdown();
  await running.find((r) => r.worker === worker)!.run;
}

/** The build a workflow's last task ran on, as the server records it. */
async function buildOf(client: Client, workflowId: string): Promise<string | undefined> {
  const { raw } = await client.workflow.getHandle(workflowId).describe();
  return raw.workflowExecutionInfo?.versioningInfo?.deploymentVersion?.buildId ?? undefined;
}

/** The versioning behavior the server holds for a workflow (1 pinned, 2 auto-upgrade). */
async function behaviorOf(client: Client, workflowId: string): Promise<number | null | undefined> {
  const { raw } = await client.workflow.getHandle(workflowId).describe();
  return raw.workflowExecutionInfo?.versioningInfo?.behavior;
}
const PINNED = 1;
const AUTO_UPGRADE = 2;

async function taskFailures(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.workflowTaskFailedEventAttributes)
    .map((e) => e.workflowTaskFailedEventAttributes?.failure?.message ?? 'workflow task failed');
}

/** Runs `cardflow <args>` against the harness's client; returns exit code and output. */
function cli(...args: string[]): Promise<CliRun> {
  return runCliOn({ client: h.client, namespace: testTemporalServer().namespace }, args, {
    env: { CARDFLOW_DEPLOYMENT_NAME: deploymentName },
  });
}

async function parkInReview(label: string): Promise<{ handle: WorkflowHandle; ref: string; holderId: string }> {
  const ref = customerRef(label);
  const handle = await startOnboardingWorkflow(h, b2bOnboarding('review.stall', { customerRef: ref }));
  const status = await until(
    () => h.client.workflow.getHandle(cardholderWorkflowId(ref)).query(cardholderStatusQuery),
    (s) => s.stage === 'in_review' && s.holderId !== undefined,
    { timeoutMs: 60_000 },
  );
  return { handle, ref, holderId: status.holderId! };
}

it('moves an unversioned onboarding to the first version, keeps A’s onboardings on A after B became current, moves the card entity to B, and rolls back', async () => {
  // An onboarding left open by an unversioned worker, as on the day versioning ships.
  const unversioned = await startWorker(undefined);
  const legacy = await parkInReview('legacy');
  await stopWorker(unversioned);

  // Build A, the same workflow code, polls as a version; the dev-server path makes it current.
  const codeA = (await workflowBundle()).code;
  const buildA = buildIdOf(codeA);
  await startWorker(codeA);
  const boot = await bootstrapCurrentVersion(connection, {
    namespace: testTemporalServer().namespace,
    version: { deploymentName, buildId: buildA },
    identity: 'test',
    mode: 'always',
  });
  expect(boot).toEqual({ outcome: 'made-current', current: buildA });
  passReview(h, legacy.holderId);
  const legacyResult = (await legacy.handle.result()) as OnboardingResult;
  expect(await buildOf(h.client, legacy.handle.workflowId)).toBe(buildA);
  // Its first task ran unversioned, so it declares no behavior and takes the worker's default.
  expect(await behaviorOf(h.client, legacy.handle.workflowId)).toBe(PINNED);
  expect(await taskFailures(legacy.handle)).toEqual([]);

  // Onboardings parked in review on A, and the card's entity started on A.
  const parked = await Promise.all(['a-1', 'a-2', 'a-3'].map((label) => parkInReview(label)));
  for (const p of parked) {
    expect(await buildOf(h.client, p.handle.workflowId)).toBe(buildA);
    expect(await behaviorOf(h.client, p.handle.workflowId)).toBe(PINNED);
    expect(await behaviorOf(h.client, cardholderWorkflowId(p.ref))).toBe(PINNED);
  }
  const cardNo = legacyResult.card.cardNo;
  await refreshCard(h.client, cardNo, { taskQueue: h.taskQueue });
  expect(await buildOf(h.client, cardEntityWorkflowId(cardNo))).toBe(buildA);
  expect(await behaviorOf(h.client, cardEntityWorkflowId(cardNo))).toBe(AUTO_UPGRADE);

  // Build B: its onboarding schedules a timer first, so it cannot replay A's histories.
  const b = await writeIncompatibleBuild();
  const buildB = buildIdOf(b.code);
  expect(buildB).not.toBe(buildA);
  await startWorker(b.code);
  await until(
    () => describeDeployment(h.client, deploymentName),
    (view: DeploymentView) => view.versions.some((v) => v.buildId === buildB),
    { timeoutMs: 30_000 },
  );
  // Refused (exit 1, saying why) until B's workers registered both of A's task queues.
  await until(
    () => cli('deployment', 'set-current', '--build-id', buildB),
    (r) => r.code === 0,
    { timeoutMs: 30_000, pollMs: 1_000 },
  );

  // New onboardings run B's code.
  const fresh = await startOnboardingWorkflow(h, b2bOnboarding('b-new'));
  await fresh.result();
  expect(await buildOf(h.client, fresh.workflowId)).toBe(buildB);
  const freshEvents = (await fresh.fetchHistory()).events ?? [];
  expect(freshEvents.some((e) => e.timerStartedEventAttributes)).toBe(true);

  // A is listed with its open onboardings, and cannot be retired while they are open.
  const listed = await cli('deployment', 'list', '--json');
  expect(listed.code).toBe(0);
  const view = JSON.parse(listed.out) as DeploymentView;
  expect(view.current).toBe(buildB);
  expect(view.versions.find((v) => v.buildId === buildA)?.openWorkflows).toBeGreaterThanOrEqual(parked.length);
  const retire = await cli('deployment', 'retire', '--build-id', buildA);
  expect(retire.code).toBe(1);
  expect(retire.err).toMatch(/open pinned workflows/);

  // A's onboardings, approved now, finish on A: no nondeterminism, one holder and one card each.
  for (const p of parked) passReview(h, p.holderId);
  const results = (await Promise.all(parked.map((p) => p.handle.result()))) as OnboardingResult[];
  for (const p of parked) {
    expect(await buildOf(h.client, p.handle.workflowId)).toBe(buildA);
    expect(await taskFailures(p.handle)).toEqual([]);
    const events = (await p.handle.fetchHistory()).events ?? [];
    expect(events.some((e) => e.timerStartedEventAttributes)).toBe(false);
  }
  for (const r of results) {
    expect(h.sandbox.commits({ operation: 'createCard' }).filter((c) => c.refs.cardNo === r.card.cardNo)).toHaveLength(
      1,
    );
  }
  expect(new Set(results.map((r) => r.cardholder?.holderId)).size).toBe(parked.length);
  // A's histories for the replay gate, exported by a client without a codec: listed and fetched
  // raw, one file per run (the cluster tier checks that the payloads stay encrypted).
  const keyless = new Client({ connection: h.client.connection, namespace: testTemporalServer().namespace });
  const out = await mkdtemp(path.join(tmpdir(), 'cardflow-histories-'));
  const exported = await runCliOn(
    { client: keyless, namespace: testTemporalServer().namespace },
    ['histories', 'export', '--out', out, '--build-id', buildA, '--json'],
    { env: { CARDFLOW_DEPLOYMENT_NAME: deploymentName } },
  );
  expect(exported).toMatchObject({ code: 0, err: '' });
  const { files } = JSON.parse(exported.out) as { files: string[] };
  expect(new Set(files).size).toBe(files.length);
  const exportedIds = await Promise.all(
    files.map(async (file) => (JSON.parse(await readFile(file, 'utf8')) as { workflowId: string }).workflowId),
  );
  expect(exportedIds).toEqual(expect.arrayContaining(parked.map((p) => p.handle.workflowId)));
  await until(
    () => countOpen(h.client, deploymentName, buildA),
    (n) => n === 1, // the card entity, until it moves
    { timeoutMs: 30_000 },
  );

  // The card entity (AUTO_UPGRADE) moves to B at its next task.
  await refreshCard(h.client, cardNo, { taskQueue: h.taskQueue });
  expect(await buildOf(h.client, cardEntityWorkflowId(cardNo))).toBe(buildB);
  expect(await taskFailures(h.client.workflow.getHandle(cardEntityWorkflowId(cardNo)))).toEqual([]);

  // Rollback: A takes new starts again.
  const back = await cli('deployment', 'rollback');
  expect(back).toMatchObject({ code: 0 });
  expect(back.out).toContain(buildA);
  const again = await startOnboardingWorkflow(h, b2bOnboarding('a-again'));
  await again.result();
  expect(await buildOf(h.client, again.workflowId)).toBe(buildA);
});

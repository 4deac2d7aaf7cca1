/**
 * Clients retry through a Temporal restart (platform/temporal/unavailable-retry.ts) on the
 * production topology. With the frontend down, `cardflow onboard` says what it waits for and where,
 * and starts the onboarding once the frontend is back; with a retry window shorter than the outage
 * it exits 4 having started nothing. `startOnboarding` called while PostgreSQL restarts (when
 * Temporal answered "Namespace not found") starts the onboarding, which completes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli } from '../../client/cli/main';
import { ExitCodes } from '../../client/cli/context';
import { startOnboarding } from '../../client/onboarding';
import type { OnboardingResult } from '../../domain/customer-onboarding';
import { onboardingWorkflowId } from '../../domain/workflow-ids';
import { CARD_TYPES, FAST_WAIT, customerRef } from '../integration/support/harness';
import { temporalCallerEnv } from '../../tools/scripts/cluster/temporal-auth';
import { clusterSettings, control } from './support/control';
import { type ClusterWorld, startClusterWorld } from './support/world';

let w: ClusterWorld;
let dir: string;
beforeAll(async () => {
  w = await startClusterWorld({ label: 'temporal-outage' });
  dir = mkdtempSync(path.join(tmpdir(), 'cardflow-temporal-outage-'));
});
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `cardflow onboard` in this process, configured from its environment as an operator's shell would
 * be.
 */
async function onboard(ref: string, env: Record<string, string> = {}) {
  const file = path.join(dir, `${ref}.json`);
  writeFileSync(file, JSON.stringify({ customerRef: ref, cardTypeId: CARD_TYPES.noHolderNoDeposit, wait: FAST_WAIT }));
  const cluster = clusterSettings();
  const { address, namespace } = cluster;
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['onboard', '--file', file], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: {
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: namespace,
      ...temporalCallerEnv(cluster, 'operator'),
      CARDFLOW_CODEC_KEYS: w.codecKeys,
      CARDFLOW_TASK_QUEUE: w.taskQueue,
      ...env,
    },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const plain = (ref: string) => ({ customerRef: ref, cardTypeId: CARD_TYPES.noHolderNoDeposit, wait: FAST_WAIT });

it('cardflow onboard waits for a frontend that is down, says so, and starts once it is back', async () => {
  const { address } = clusterSettings();
  const ref = customerRef('outage-cli');
  await control('/kill/frontend');
  const running = onboard(ref);
  // Longer than the connection's own 10 s connect deadline: the first try fails, the retry window
  // waits.
  await sleep(15_000);
  await control('/start/frontend');
  const { code, out, err } = await running;

  expect({ code, out }).toMatchObject({ code: ExitCodes.done, out: expect.stringMatching(/^started: onboarding-/) });
  expect(err).toMatch(
    new RegExp(`Temporal at ${address.replace(/[.]/g, '\\.')} unavailable \\(.*\\), retrying for up to 60 s`),
  );
  const result = (await w.client.workflow.getHandle(onboardingWorkflowId(ref)).result()) as OnboardingResult;
  expect(result.card.cardNo).toBeTruthy();
});

it('exits 4 naming the address when Temporal does not come back within the retry window, starting nothing', async () => {
  const { address } = clusterSettings();
  const ref = customerRef('outage-gone');
  await control('/kill/frontend');
  try {
    const { code, err } = await onboard(ref, { CARDFLOW_TEMPORAL_RIDE_OUT_MS: '3000' });
    expect(code).toBe(ExitCodes.unavailable);
    expect(err).toContain(`Temporal at ${address} unavailable for`);
  } finally {
    await control('/start/frontend');
  }
  const described = await w.client.workflow
    .getHandle(onboardingWorkflowId(ref))
    .describe()
    .catch((e: Error) => e);
  expect(described).toMatchObject({ name: 'WorkflowNotFoundError' });
});

it('startOnboarding retries through a PostgreSQL restart and the onboarding completes', async () => {
  const waits: string[] = [];
  const ref = customerRef('outage-pg');
  const restart = control('/restart/postgresql');
  await sleep(300);
  const started = await startOnboarding(w.client, plain(ref), {
    taskQueue: w.taskQueue,
    whileUnavailable: { onWait: (m) => waits.push(m) },
  });
  await restart;
  expect(started.started).toBe(true);
  const result = await started.handle.result();
  expect(result.card.cardNo).toBeTruthy();
  process.stderr.write(`startOnboarding during the PostgreSQL restart waited: ${waits.join(' | ') || 'not at all'}\n`);
});

/**
 * Bench (b): what a wait costs. One happy onboarding per row, its review (or delivery) lasting a
 * minute to two weeks on a compressed clock, counted twice: actions from the histories, and the
 * server's `action` metric, which also sees a cancelled long poll's probes. The sandbox's delay
 * and the probe schedule are divided by one factor, so a row makes the probes of its full-length
 * wait; the heartbeat timeout, which bounds one probe's call, is not compressed.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowBundle } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { sealPin } from '../../activities/secrets';
import { createProviderClient } from '../../provider/client';
import { activateOnboardingCard } from '../../client/onboarding';
import { startBenchOnboarding } from './reference';
import { progressQuery, type OnboardingInput } from '../../domain/customer-onboarding';
import { CARD_OPERATION_WAIT, REVIEW_WAIT, type WaitOverrides, type WaitProfile } from '../../domain/wait-profile';
import { onboardingWorkflowId } from '../../domain/workflow-ids';
import { ZERO_DELAYS } from '../sandbox/index';
import { CARD_TYPE_IDS } from '../sandbox/data/card-types';
import { luhnCheckDigit } from '../sandbox/random';
import { b2cHolder } from '../../test/fixtures/holders';
import { COUNTING_RULE, collectHistories, countActions, metricDelta } from './actions';
import {
  actionMetric,
  onboardingInput,
  say,
  WAIT_REAL_MS,
  withCardflow,
  withTimeout,
  type BenchContext,
} from './harness';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** The least compression: a 1-minute wait still takes half a second, not a minute. */
const MIN_SCALE = 120;

interface Row {
  label: string;
  actions: number;
  events: number;
  byKind: Record<string, number>;
  metric: Record<string, number>;
  scale: number;
}

/**
 * The probe schedule of `profile` with its clock divided by `by`; one probe's own timeouts kept.
 */
function compressed(profile: WaitProfile, by: number): WaitProfile {
  const shrink = (ms: number) => Math.max(1, Math.round(ms / by));
  return {
    ...profile,
    firstPollMs: shrink(profile.firstPollMs),
    maxPollMs: shrink(profile.maxPollMs),
    attemptMs: shrink(profile.attemptMs),
    retryInitialIntervalMs: shrink(profile.retryInitialIntervalMs),
    retryMaxIntervalMs: shrink(profile.retryMaxIntervalMs),
  };
}

/** The bench's own calls, not the workflow's cost. */
const NOT_THE_WORKFLOWS = new Set(['grpc_QueryWorkflow']);

const sum = (m: Record<string, number>) =>
  Object.entries(m).reduce((total, [kind, n]) => (NOT_THE_WORKFLOWS.has(kind) ? total : total + n), 0);

/**
 * Runs `scenario` on a fresh sandbox whose reviews last `reviewMs / scale`, and counts its actions.
 */
async function measure(
  env: TestWorkflowEnvironment,
  bundle: WorkflowBundle,
  label: string,
  reviewMs: number,
  scale: number,
  scenario: (ctx: BenchContext, wait: WaitOverrides) => Promise<string>,
): Promise<Row> {
  const half = Math.round(reviewMs / 2 / scale);
  const wait: WaitOverrides = {
    review: compressed(REVIEW_WAIT, scale),
    cardOperation: compressed(CARD_OPERATION_WAIT, scale),
  };
  return withCardflow(env, bundle, { ...ZERO_DELAYS, reviewAdminMs: half, reviewChannelMs: half }, async (ctx) => {
    const before = await actionMetric();
    const ref = await scenario(ctx, wait);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // cancelled long polls report their last attempt
    const metric = metricDelta(before, await actionMetric());
    const count = countActions(await collectHistories(env.client, onboardingWorkflowId(ref)));
    return { label, actions: count.actions, events: count.events, byKind: count.byKind, metric, scale };
  });
}

/** A B2B onboarding whose review takes the sandbox's review delay. */
async function reviewed(env: TestWorkflowEnvironment, ctx: BenchContext, wait: WaitOverrides): Promise<string> {
  const input = onboardingInput('wait', 'bench', wait);
  const { handle } = await startBenchOnboarding(env.client, input, { taskQueue: ctx.taskQueue });
  await withTimeout(handle.result(), `onboarding ${input.customerRef}`);
  return input.customerRef;
}

/**
 * A physical-card onboarding (quick review) whose card reaches its holder `deliveryMs / scale`
 * after creation.
 */
async function delivered(
  env: TestWorkflowEnvironment,
  ctx: BenchContext,
  wait: WaitOverrides,
  deliveryMs: number,
  scale: number,
): Promise<string> {
  const png = {
    filename: 'id.png',
    contentType: 'image/png',
    data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7]),
  };
  const client = createProviderClient(ctx.sandbox.clientConfig());
  const fileIds: string[] = [];
  for (let i = 0; i < 3; i++) fileIds.push((await client.uploadFile({ category: 'card', file: png })).fileId);
  await client.close();
  const unique = randomUUID().replace(/-/g, '').slice(0, 10);
  const body = `522981${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const input: OnboardingInput = {
    customerRef: `bench-delivery-${unique}`,
    cardTypeId: CARD_TYPE_IDS.physicalB2C,
    holder: b2cHolder({ email: `bench+${unique}@example.com`, idNumber: `P${unique}`, fileIds }),
    cardNumber: body + luhnCheckDigit(body),
    initialDeposit: '50',
    wait,
  };
  const { handle } = await startBenchOnboarding(env.client, input, { taskQueue: ctx.taskQueue });
  for (;;) {
    const progress = await handle.query(progressQuery);
    if (progress.stage === 'awaiting_delivery') break;
    if (progress.stage === 'failed') throw new Error(`onboarding ${input.customerRef} failed before delivery`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, Math.round(deliveryMs / scale)));
  const { cardNo } = await handle.query(progressQuery);
  await ctx.sandbox.engine.helpers.issueActivationCode!({ cardNo });
  await activateOnboardingCard(env.client, input.customerRef, {
    route: 'activation_code',
    sealedPin: sealPin('482915', ctx.sandbox.keys.merchant.publicKey),
  });
  await withTimeout(handle.result(), `onboarding ${input.customerRef}`);
  return input.customerRef;
}

const scaleFor = (waitMs: number) => Math.max(MIN_SCALE, Math.round(waitMs / WAIT_REAL_MS));

export async function waitCost(env: TestWorkflowEnvironment, bundle: WorkflowBundle): Promise<void> {
  say(`\n(b) history events and billable actions per happy-path onboarding, by how long it waits`);
  say(
    `  each row on a compressed clock (its wait about ${WAIT_REAL_MS / 1000} s real, at least ${MIN_SCALE}x): the sandbox's delay and the probe schedule divided alike`,
  );
  say(COUNTING_RULE.replace(/^/gm, '  '));
  const reviews: Row[] = [];
  for (const [label, reviewMs] of [
    ['1-minute review', MINUTE],
    ['1-hour review', 60 * MINUTE],
    ['1-day review', DAY],
    ['7-day review', 7 * DAY],
  ] as const) {
    const scale = scaleFor(reviewMs);
    reviews.push(await measure(env, bundle, label, reviewMs, scale, (ctx, wait) => reviewed(env, ctx, wait)));
  }
  const deliveries: Row[] = [];
  for (const [label, deliveryMs] of [
    ['physical card delivered after 1 minute', MINUTE],
    ['physical card delivered after 14 days', 14 * DAY],
  ] as const) {
    const scale = scaleFor(deliveryMs);
    deliveries.push(
      await measure(env, bundle, label, MINUTE, scale, (ctx, wait) => delivered(env, ctx, wait, deliveryMs, scale)),
    );
  }
  for (const row of [...reviews, ...deliveries]) {
    const kinds = Object.entries(row.byKind)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    say(`  ${row.label} (${row.scale}x): ${row.events} history events, ${row.actions} billable actions (${kinds})`);
    const metricKinds = Object.entries(row.metric)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    say(`    server \`action\` metric: ${sum(row.metric)} (${metricKinds})`);
  }
  const [minute] = reviews;
  if (minute) {
    for (const row of reviews.slice(1))
      say(
        `  ${row.label} / 1-minute review: ${(row.actions / minute.actions).toFixed(2)} by the history rule, ${(sum(row.metric) / sum(minute.metric)).toFixed(2)} by the server metric (target <= 1.5)`,
      );
    say(`  happy 1-minute onboarding: ${minute.actions} actions by the history rule (target <= 10)`);
  }
  const [soon, late] = deliveries;
  if (soon && late)
    say(
      `  14-day / 1-minute delivery: ${(late.actions / soon.actions).toFixed(2)} by the history rule, ${(sum(late.metric) / sum(soon.metric)).toFixed(2)} by the server metric`,
    );
}

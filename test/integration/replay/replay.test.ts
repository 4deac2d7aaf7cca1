/**
 * Replays the saved histories (test/fixtures/histories/*.json) against the current workflow code,
 * and those of the earlier build (test/fixtures/histories/earlier-build/: onboardings started in
 * `validating`, before the 10-action path). Those must replay too: runs opened by unversioned
 * workers move to the first versioned build (docs/versioning.md), and the onboarding decides its
 * path from its started event alone. With CARDFLOW_SAVE_HISTORIES=1 it first runs representative
 * onboardings, the card and fund workflows (test/integration/replay/card-and-funds-runs.ts) and the
 * other onboarding paths (physical card, shared_account, budgetTopUp, on_chain:
 * test/integration/replay/onboarding-path-runs.ts) on the dev server and the sandbox and saves
 * their histories (parents and children), and one happy onboarding (`onboarding-happy`);
 * `=onboarding`, `=cards-and-funds`, `=onboarding-paths`, `=happy`, `=review-rounds` (a cardholder
 * review rejected twice), `=compensation` (money returned and a stranded-money record:
 * test/integration/replay/compensation-runs.ts) or `=card-notices` (a card with notifications on:
 * test/integration/replay/card-notice-runs.ts) re-saves one set only.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import type { WorkflowHandle } from '@temporalio/client';
import { correctCardholderUpdate, cardholderStatusQuery } from '../../../domain/cardholder-onboarding';
import { firstOnboardingStage, onboardingStartAttributes } from '../../../domain/start-attributes';
import { cardholderWorkflowId, childWorkflowId, onboardingWorkflowId } from '../../../domain/workflow-ids';
import { WorkflowTypes } from '../../../domain/workflows';
import { bundleCardflowWorkflows, DROPPED_SPAN_SINKS } from '../../../workers/create-worker';
import type { CardflowActivities } from '../../../activities';
import { CARD_TYPES, FAST_WAIT, customerRef, startHarness, workflowBundle, type Harness } from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';
import { lateReviewProbe } from '../support/late-probe';
import { TRACING_SWITCHES, tracedHistory } from '../support/cross-replay';
import { assertNothingInClear, RUN_PINS, saveBornCardHistory, saveCardAndFundHistories } from './card-and-funds-runs';
import { CARD_NOTICES_HISTORY, saveCardNoticeHistory } from './card-notice-runs';
import { COMPENSATION_HISTORIES, saveCompensationHistories } from './compensation-runs';
import {
  maskCardNumbers,
  ONBOARDING_PATH_HISTORIES,
  PATH_PINS,
  saveOnboardingPathHistories,
  unmaskedCardNumbers,
} from './onboarding-path-runs';

// Saving runs both sets of workflows (several minutes on a shared machine); replay alone is quick.
jest.setTimeout(process.env.CARDFLOW_SAVE_HISTORIES ? 600_000 : 180_000);

const DIR = join(__dirname, '../../fixtures/histories');

async function save(name: string, handle: WorkflowHandle): Promise<void> {
  const history = await handle.fetchHistory();
  const json = temporal.api.history.v1.History.toObject(temporal.api.history.v1.History.fromObject(history), {
    longs: String,
    enums: String,
    bytes: String,
  });
  // The workflow id is part of what the code reads (derived ids and merchantOrderNos): keep it.
  writeFileSync(
    join(DIR, `${name}.json`),
    `${JSON.stringify({ workflowId: handle.workflowId, history: json }, null, 1)}\n`,
  );
}

/**
 * Runs `run` on a fresh harness while a worker (its activities changed by `overrides`) polls its
 * queue, then stops the harness.
 */
async function withHarnessWorker(
  run: (h: Harness) => Promise<void>,
  overrides?: (h: Harness) => Partial<CardflowActivities>,
): Promise<void> {
  const h = await startHarness();
  try {
    await h.withWorker(() => run(h), overrides?.(h));
  } finally {
    await h.stop();
  }
}

/** Until the cardholder review awaits a correction after `resubmissions` resubmissions. */
async function awaitingCorrection(handle: WorkflowHandle, resubmissions: number): Promise<void> {
  for (;;) {
    const status = await handle.query(cardholderStatusQuery).catch(() => undefined);
    if (status?.stage === 'awaiting_correction' && status.resubmissions === resubmissions) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function saveOnboardingHistories(): Promise<void> {
  await withHarnessWorker(async (h) => {
    const start = (ref: string, args: Record<string, unknown>) =>
      h.client.workflow.start(WorkflowTypes.customerOnboarding, {
        workflowId: onboardingWorkflowId(ref),
        taskQueue: h.taskQueue,
        args: [{ customerRef: ref, wait: FAST_WAIT, ...args }],
        typedSearchAttributes: onboardingStartAttributes(ref, firstOnboardingStage(args)),
      });
    const happy = customerRef('replay-happy');
    const a = await start(happy, {
      cardTypeId: CARD_TYPES.b2bWithDeposit,
      holder: b2bHolder(uniqueEmail('replay')),
      initialDeposit: '100',
    });
    const later = customerRef('replay-deposit');
    const b = await start(later, { cardTypeId: CARD_TYPES.noHolderNoDeposit, initialDeposit: '50' });
    const rejected = customerRef('replay-reject');
    const c = await start(rejected, {
      cardTypeId: CARD_TYPES.b2bWithDeposit,
      holder: b2bHolder(uniqueEmail('reject.admin')),
      initialDeposit: '20',
    });
    const child = h.client.workflow.getHandle(cardholderWorkflowId(rejected));
    await awaitingCorrection(child, 0);
    await child.executeUpdate(correctCardholderUpdate, { args: [{ holder: b2bHolder(uniqueEmail('corrected')) }] });
    await Promise.all([a.result(), b.result(), c.result()]);
    await save('onboarding-with-holder', a);
    await save(
      'onboarding-with-holder.cardholder',
      h.client.workflow.getHandle(childWorkflowId(a.workflowId, 'cardholder')),
    );
    await save('onboarding-with-holder.card', h.client.workflow.getHandle(childWorkflowId(a.workflowId, 'card')));
    await save('onboarding-deposit-after-creation', b);
    await save(
      'onboarding-deposit-after-creation.card',
      h.client.workflow.getHandle(childWorkflowId(b.workflowId, 'card')),
    );
    await save(
      'onboarding-deposit-after-creation.deposit',
      h.client.workflow.getHandle(childWorkflowId(b.workflowId, 'deposit')),
    );
    await save('onboarding-rejected-corrected', c);
    await save('onboarding-rejected-corrected.cardholder', child);
  });
}

/**
 * One happy onboarding (B2B holder, card with initial deposit) saved as `onboarding-happy` with
 * its children, from the current code, started as the client starts it (in cardholder_review).
 */
async function saveHappyHistories(): Promise<void> {
  await withHarnessWorker(async (h) => {
    const ref = customerRef('replay-happy');
    const handle = await h.client.workflow.start(WorkflowTypes.customerOnboarding, {
      workflowId: onboardingWorkflowId(ref),
      taskQueue: h.taskQueue,
      args: [
        {
          customerRef: ref,
          wait: FAST_WAIT,
          cardTypeId: CARD_TYPES.b2bWithDeposit,
          holder: b2bHolder(uniqueEmail('replay')),
          initialDeposit: '100',
        },
      ],
      typedSearchAttributes: onboardingStartAttributes(ref, 'cardholder_review'),
    });
    await handle.result();
    await save('onboarding-happy', handle);
    for (const step of ['cardholder', 'card'] as const)
      await save(`onboarding-happy.${step}`, h.client.workflow.getHandle(childWorkflowId(handle.workflowId, step)));
  });
}

/**
 * One cardholder review rejected twice, then passed (`review-rounds`): each round ends at its
 * webhook, the second reject a state the first round reached already. The probe looks late
 * ({@link lateReviewProbe}) so the history is of that path, not of a probe that won the race.
 */
async function saveReviewRoundHistories(): Promise<void> {
  await withHarnessWorker(
    async (h) => {
      const handle = await h.client.workflow.start(WorkflowTypes.cardholderOnboarding, {
        workflowId: `cardholder-${customerRef('replay-rejected-twice')}`,
        taskQueue: h.taskQueue,
        args: [
          { cardTypeId: CARD_TYPES.b2bWithDeposit, wait: FAST_WAIT, holder: b2bHolder(uniqueEmail('reject.admin')) },
        ],
      });
      for (const [round, email] of [uniqueEmail('reject.admin'), uniqueEmail('corrected')].entries()) {
        await awaitingCorrection(handle, round);
        await handle.executeUpdate(correctCardholderUpdate, { args: [{ holder: b2bHolder(email) }] });
      }
      await handle.result();
      await save(REVIEW_ROUND_HISTORY, handle);
    },
    (h) => lateReviewProbe(h.provider),
  );
}

const SETS = [
  'onboarding',
  'cards-and-funds',
  'onboarding-paths',
  'happy',
  'review-rounds',
  'compensation',
  'card-born',
  'card-notices',
] as const;
const HAPPY_HISTORIES = ['onboarding-happy', 'onboarding-happy.cardholder', 'onboarding-happy.card'];
const REVIEW_ROUND_HISTORY = 'cardholder-rejected-twice';

/**
 * Saves the sets CARDFLOW_SAVE_HISTORIES names (`1`: all but `card-notices`; or a comma-separated
 * list). The onboarding-path files get their printed card numbers masked before the check that no
 * clear value of the run is left.
 */
async function saveHistories(which: string): Promise<void> {
  const wanted = which.split(',').map((set) => set.trim());
  // `card-notices` guards the card code before its notices were restructured: saved by name only.
  const sets =
    which === '1' ? SETS.filter((set) => set !== 'card-notices') : SETS.filter((set) => wanted.includes(set));
  if (!sets.length) throw new Error(`CARDFLOW_SAVE_HISTORIES=${which}: expected 1, ${SETS.join(', ')}`);
  if (sets.includes('onboarding')) await saveOnboardingHistories();
  if (sets.includes('happy')) await saveHappyHistories();
  if (sets.includes('review-rounds')) await saveReviewRoundHistories();
  if (sets.includes('cards-and-funds')) {
    const saved = await saveCardAndFundHistories(save);
    for (const name of saved.names)
      assertNothingInClear(name, readFileSync(join(DIR, `${name}.json`), 'utf8'), saved.clearValues);
  }
  if (sets.includes('card-born')) await saveBornCardHistory(save);
  if (sets.includes('card-notices')) {
    const saved = await saveCardNoticeHistory(save);
    for (const name of saved.names)
      assertNothingInClear(name, readFileSync(join(DIR, `${name}.json`), 'utf8'), saved.clearValues);
  }
  if (sets.includes('compensation')) {
    const saved = await saveCompensationHistories(save);
    expect([...saved.names].sort()).toEqual([...COMPENSATION_HISTORIES].sort());
  }
  if (sets.includes('onboarding-paths')) {
    const saved = await saveOnboardingPathHistories(save);
    expect([...saved.names].sort()).toEqual([...ONBOARDING_PATH_HISTORIES].sort());
    for (const name of saved.names) {
      const file = join(DIR, `${name}.json`);
      const masked = maskCardNumbers(readFileSync(file, 'utf8'));
      writeFileSync(file, masked);
      assertNothingInClear(name, masked, saved.clearValues);
    }
  }
}

/** The saved card and fund histories (test/fixtures/histories/README.md lists them). */
const CARD_AND_FUND_HISTORIES = [
  'shared-account',
  'fund-transfer',
  'fund-collection',
  'wallet-funding',
  'wallet-funding.transfer',
  'wallet-funding.deposit',
  'activation-code',
  'activation-work-order',
  'card-freeze',
  'card-unfreeze',
  'card-pin-update',
  'card-entity',
  'card-entity.deposit',
];

it('replays every saved history without a determinism error', async () => {
  if (process.env.CARDFLOW_SAVE_HISTORIES) await saveHistories(process.env.CARDFLOW_SAVE_HISTORIES);
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
  expect(files.length).toBeGreaterThanOrEqual(8 + CARD_AND_FUND_HISTORIES.length + ONBOARDING_PATH_HISTORIES.length);
  for (const name of [
    ...CARD_AND_FUND_HISTORIES,
    ...ONBOARDING_PATH_HISTORIES,
    ...HAPPY_HISTORIES,
    REVIEW_ROUND_HISTORY,
    ...COMPENSATION_HISTORIES,
    CARD_NOTICES_HISTORY,
  ])
    expect(files).toContain(`${name}.json`);
  const histories = files.map((file) => {
    const saved = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { workflowId: string; history: object };
    return { workflowId: saved.workflowId, history: temporal.api.history.v1.History.fromObject(saved.history) };
  });
  const failures: string[] = [];
  // As recorded, and with every call traced: tracing must not change a command.
  const bundles = {
    recorded: await workflowBundle(),
    traced: await bundleCardflowWorkflows({ outerInterceptorModules: [TRACING_SWITCHES.traced] }),
  };
  for (const [name, code] of Object.entries(bundles))
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: code, sinks: DROPPED_SPAN_SINKS },
      histories,
    )) {
      if (result.error) failures.push(`${name}, ${result.workflowId}: ${result.error.message}`);
    }
  expect(failures).toEqual([]);
});

const TRACED_BEFORE_ORDER_FIX_DIR = join(DIR, 'traced-before-order-fix');

/** The event types of `history` from the first Update accepted to the next workflow task. */
function updateTaskEvents(history: temporal.api.history.v1.IHistory): string[] {
  const types = (history.events ?? []).map((e) => String(temporal.api.enums.v1.EventType[e.eventType ?? 0]));
  const accepted = types.indexOf('EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED');
  const end = types.indexOf('EVENT_TYPE_WORKFLOW_TASK_SCHEDULED', accepted);
  return accepted < 0 ? [] : types.slice(accepted, end < 0 ? undefined : end);
}

it('traced runs of the build before tracing kept the command order replay as its traced workers ran them, and not here', async () => {
  const files = readdirSync(TRACED_BEFORE_ORDER_FIX_DIR).filter((f) => f.endsWith('.json'));
  const saved = files.map((file) => {
    const { workflowId, history } = JSON.parse(readFileSync(join(TRACED_BEFORE_ORDER_FIX_DIR, file), 'utf8')) as {
      workflowId: string;
      history: object;
    };
    return { file, workflowId, history: temporal.api.history.v1.History.fromObject(history) };
  });
  // The saved onboardings are traced and carry the order OpenTelemetry's interceptors wrote.
  const onboardings = saved.filter((s) => s.file.split('.').length === 2);
  expect(onboardings.map((s) => s.file).sort()).toEqual([
    'onboarding-physical-code.json',
    'onboarding-physical-work-order.json',
  ]);
  for (const { history } of onboardings) {
    expect(tracedHistory(history)).toBe(true);
    expect(updateTaskEvents(history).slice(0, 3)).toEqual([
      'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED',
      'EVENT_TYPE_TIMER_CANCELED',
      'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED',
    ]);
  }
  const replay = async (bundle: WorkflowBundle) => {
    const failed: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowBundle: bundle, sinks: DROPPED_SPAN_SINKS }, saved))
      if (result.error) failed.push(`${result.workflowId}: ${result.error.message}`);
    return failed;
  };
  // The earlier build's traced workers finish them (docs/versioning.md: they stay on that build).
  expect(
    await replay(await bundleCardflowWorkflows({ outerInterceptorModules: [TRACING_SWITCHES.earlierBuild] })),
  ).toEqual([]);
  // This build keeps the order, so the two Update tasks do not replay on it: the replay gate
  // counts such a run only if it would meet this build.
  const here = await replay(await workflowBundle());
  expect(here.map((f) => f.split(':')[0]).sort()).toEqual(onboardings.map((s) => s.workflowId).sort());
  for (const failure of here) expect(failure).toMatch(/Update machine does not handle this event/);
});

const EARLIER_BUILD_DIR = join(DIR, 'earlier-build');

/**
 * The onboardings of the earlier build (parents; their children are the other files of the folder).
 */
const EARLIER_BUILD_ONBOARDINGS = [
  'onboarding-with-holder',
  'onboarding-deposit-after-creation',
  'onboarding-rejected-corrected',
  'onboarding-happy',
  'onboarding-happy-before-card-read',
  'onboarding-physical-code',
  'onboarding-physical-work-order',
  'onboarding-shared-account',
  'onboarding-budget-top-up',
  'onboarding-on-chain',
];

it('the earlier build: every onboarding and child it saved replays here, through the stages those runs took', async () => {
  const files = readdirSync(EARLIER_BUILD_DIR).filter((f) => f.endsWith('.json'));
  for (const name of EARLIER_BUILD_ONBOARDINGS) expect(files).toContain(`${name}.json`);
  const saved = files.map((file) => {
    const { workflowId, history } = JSON.parse(readFileSync(join(EARLIER_BUILD_DIR, file), 'utf8')) as {
      workflowId: string;
      history: object;
    };
    return { file, workflowId, history: temporal.api.history.v1.History.fromObject(history) };
  });
  const failures: string[] = [];
  let replayed = 0;
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: await workflowBundle(), sinks: DROPPED_SPAN_SINKS },
    saved,
  )) {
    replayed += 1;
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  expect(replayed).toBe(saved.length);
  expect(failures).toEqual([]);
});

/** Every payload of a saved history (base64 `data`) as text. */
function decodedPayloads(text: string): string {
  return [...text.matchAll(/"data": "([A-Za-z0-9+/=]+)"/g)]
    .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
    .join('\n');
}

it('the saved card and fund histories hold no clear PIN, activation code or card secret', () => {
  for (const name of CARD_AND_FUND_HISTORIES) {
    const text = readFileSync(join(DIR, `${name}.json`), 'utf8');
    assertNothingInClear(name, text, Object.values(RUN_PINS));
    // Field names the provider uses for secrets in clear (spec: activeCard, updatePin, card
    // sensitive data).
    expect({
      name,
      fields: decodedPayloads(text).match(/"(pin|activeCode|activationCode|cvv|cardNumber|expiryDate)"\s*:/g),
    }).toEqual({ name, fields: null });
  }
});

it('the saved onboarding-path histories hold no clear PIN, activation code or card secret, and only masked card numbers', () => {
  let cardNumbers = 0;
  for (const name of ONBOARDING_PATH_HISTORIES) {
    const text = readFileSync(join(DIR, `${name}.json`), 'utf8');
    assertNothingInClear(name, text, Object.values(PATH_PINS));
    const decoded = decodedPayloads(text);
    // The physical path's input carries cardNumber (spec: createCard); every other secret field
    // must be absent.
    expect({ name, fields: decoded.match(/"(pin|activeCode|activationCode|cvv|expiryDate)"\s*:/g) }).toEqual({
      name,
      fields: null,
    });
    expect({ name, unmasked: unmaskedCardNumbers(text) }).toEqual({ name, unmasked: [] });
    cardNumbers += decoded.match(/"cardNumber":/g)?.length ?? 0;
  }
  // The physical runs' inputs (onboarding, cardIssuance, create card activity) are where the
  // masking applies.
  expect(cardNumbers).toBeGreaterThan(0);
});

it('the saved card-notices history notifies, relays a 3DS record by its ids, and holds no 3DS code', () => {
  const text = readFileSync(join(DIR, `${CARD_NOTICES_HISTORY}.json`), 'utf8');
  const { history } = JSON.parse(text) as { history: object };
  const activities = (temporal.api.history.v1.History.fromObject(history).events ?? []).flatMap(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? [],
  );
  expect(activities).toContain('deliverNotifications');
  expect(activities).toContain('relayThreeDs');
  // The relay's record and the backend's event carry the code; the workflow's payloads never do.
  expect(decodedPayloads(text).match(/"(otp|authUrl|value|code)"\s*:/g)).toBeNull();
});

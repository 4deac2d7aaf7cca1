/**
 * A worker killed (SIGKILL) while traced onboardings wait at each stage, then a worker with
 * tracing switched the other way takes them over: each completes, and no workflow task failed in
 * its history or its children's. Worker processes keep no workflow cached (worker-process.ts), so
 * the new worker replays every run's whole history before it goes on. The stages:
 * - cardholder review (stalled until decided);
 * - card creation (the create operation held processing);
 * - delivery (a physical card awaiting the `activateCard` Update);
 * - after that Update, its activation child waiting for the work order;
 * - the deposit after creation (held processing).
 * Both ways: a traced worker replaced by one without tracing, and the reverse. The backend traces
 * every call (a sampled trace context), as a traced backend does.
 */
import { Client, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { activateOnboardingCard } from '../../../client/onboarding';
import { createDataConverter } from '../../../platform/codec/data-converter';
import { parseKeyList } from '../../../platform/codec/keys';
import { cardholderStatusQuery } from '../../../domain/cardholder-onboarding';
import { progressQuery, type OnboardingInput, type OnboardingStage } from '../../../domain/customer-onboarding';
import { cardholderWorkflowId, childWorkflowId, ONBOARDING_ID_PREFIX } from '../../../domain/workflow-ids';
import { physicalCardActivationWorkflow } from '../../../domain/workflows';
import { startOtlpReceiver, type OtlpReceiver } from '../../cluster/support/otlp-receiver';
import { until } from '../../support/until';
import {
  approvedPhysicalHolder,
  CARD_TYPES,
  FAST_WAIT,
  PHYSICAL_TYPE,
  printedCardNumber,
  startCardHarness,
  workerProcessEnv,
  type CardHarness,
} from '../support/card-harness';
import { cardOperations, customerRef, passReview, startOnboardingWorkflow } from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';
import { testCodecKeys, testTemporalServer } from '../support/temporal-env';
import { tracingBackend } from '../support/traced-starts';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';

jest.setTimeout(420_000);

const codecKeys = testCodecKeys('tracing-switch');

let h: CardHarness;
let otlp: OtlpReceiver;
let client: Client;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  h = await startCardHarness();
  otlp = await startOtlpReceiver();
  client = new Client({
    connection: h.temporal.connection,
    namespace: testTemporalServer().namespace,
    dataConverter: createDataConverter(parseKeyList(codecKeys)),
    interceptors: { workflow: [tracingBackend(() => true)] },
  });
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await otlp?.stop();
  await h?.stop();
});

async function worker(traced: boolean): Promise<WorkerProcess> {
  const tracing: Record<string, string> = traced ? { ...otlp.env, OTEL_TRACES_SAMPLER: 'parentbased_always_on' } : {};
  const started = startWorkerProcess({
    ...workerProcessEnv(h, { providerUrl: h.sandbox.clientConfig().baseUrl, taskQueue: h.taskQueue, codecKeys }),
    ...tracing,
  });
  workers.push(started);
  await started.polling(120_000);
  return started;
}

const workerOutput = () => workers.map((w) => w.output()).join('\n---\n');

async function stageOf(handle: WorkflowHandle, stage: OnboardingStage): Promise<void> {
  await until(
    () => handle.query(progressQuery).catch(() => undefined),
    (p) => p?.stage === stage,
    { timeoutMs: 90_000, pollMs: 200, context: workerOutput },
  );
}

/** Decides every card operation of `type` the sandbox holds processing. */
async function decideHeld(type: 'create' | 'deposit'): Promise<number> {
  const held = (await cardOperations(h.provider, { type })).filter((r) => r.status === 'processing');
  for (const r of held) await h.helper('decideOperation', { orderNo: r.merchantOrderNo, outcome: 'success' });
  return held.length;
}

/** Decides the work order `orderNo` once its activation child has submitted it. */
async function decideWorkOrder(orderNo: string): Promise<void> {
  await until(
    () => h.helper('decideWorkOrder', { orderNo, outcome: 'success' }),
    () => true,
    { timeoutMs: 60_000, pollMs: 200, context: workerOutput },
  );
}

/**
 * The workflow task failures of a run and of every child it started. Not counted: the server's
 * refusal of a completion because a signal arrived meanwhile (cause UNHANDLED_COMMAND), after
 * which the worker runs the task again with the signal; that is how Temporal delivers a signal
 * that races a workflow's last task, not a fault of the task.
 */
async function taskFailures(workflowId: string): Promise<string[]> {
  const { EventType, WorkflowTaskFailedCause } = temporal.api.enums.v1;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const failed: string[] = [];
  for (const e of history.events ?? []) {
    const failure = e.workflowTaskFailedEventAttributes;
    if (
      e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED &&
      failure?.cause !== WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND
    )
      failed.push(`${workflowId} #${String(e.eventId)}: ${failure?.failure?.message ?? ''}`);
    const child = e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId;
    if (child) failed.push(...(await taskFailures(child)));
  }
  return failed;
}

const refOf = (handle: WorkflowHandle) => handle.workflowId.slice(ONBOARDING_ID_PREFIX.length);

interface Parked {
  name: string;
  handle: WorkflowHandle;
  /** What moves it on once the new worker runs. */
  resume: () => Promise<void>;
}

/** Five traced onboardings, each parked at its stage on the running worker. */
async function parkAtEveryStage(tag: string): Promise<Parked[]> {
  const start = (name: string, input: Omit<OnboardingInput, 'customerRef' | 'wait'>) =>
    startOnboardingWorkflow(
      { client, taskQueue: h.taskQueue },
      { customerRef: customerRef(`${tag}-${name}`), wait: FAST_WAIT, ...input },
    );
  const review = await start('review', {
    cardTypeId: CARD_TYPES.b2bWithDeposit,
    holder: b2bHolder(uniqueEmail('review.stall')),
    initialDeposit: '30',
  });
  // An amount with cents .14 holds the provider's operation processing until decided.
  const creating = await start('create', {
    cardTypeId: CARD_TYPES.b2bWithDeposit,
    holder: b2bHolder(uniqueEmail('create')),
    initialDeposit: '30.14',
  });
  const depositing = await start('deposit', { cardTypeId: CARD_TYPES.noHolderNoDeposit, initialDeposit: '25.14' });
  const physical = async (name: string) =>
    start(name, {
      cardTypeId: PHYSICAL_TYPE,
      holderId: await approvedPhysicalHolder(h.provider),
      cardNumber: printedCardNumber(),
      initialDeposit: '50',
    });
  const delivery = await physical('delivery');
  const activating = await physical('activating');
  const workOrder = { route: 'work_order', workOrder: { files: [{ ref: 'delivery-note.pdf' }] } };
  const workOrderNo = (handle: WorkflowHandle) =>
    physicalCardActivationWorkflow.orderKeys(childWorkflowId(handle.workflowId, 'activation')).workOrder;

  const holder = await until(
    () => client.workflow.getHandle(cardholderWorkflowId(refOf(review))).query(cardholderStatusQuery),
    (s) => s.stage === 'in_review' && s.holderId !== undefined,
    { timeoutMs: 90_000, pollMs: 200, context: workerOutput },
  );
  await stageOf(creating, 'creating_card');
  await until(
    () => cardOperations(h.provider, { type: 'create' }),
    (ops) => ops.some((r) => r.status === 'processing'),
    { timeoutMs: 60_000, pollMs: 200 },
  );
  await stageOf(depositing, 'funding');
  await until(
    () => cardOperations(h.provider, { type: 'deposit' }),
    (ops) => ops.some((r) => r.status === 'processing'),
    { timeoutMs: 60_000, pollMs: 200 },
  );
  await stageOf(delivery, 'awaiting_delivery');
  await stageOf(activating, 'awaiting_delivery');
  // The Update the traced backend sends; its task is what a worker of the other setting replays.
  await activateOnboardingCard(client, refOf(activating), workOrder);
  await stageOf(activating, 'activating');
  return [
    { name: 'review', handle: review, resume: async () => passReview(h, holder.holderId!) },
    { name: 'card creation', handle: creating, resume: async () => void (await decideHeld('create')) },
    { name: 'deposit', handle: depositing, resume: async () => void (await decideHeld('deposit')) },
    {
      name: 'delivery',
      handle: delivery,
      resume: async () => {
        await activateOnboardingCard(client, refOf(delivery), workOrder);
        await decideWorkOrder(workOrderNo(delivery));
      },
    },
    { name: 'activation child waiting', handle: activating, resume: () => decideWorkOrder(workOrderNo(activating)) },
  ];
}

async function switchTracing(tag: string, firstTraced: boolean): Promise<void> {
  const first = await worker(firstTraced);
  const parked = await parkAtEveryStage(tag);
  await first.stop('SIGKILL');
  expect(first.child.signalCode).toBe('SIGKILL');

  const second = await worker(!firstTraced);
  const resumedAt = h.handled.length;
  for (const p of parked) await p.resume();
  const outcomes = await Promise.all(
    parked.map(async (p) => ({
      name: p.name,
      outcome: await p.handle.result().then(
        () => 'completed',
        (e: unknown) => `failed: ${e instanceof Error ? e.message : String(e)}`,
      ),
      taskFailures: await taskFailures(p.handle.workflowId),
    })),
  );
  expect(outcomes).toEqual(parked.map((p) => ({ name: p.name, outcome: 'completed', taskFailures: [] })));
  // The webhooks their resumption caused reached them, by the routes the worker processes recorded
  // before their provider calls (not only the polls that race every wait).
  const signalled = (p: Parked) =>
    h.handled
      .slice(resumedAt)
      .some((d) => d.outcome === 'signalled' && d.workflowIds.some((id) => id.includes(refOf(p.handle))));
  expect(parked.filter((p) => !signalled(p)).map((p) => p.name)).toEqual([]);
  await second.stop('SIGTERM');
}

beforeEach(() => {
  // Work orders wait until a test decides them.
  h.sandbox.delays.workOrderMs = 10 * 60_000;
});

it('traced onboardings parked at every stage complete on a worker without tracing after the traced one is killed', async () => {
  await switchTracing('to-untraced', true);
});

it('traced onboardings parked at every stage complete on a traced worker after the one without tracing is killed', async () => {
  const before = otlp.spans.length;
  await switchTracing('to-traced', false);
  // The traced worker exported the runs' spans, the Update's handler among them.
  const names = new Set(otlp.spans.slice(before).map((s) => s.name));
  for (const name of ['RunWorkflow:customerOnboarding', 'HandleSignal:providerEvent', 'RunActivity:submitWorkOrder'])
    expect({ name, exported: names.has(name) }).toEqual({ name, exported: true });
});

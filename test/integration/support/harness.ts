/**
 * One test's world: the sandbox (zero delays, real clock), the webhook receiver signalling
 * through the tier's dev server, a provider client, and cardflow workers on a task queue of
 * the test's own. The workflow bundle is built once per test file.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import type { WorkflowBundle } from '@temporalio/worker';
import { createProviderClient, type ProviderClient } from '../../../provider/client';
import { buildSignedWebhook } from '../../../provider/signing';
import { runCliOn } from '../../support/run-cli';
import { startSandbox, ZERO_DELAYS, type FaultUpdate, type RunningSandbox } from '../../../tools/sandbox';
import { type HandledWebhook, startWebhookReceiver, type WebhookReceiver } from '../../../webhooks/receiver';
import { createCardEntityDelivery } from '../../../webhooks/card-route';
import { createFileRouteStore, type RouteStore } from '../../../platform/storage/route-store';
import type { CardflowActivities } from '../../../activities';
import { bundleCardflowWorkflows, createWorker, type CreateWorkerOptions } from '../../../workers/create-worker';
import { createDataConverter } from '../../../platform/codec/data-converter';
import { parseKeyList } from '../../../platform/codec/keys';
import {
  connectTestClient,
  connectTestNativeConnection,
  testTemporalServer,
  TEST_MAX_CACHED_WORKFLOWS,
  uniqueTaskQueue,
  type TestClient,
} from './temporal-env';
import { TEST_SLOW_WAIT, TEST_WAIT, type WaitOverrides } from '../../../domain/wait-profile';
import type { OnboardingInput } from '../../../domain/customer-onboarding';
import { firstOnboardingStage, onboardingStartAttributes } from '../../../domain/start-attributes';
import { onboardingWorkflowId } from '../../../domain/workflow-ids';
import { WorkflowTypes } from '../../../domain/workflows';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';
import { b2bHolder, uniqueEmail } from './holders';
import { recordIssuedSecrets } from './issued-secrets';

/** Fast waits for the zero-delay sandbox. */
export const FAST_WAIT: WaitOverrides = { cardOperation: TEST_WAIT, review: TEST_SLOW_WAIT };

export const CARD_TYPES = {
  /** Visa virtual, B2B holder required, initial deposit 10–10000 at creation, fee 1.5%. */
  b2bWithDeposit: CARD_TYPE_IDS.b2bVirtual,
  /**
   * MasterCard subscription: no holder, no initial deposit at creation; deposits 5–10000, fee 2% +
   * 0.5.
   */
  noHolderNoDeposit: CARD_TYPE_IDS.subscription,
  /** Visa shared budget (BUDGET_CARD), no holder, no initial deposit. */
  budget: CARD_TYPE_IDS.budget,
} as const;

let bundle: Promise<WorkflowBundle> | undefined;
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleCardflowWorkflows();
  return bundle;
}

/**
 * Runs `fn` while a cardflow worker polls the tier's server with `options` (the file's workflow
 * bundle unless one is given), then shuts it down and closes its connection, also when `fn` throws.
 */
export async function runCardflowWorker<T>(
  options: Omit<CreateWorkerOptions, 'connection' | 'namespace'>,
  fn: () => Promise<T>,
): Promise<T> {
  const connection = await connectTestNativeConnection();
  try {
    const worker = await createWorker({
      ...options,
      workerOptions: { maxCachedWorkflows: TEST_MAX_CACHED_WORKFLOWS, ...options.workerOptions },
      connection,
      namespace: testTemporalServer().namespace,
      workflowBundle: options.workflowBundle ?? (await workflowBundle()),
    });
    return await worker.runUntil(fn);
  } finally {
    await connection.close();
  }
}

export interface Harness {
  sandbox: RunningSandbox;
  provider: ProviderClient;
  temporal: TestClient;
  client: Client;
  taskQueue: string;
  receiver?: WebhookReceiver;
  /** The routes the workers record and the receiver reads (a route file of the harness's own). */
  routes: RouteStore;
  /** That route file's folder: worker processes get it as CARDFLOW_ROUTE_DIR (harnessWorkerEnv). */
  routeDir: string;
  /** The visibility list queries the receiver made: routing by route makes none. */
  receiverListQueries: string[];
  /** Every delivery the receiver answered. */
  handled: HandledWebhook[];
  /** Runs `fn` while a cardflow worker polls the harness's task queue. */
  withWorker<T>(fn: () => Promise<T>, overrides?: Partial<CardflowActivities>): Promise<T>;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /**
   * Deliver webhooks through the receiver (default true); false: every wait falls back to polling.
   */
  webhooks?: boolean;
  faults?: FaultUpdate;
  /** Opening balance of the merchant WALLET (sandbox default "100000.00"). */
  walletBalance?: string;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  // A fresh seed per sandbox (ids never repeat across files on the shared server);
  // CARDFLOW_TEST_SANDBOX_SEED pins it to replay a failure.
  const pinned = Number(process.env.CARDFLOW_TEST_SANDBOX_SEED);
  const sandbox = await startSandbox({
    delays: ZERO_DELAYS,
    clock: 'real',
    ...(Number.isSafeInteger(pinned) && pinned > 0 ? { seed: pinned } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.walletBalance ? { engine: { initialWalletBalance: options.walletBalance } } : {}),
  });
  process.stderr.write(`sandbox seed ${sandbox.seed}\n`);
  const temporal = await connectTestClient();
  const dataDir = await mkdtemp(join(tmpdir(), 'cardflow-webhooks-'));
  const taskQueue = uniqueTaskQueue('cardflow');
  const routeDir = join(dataDir, 'routes');
  const routes = createFileRouteStore({ dir: routeDir });
  const receiverListQueries: string[] = [];
  const handled: HandledWebhook[] = [];
  let receiver: WebhookReceiver | undefined;
  if (options.webhooks !== false) {
    // The receiver's own client, so its visibility queries (and only its) are counted.
    const receiverClient = new Client({ connection: temporal.connection, namespace: testTemporalServer().namespace });
    const list = receiverClient.workflow.list.bind(receiverClient.workflow);
    receiverClient.workflow.list = (listOptions) => {
      receiverListQueries.push(listOptions?.query ?? '');
      return list(listOptions);
    };
    receiver = await startWebhookReceiver({
      platformPublicKey: sandbox.keys.platform.publicKey,
      client: receiverClient,
      dataDir,
      // A card's first event starts its workflow on this test's task queue, with the tests' quick
      // waits.
      cardEntities: createCardEntityDelivery(temporal.client, { taskQueue, input: { wait: FAST_WAIT } }),
      routes,
      onHandled: (delivery) => handled.push(delivery),
    });
    sandbox.setWebhookUrl(receiver.url);
  }
  const provider = createProviderClient(sandbox.clientConfig());
  return {
    sandbox,
    provider,
    temporal,
    client: temporal.client,
    taskQueue,
    ...(receiver ? { receiver } : {}),
    routes,
    routeDir,
    receiverListQueries,
    handled,
    withWorker: (fn, overrides) =>
      runCardflowWorker(
        { taskQueue, activityDeps: { provider, routes }, ...(overrides ? { activityOverrides: overrides } : {}) },
        fn,
      ),
    async stop() {
      await receiver?.stop();
      // What the sandbox issued, for the tier's scan of every history (issued-secrets.ts).
      await recordIssuedSecrets(provider, sandbox.keys.merchant.privateKey);
      await sandbox.stop();
      await provider.close();
      await temporal.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What a worker process serving the harness starts with: its sandbox, the dev server, the queue,
 * the codec keys and the harness's route file, so the harness's receiver finds what it records.
 */
export function harnessWorkerEnv(
  h: Harness,
  opts: { taskQueue: string; codecKeys: string; providerUrl?: string },
): Record<string, string> {
  const { address, namespace } = testTemporalServer();
  return {
    ...h.sandbox.env,
    ...(opts.providerUrl ? { CARDFLOW_PROVIDER_BASE_URL: opts.providerUrl } : {}),
    CARDFLOW_ROUTE_DIR: h.routeDir,
    CARDFLOW_TEMPORAL_ADDRESS: address,
    CARDFLOW_TEMPORAL_NAMESPACE: namespace,
    CARDFLOW_TASK_QUEUE: opts.taskQueue,
    CARDFLOW_CODEC_KEYS: opts.codecKeys,
  };
}

/**
 * One harness for every test of the file: `start` runs in the file's `beforeAll` once the workflow
 * bundle is built (so no test's time pays for bundling), and the harness stops after the file.
 * What it returns stands for that harness: a test file declares it once, at the top, and reads it
 * in its tests; reading it before `beforeAll` has run throws.
 */
export function harnessPerFile<H extends Harness>(start: () => Promise<H>): H {
  let started: H | undefined;
  beforeAll(async () => {
    await workflowBundle();
    started = await start();
  }, 120_000);
  afterAll(async () => started?.stop());
  return new Proxy({} as H, {
    get(_target, key) {
      if (!started) throw new Error(`harness read (${String(key)}) before the file's beforeAll started it`);
      return Reflect.get(started, key, started) as unknown;
    },
  });
}

/**
 * A client on the harness's connection whose payloads are encrypted with `codecKeys` (the
 * CARDFLOW_CODEC_KEYS form), as those of the worker processes a test starts with the same keys.
 */
export function encryptingClient(h: Harness, codecKeys: string): Client {
  return new Client({
    connection: h.temporal.connection,
    namespace: testTemporalServer().namespace,
    dataConverter: createDataConverter(parseKeyList(codecKeys)),
  });
}

/**
 * What the sandbox holds for a set of merchantOrderNos / holders, read through the provider API.
 */
export async function cardOperations(
  provider: ProviderClient,
  filter: { type?: 'create' | 'deposit'; cardNo?: string } = {},
) {
  const page = await provider.listCardTransactions({ pageNum: 1, pageSize: 100, ...filter });
  return page.records;
}

export async function cardholdersByEmail(provider: ProviderClient, email: string) {
  const page = await provider.queryCardholders({ pageNum: 1, pageSize: 100, email });
  return page.records;
}

export async function walletBalance(provider: ProviderClient): Promise<string> {
  const accounts = await provider.getAccountInfo();
  const wallet = accounts.find((a) => a.accountType === 'WALLET');
  if (!wallet) throw new Error('no wallet');
  return wallet.availableBalance;
}

/**
 * Decides each stalled review stage of `holderId` (platform, then bank) as passed, through the
 * sandbox's helper: the decision is readable by a probe from now on, and a webhook is sent unless
 * the test dropped it.
 */
export function passReview(h: Harness, holderId: string): void {
  const decide = h.sandbox.engine.helpers.decideCardholderReview!;
  for (let stage = 0; stage < 2; stage += 1) {
    const holder = decide({ holderId, outcome: 'pass' }) as { status?: string };
    if (holder.status === 'pass_audit') return;
  }
  throw new Error(`cardholder ${holderId} review did not reach pass_audit`);
}

/** A unique customer reference per test. */
export function customerRef(label: string): string {
  return `${label}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * The onboarding most tests start: a B2B holder on the card type that takes an initial deposit
 * of 10, with a customer reference and holder email unique per call and named after `label` (so
 * a label such as `review.stall` is also the email local part the sandbox reads); `overrides`
 * replace any field.
 */
export function b2bOnboarding(label: string, overrides: Partial<OnboardingInput> = {}): OnboardingInput {
  return {
    customerRef: customerRef(label),
    cardTypeId: CARD_TYPES.b2bWithDeposit,
    holder: b2bHolder(uniqueEmail(label)),
    initialDeposit: '10',
    wait: FAST_WAIT,
    ...overrides,
  };
}

/**
 * Starts `customerOnboarding` straight through the Temporal client, as `client/onboarding.ts`
 * would (id from the customerRef, search attributes at start) but without its validation, so a
 * test can show what the workflow itself refuses.
 */
export function startOnboardingWorkflow(
  h: Pick<Harness, 'client' | 'taskQueue'>,
  input: OnboardingInput,
): Promise<WorkflowHandle> {
  return h.client.workflow.start(WorkflowTypes.customerOnboarding, {
    workflowId: onboardingWorkflowId(input.customerRef),
    taskQueue: h.taskQueue,
    args: [input],
    // As the client starts one (client/onboarding.ts): in the stage its input says it waits in
    // first.
    typedSearchAttributes: onboardingStartAttributes(input.customerRef, firstOnboardingStage(input)),
  });
}

/** Why `handle`'s run failed (its WorkflowFailedError's cause), or undefined when it completed. */
export function failureOf(handle: WorkflowHandle): Promise<Error | undefined> {
  return handle.result().then(
    () => undefined,
    (e: WorkflowFailedError) => e.cause,
  );
}

/**
 * Posts a delivered webhook to `h`'s receiver again under a new request id (an at-least-once
 * repeat of the provider), signed with the sandbox's platform key; expects it accepted.
 */
export async function deliverAgain(
  h: Pick<Harness, 'sandbox' | 'receiver'>,
  delivery: { body: string; category: string },
): Promise<void> {
  const signed = buildSignedWebhook({
    body: delivery.body,
    category: delivery.category,
    requestId: `again-${randomUUID()}`,
    platformPrivateKey: h.sandbox.keys.platform.privateKey,
  });
  const response = await fetch(h.receiver!.url, { method: 'POST', headers: signed.headers, body: signed.body });
  expect(response.status).toBe(200);
}

/**
 * The `cardflow` CLI on `h`'s server and task queue, both of its streams read into `out` as a
 * terminal shows them; each call resolves with the exit code.
 */
export function cliOn(h: Pick<Harness, 'client' | 'taskQueue'>, out: string[]): (args: string[]) => Promise<number> {
  return async (args) =>
    (
      await runCliOn(
        { client: h.client, namespace: testTemporalServer().namespace },
        [...args, '--task-queue', h.taskQueue],
        { out, err: out },
      )
    ).code;
}

/**
 * What an operator does with an onboarding that did not complete. Resume ({@link retryOnboarding})
 * starts a new run under the same id with the earlier input (reuse policy
 * ALLOW_DUPLICATE_FAILED_ONLY: never beside a running or completed one); every key derives from
 * that id, so each step finds what the earlier run made instead of making it again, and money an
 * earlier compensation moved back moves again under a new key. A new run rather than a reset: it
 * runs today's code from the start, with no need for the failed history to replay. Stop
 * ({@link cancelOnboarding}) is Temporal's cancel: waits end, a mutation in flight is followed to
 * its outcome, and progress says what was left at the provider.
 */
import { type Client, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { add } from '../provider/money';
import { ClientErrorTypes } from '../domain/failure-types';
import {
  isResumable,
  progressQuery,
  type CompensationOutcome,
  type OnboardingInput,
  type OnboardingProgress,
  type OnboardingResult,
} from '../domain';
import { onboardingHandle, startOnboardingRun, type OnboardingHandle } from './onboarding';
import { addressOf, retryWhileUnavailable, type UnavailableRetry } from '../platform/temporal/unavailable-retry';

/** The onboarding cannot be resumed or cancelled as asked; `reason` says why, for the operator. */
export class OnboardingRecoveryError extends Error {
  readonly type = ClientErrorTypes.onboardingRecoveryRefused;
  constructor(
    readonly customerRef: string,
    readonly reason: string,
  ) {
    super(`onboarding ${customerRef}: ${reason}`);
    this.name = 'OnboardingRecoveryError';
  }
}

export interface RetryOnboardingOptions {
  /**
   * Resume even a failure resuming cannot change (invalid input, a provider's final `fail`): only
   * when an operator knows the cause is gone. @default false
   */
  force?: boolean;
  /** @default the task queue the earlier run used */
  taskQueue?: string;
  /**
   * How long the resume waits for an unavailable Temporal (platform/temporal/unavailable-retry.ts);
   * default 60 s, with a warning on stderr.
   */
  whileUnavailable?: UnavailableRetry;
}

export interface ResumedOnboarding {
  workflowId: string;
  handle: OnboardingHandle;
  /** The run that did not complete. */
  previousRunId: string;
  /** Its final status (FAILED, CANCELLED, TERMINATED, TIMED_OUT). */
  previousStatus: string;
  /** Why it failed, when it failed. */
  failure?: { type: string; message: string };
  /** False when another resume got there first (its run is `handle`'s). */
  started: boolean;
  /**
   * What an earlier run's compensations moved back, which the new run moves again (under a new
   * key).
   */
  movesAgain?: { amount: string; runId: string };
}

/** Why a closed run failed: its failure's type and message (through the data converter). */
async function failureOf(handle: WorkflowHandle): Promise<{ type: string; message: string } | undefined> {
  const error = await handle.result().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof WorkflowFailedError)) return undefined;
  const cause = error.cause as { type?: string; message?: string } | undefined;
  return { type: cause?.type ?? 'Error', message: cause?.message ?? error.message };
}

/**
 * The input a run was started with, decoded by the client's own data converter (the payload codec).
 */
async function startInputOf(client: Client, handle: WorkflowHandle): Promise<OnboardingInput> {
  const history = await handle.fetchHistory();
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const payloads = (started?.input?.payloads ?? []) as Payload[];
  if (payloads.length === 0) throw new Error(`${handle.workflowId}: its start event carries no input`);
  const { payloadCodecs, payloadConverter } = client.options.loadedDataConverter;
  let decoded = payloads;
  for (const codec of [...payloadCodecs].reverse()) decoded = await codec.decode(decoded);
  return payloadConverter.fromPayload<OnboardingInput>(decoded[0]!);
}

/**
 * Resumes the onboarding of `customerRef` after it failed (or was cancelled, terminated, timed
 * out): a new run with the earlier run's input that continues from what exists at the provider.
 * Refused (OnboardingRecoveryError) while it runs, once it completed, and, without `force`, when
 * its failure is one resuming cannot change (domain/failure-types.ts `isResumable`).
 */
export async function retryOnboarding(
  client: Client,
  customerRef: string,
  opts: RetryOnboardingOptions = {},
): Promise<ResumedOnboarding> {
  const previous = onboardingHandle(client, customerRef);
  // Reading the earlier run changes nothing, so it is read again through a Temporal restart.
  const { description, failure, input, compensation } = await retryWhileUnavailable(
    addressOf(client),
    () => earlierRun(client, customerRef, previous, opts.force ?? false),
    opts.whileUnavailable,
  );
  const firstStartedAt = input.resume?.firstStartedAt ?? description.startTime.getTime();
  const returned = returnedBy(compensation, description.runId) ?? input.resume?.returned;
  const resumed: OnboardingInput = {
    ...input,
    resume: { previousRunId: description.runId, firstStartedAt, ...(returned ? { returned } : {}) },
  };
  // A resumed run starts as validating, and moves on to the stage it finds itself.
  const { workflowId, handle, started } = await startOnboardingRun(client, resumed, {
    taskQueue: opts.taskQueue ?? description.taskQueue,
    stage: 'validating',
    whileUnavailable: opts.whileUnavailable,
    reusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  });
  return {
    workflowId,
    previousRunId: description.runId,
    previousStatus: description.status.name,
    ...(failure ? { failure } : {}),
    handle,
    started,
    ...(returned ? { movesAgain: returned } : {}),
  };
}

/**
 * The earlier run of an onboarding to resume: refused while it runs, once it completed, or for a
 * final failure without `force`.
 */
async function earlierRun(client: Client, customerRef: string, previous: OnboardingHandle, force: boolean) {
  const description = await previous.describe();
  const status = description.status.name;
  if (status === 'RUNNING') throw new OnboardingRecoveryError(customerRef, 'is still running; nothing to resume');
  if (status === 'COMPLETED') throw new OnboardingRecoveryError(customerRef, 'completed; nothing to resume');
  const failure = status === 'FAILED' ? await failureOf(previous) : undefined;
  if (failure && !isResumable(failure.type) && !force) {
    throw new OnboardingRecoveryError(
      customerRef,
      `failed with ${failure.type} (${failure.message}), which resuming cannot change; fix the cause and use --force`,
    );
  }
  // What its compensations moved back, which the new run moves again (its progress: a worker
  // answers).
  const progress = await previous.query(progressQuery).catch(() => undefined);
  return { description, failure, input: await startInputOf(client, previous), compensation: progress?.compensation };
}

/**
 * What an earlier run's compensations moved back to the WALLET, for the resumed run to move again
 * under a key of its own: the earlier transfer's key is spent, and sending it again would find
 * the money moved when it has come back.
 */
function returnedBy(
  compensation: CompensationOutcome | undefined,
  runId: string,
): { amount: string; runId: string } | undefined {
  const returned = compensation?.returned ?? [];
  if (!returned.length) return undefined;
  return { amount: returned.reduce((sum, r) => add(sum, r.amount), '0'), runId };
}

export interface CancelledOnboarding {
  /**
   * The final status: CANCELLED, or COMPLETED/FAILED when it ended before the cancel took effect.
   */
  status: string;
  /**
   * Its progress at the end (stage `cancelled`, what was left at the provider), when a worker
   * answered.
   */
  progress?: OnboardingProgress;
  /**
   * The result, when it completed anyway (the last step finished before the cancel took effect).
   */
  result?: OnboardingResult;
}

/**
 * Stops the onboarding of `customerRef` (Temporal cancellation) and waits until it has ended. A
 * card creation, deposit or transfer already sent finishes first; every wait stops. Refused
 * (OnboardingRecoveryError) when it is not running.
 */
export async function cancelOnboarding(client: Client, customerRef: string): Promise<CancelledOnboarding> {
  const handle = onboardingHandle(client, customerRef);
  const description = await handle.describe();
  if (description.status.name !== 'RUNNING')
    throw new OnboardingRecoveryError(customerRef, `is ${description.status.name}, not running; nothing to cancel`);
  await handle.cancel();
  const result = await handle.result().catch(() => undefined);
  const closed = await handle.describe();
  const progress = await handle.query(progressQuery).catch(() => undefined);
  return {
    status: closed.status.name,
    ...(progress ? { progress } : {}),
    ...(result ? { result } : {}),
  };
}

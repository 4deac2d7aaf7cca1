/**
 * Typed functions a backend service calls to run customer onboardings.
 *
 * Idempotency: the workflow id is `onboarding-<customerRef>`, started with
 * `workflowIdConflictPolicy: 'FAIL'` and `workflowIdReusePolicy: 'REJECT_DUPLICATE'`. A second
 * start while the first runs, or after it closed (completed, failed, even terminated), is refused
 * by the server, and `startOnboarding` answers with a handle to that existing execution: one
 * customer reference is one execution, ever. (FAIL rather than USE_EXISTING so the caller learns
 * whether its input was used: `started: false` means the existing execution kept its own input.)
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { z } from 'zod';
import {
  CARDFLOW_TASK_QUEUE,
  type CardholderCorrection,
  type CardholderOnboardingStatus,
  type OnboardingInput,
  type OnboardingProgress,
  type OnboardingResult,
  cardholderWorkflowId,
  correctCardholderUpdate,
  progressQuery,
  type OnboardingInputSchema,
} from '../domain';
import {
  activateCardUpdate,
  type ActivateCardAccepted,
  type OnboardingActivationRequestSchema,
} from '../domain/onboarding-physical';
import { firstOnboardingStage } from '../domain/start-attributes';
import { definedStartOf } from '../domain/workflow-definition';
import { customerOnboardingWorkflow } from '../domain/workflows';
import { definedHandle } from './definitions';
import {
  parseActivationRequest,
  parseCardholderCorrection,
  parseOnboardingInput,
  type SealingOptions,
} from './validation';
import { checkPayloadSize } from './payload-size';
import type { UnavailableRetry } from '../platform/temporal/unavailable-retry';
import { startThroughOutage } from './start';
import { readConfiguration, type Configuration } from '../platform/config/schema';
import { processEnv } from '../platform/config/process-env';
import { openReferenceData, type ReferenceData } from './reference-data';
import {
  checkReferenceData,
  type HolderToCheck,
  type ReferenceCheck,
  type WhenReferenceUnavailable,
} from './reference-check';

/** The workflow function's signature, for typed handles. */
export type CustomerOnboardingWorkflow = (input: OnboardingInput) => Promise<OnboardingResult>;
export type OnboardingHandle = WorkflowHandle<CustomerOnboardingWorkflow>;

/**
 * What a backend hands over for an activation: the domain's request, or the activation_code
 * route with the cardholder's clear 6-digit `pin` instead of `sealedPin` (sealed before sending).
 */
export type OnboardingActivationInput =
  | z.input<typeof OnboardingActivationRequestSchema>
  | { route: 'activation_code'; pin: string; noPinPaymentAmount?: string };

/**
 * What a backend hands `startOnboarding`: the domain's onboarding input, its activation as above.
 */
export type OnboardingRequest = Omit<z.input<typeof OnboardingInputSchema>, 'activation'> & {
  activation?: OnboardingActivationInput;
};

/** How a holder is checked against the reference data (client/reference-check.ts). */
export interface ReferenceCheckOptions {
  /**
   * The reference data the holder is checked against, kept open by the caller; default: opened
   * from `config` for this call.
   */
  referenceData?: ReferenceData;
  /** The configuration the reference data is opened from; default: read from the environment. */
  config?: Configuration;
  /**
   * When a reference list cannot be read at all: `refuse` (default) throws
   * `ReferenceDataUnavailableError`, starting or sending nothing; `start-unchecked` goes on
   * without the check.
   */
  whenReferenceUnavailable?: WhenReferenceUnavailable;
}

/** The check of `input.holder` as `opts` say ({@link ReferenceCheckOptions}). */
function checkHolder(input: HolderToCheck, opts: ReferenceCheckOptions): Promise<ReferenceCheck> {
  const given = opts.referenceData;
  return checkReferenceData(
    input,
    given
      ? () => ({ ...given, close: async () => {} })
      : () => openReferenceData(opts.config ?? readConfiguration(processEnv())),
    opts.whenReferenceUnavailable,
  );
}

export interface StartOnboardingOptions extends SealingOptions, ReferenceCheckOptions {
  /** Task queue of the cardflow worker; default `CARDFLOW_TASK_QUEUE` (tests use their own). */
  taskQueue?: string;
  /**
   * How long the start waits for an unavailable Temporal (platform/temporal/unavailable-retry.ts);
   * default 60 s, with a warning on stderr.
   */
  whileUnavailable?: UnavailableRetry;
}

export interface StartedOnboarding {
  workflowId: string;
  handle: OnboardingHandle;
  /**
   * False when an execution with this customer reference already existed (running or closed); this
   * input was not used.
   */
  started: boolean;
  /**
   * Set when the holder was not checked against the reference data (`start-unchecked` and a list
   * that could not be read): which list, and why.
   */
  unchecked?: ReferenceCheck['unchecked'];
}

/**
 * Starts the onboarding of `input.customerRef`, or returns the existing one. The input is
 * validated with the domain's schema first, then its encoded size against Temporal's payload limit
 * (client/payload-size.ts), then a holder's area code, town and occupation against the provider's
 * reference data (client/reference-check.ts): an invalid input throws `InvalidInputError` naming
 * each field and rule, and starts nothing.
 */
export async function startOnboarding(
  client: Client,
  input: OnboardingRequest,
  opts: StartOnboardingOptions = {},
): Promise<StartedOnboarding> {
  const valid = parseOnboardingInput(input, opts);
  const workflowId = customerOnboardingWorkflow.id(valid.customerRef);
  await checkPayloadSize(client, `${customerOnboardingWorkflow.type} ${workflowId}`, valid);
  const { unchecked } = await checkHolder(valid, opts);
  const started = await startOnboardingRun(client, valid, {
    taskQueue: opts.taskQueue ?? CARDFLOW_TASK_QUEUE,
    stage: firstOnboardingStage(valid),
    whileUnavailable: opts.whileUnavailable,
  });
  return unchecked ? { ...started, unchecked } : started;
}

/**
 * How a run of an onboarding starts: where, in which stage, and whether a closed run's id may start
 * again.
 */
export interface OnboardingRun {
  taskQueue: string;
  /** CardflowStage at start; the workflow upserts a stage that differs itself. */
  stage: string;
  whileUnavailable?: UnavailableRetry | undefined;
  /**
   * REJECT_DUPLICATE for a first start; ALLOW_DUPLICATE_FAILED_ONLY for a resume
   * (client/recovery.ts).
   */
  reusePolicy?: 'REJECT_DUPLICATE' | 'ALLOW_DUPLICATE_FAILED_ONLY';
}

/**
 * Starts a run of the onboarding of `input.customerRef` under its id, with the start attributes its
 * definition derives (customer, flow, `run.stage`), retrying through an unavailable Temporal; the
 * run that already has the id answers `started: false`.
 */
export async function startOnboardingRun(
  client: Client,
  input: OnboardingInput,
  run: OnboardingRun,
): Promise<StartedOnboarding> {
  // No `startAttributes` in the input: the onboarding reads what was set from its started event.
  const { workflowId, searchAttributes } = definedStartOf(customerOnboardingWorkflow, input.customerRef, input, {
    customerRef: input.customerRef,
    stage: run.stage,
  });
  const { handle, started } = await startThroughOutage(
    client,
    customerOnboardingWorkflow.type,
    { workflowId, taskQueue: run.taskQueue, args: [input], typedSearchAttributes: searchAttributes },
    run.whileUnavailable,
    run.reusePolicy,
  );
  return { workflowId, handle: handle as OnboardingHandle, started };
}

/** A handle to the onboarding of `customerRef` (no call is made). */
export function onboardingHandle(client: Client, customerRef: string): OnboardingHandle {
  return definedHandle(client, customerOnboardingWorkflow, customerRef);
}

/**
 * The current stage and what was created so far (the `progress` query). Each query is a billable
 * action on Temporal Cloud: poll with {@link watchProgress}, which queries only when history grew.
 */
export async function getProgress(client: Client, customerRef: string): Promise<OnboardingProgress> {
  return onboardingHandle(client, customerRef).query(progressQuery);
}

/**
 * Sends corrected cardholder data after a reject (the `correctCardholder` Workflow Update on the
 * cardholder child) and resolves once the workflow has resubmitted it. Validated locally first
 * (`InvalidInputError`), the holder against the reference data too, as a start's is; the
 * workflow's validator refuses a correction sent when no reject is pending (ApplicationFailure type
 * `CorrectionNotExpected`), and the provider's answer is returned.
 */
export async function submitCorrection(
  client: Client,
  customerRef: string,
  correction: unknown,
  opts: ReferenceCheckOptions = {},
): Promise<CardholderOnboardingStatus> {
  const valid: CardholderCorrection = parseCardholderCorrection(correction);
  // Checked as a start's holder is: a wrong town would otherwise be refused at resubmission.
  await checkHolder({ holder: valid.holder }, opts);
  const progress = await getProgress(client, customerRef).catch(() => undefined);
  const target = progress?.review?.correctionWorkflowId ?? cardholderWorkflowId(customerRef);
  return client.workflow.getHandle(target).executeUpdate(correctCardholderUpdate, { args: [valid] });
}

/**
 * Says that the physical card reached the customer and how to activate it: the `activateCard`
 * Workflow Update on `onboarding-<customerRef>`, answered once the onboarding has accepted the
 * request (the activation itself then runs as its child; follow it with {@link getProgress}).
 *
 * Validated locally first (`InvalidInputError`); a clear `pin` is sealed with
 * `opts.merchantPublicKey` and never sent. The workflow's validator refuses, and the onboarding
 * keeps waiting: a request breaking a rule (`WorkflowUpdateFailedError`, cause type
 * `InvalidInput` naming the field), or any request when the onboarding has no physical card
 * awaiting one or already accepted one (cause type `ActivationNotExpected`).
 */
export async function activateOnboardingCard(
  client: Client,
  customerRef: string,
  request: unknown,
  opts: SealingOptions = {},
): Promise<ActivateCardAccepted> {
  const valid = parseActivationRequest(request, opts);
  return onboardingHandle(client, customerRef).executeUpdate(activateCardUpdate, { args: [valid] });
}

/**
 * Where the customer pays, for an onboarding funded on chain: the coin, address and amount to
 * pay, and the deposit's status as last seen; undefined until the onboarding awaits payment.
 */
export async function getPaymentInstructions(
  client: Client,
  customerRef: string,
): Promise<OnboardingProgress['funding'] | undefined> {
  const progress = await getProgress(client, customerRef);
  return progress.funding?.source === 'on_chain' && progress.funding.address ? progress.funding : undefined;
}

/**
 * Waits for the onboarding to finish; throws `WorkflowFailedError` when it failed (its cause
 * carries the failure type).
 */
export async function awaitResult(client: Client, customerRef: string): Promise<OnboardingResult> {
  return onboardingHandle(client, customerRef).result();
}

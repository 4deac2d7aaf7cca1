/**
 * `physicalCardActivation` (domain/physical-card-activation.ts): route activation_code waits for
 * the card's activation code record and activates with the sealed PIN; route work_order uploads
 * the supporting files and waits for a CARD_ACTIVE work order's decision. Both end by confirming
 * the card is Normal. Waits race a webhook (card_3ds, physical_card, work) against one long-poll
 * activity, so their cost does not grow with their length.
 */
import { workflowInfo } from '@temporalio/workflow';
import type { ActivationCodeRef, WorkOrderState } from '../activities';
import { FailureTypes } from '../domain/failure-types';
import {
  activationInputIssues,
  activationStatusQuery,
  DEFAULT_ACTIVATION_DEADLINE_MS,
  DEFAULT_WORK_ORDER_TITLE,
  type PhysicalCardActivationInput,
  type PhysicalCardActivationResult,
  type PhysicalCardActivationStatus,
} from '../domain/physical-card-activation';
import type { WaitProfile } from '../domain/wait-profile';
import { nonRetryable } from '../domain/failures';
import { nonCancellable } from './calls/non-cancellable';
import { cardOperationWait, longPollCalls, pollSettings, providerCallsFor, reviewWait } from './calls/profiles';
import { EventInbox } from './events/inbox';
import { activationCodeRefOf, workOrderStateOf } from '../domain/provider-records';
import { nonEmpty } from '../domain/provider-event';
import { Attributes, isChild, type StartedWith } from './reporting/search';
import { trackStatus, type Tracker } from './reporting/tracked-status';
import { raceSignalAndPoll } from './events/waits';
import { physicalCardActivationWorkflow } from '../domain/workflows';
import { isFinalOperationStatus } from '../provider/rules';

/** How long the card may take to show Normal once activation is accepted. */
const CONFIRM_DEADLINE_MS = 24 * 60 * 60 * 1000;

/**
 * The provider events an activation listens to: the code record, the activation's outcome, the work
 * order's decision.
 */
type ActivationEvents = 'card_3ds' | 'physical_card' | 'work';

/**
 * What both routes work with: the card, its order key, the deadlines and waits, and the tracked
 * status.
 */
interface Activation {
  input: PhysicalCardActivationInput;
  cardNo: string;
  merchantOrderNo: string;
  deadlineAt: number;
  slowWait: WaitProfile;
  quickWait: WaitProfile;
  provider: ReturnType<typeof providerCallsFor>;
  attributes: Attributes;
  events: EventInbox<ActivationEvents>;
  tracker: Tracker<PhysicalCardActivationStatus>;
}

export async function physicalCardActivation(
  input: PhysicalCardActivationInput & StartedWith,
): Promise<PhysicalCardActivationResult> {
  const info = workflowInfo();
  const provider = providerCallsFor(input.wait);
  const attributes = new Attributes(input.startAttributes);
  const events = new EventInbox<ActivationEvents>(['card_3ds', 'physical_card', 'work']);
  const tracker = trackStatus<PhysicalCardActivationStatus>(
    { stage: 'validating', route: input.route },
    activationStatusQuery,
    events,
  );
  const { status, fail, step } = tracker;

  const issues = activationInputIssues(input);
  if (issues.length) fail(FailureTypes.invalidInput, issues);
  const { cardNo } = input;
  // Operators list an activation by its card; its code's card_3ds record finds it by the route
  // the code poll records (activities/activation.ts), never by this attribute.
  attributes.set({
    cardNo,
    ...(isChild() ? {} : { customerRef: input.customerRef, flow: physicalCardActivationWorkflow.flow }),
  });
  const deadlineAt = Date.now() + (input.deadlineMs ?? DEFAULT_ACTIVATION_DEADLINE_MS);
  const slowWait = reviewWait(input.wait);
  const quickWait = cardOperationWait(input.wait);

  const card = await step(() => provider.getCardStatus({ cardNo }));
  const orderKeys = physicalCardActivationWorkflow.orderKeys(info.workflowId);
  const merchantOrderNo = input.route === 'activation_code' ? orderKeys.activate : orderKeys.workOrder;
  status.merchantOrderNo = merchantOrderNo;
  const activation: Activation = {
    input,
    cardNo,
    merchantOrderNo,
    deadlineAt,
    slowWait,
    quickWait,
    provider,
    attributes,
    events,
    tracker,
  };
  if (card.status === 'Normal') return done(activation);
  if (card.status !== 'un_activated')
    fail(
      FailureTypes.operationNotAllowed,
      `card ${cardNo} is ${card.status}; only an un_activated card can be activated`,
    );

  if (input.route === 'activation_code') return await activateWithCode(activation);
  return await activateByWorkOrder(activation);
}

/** The activation completed: the card is Normal. */
function done(
  { input, cardNo, merchantOrderNo, tracker }: Activation,
  extra: Partial<PhysicalCardActivationResult> = {},
): PhysicalCardActivationResult {
  tracker.enter('completed');
  return { cardNo, route: input.route, merchantOrderNo, cardStatus: 'Normal', ...extra };
}

/** Route activation_code: the code record, then activation with the sealed PIN, then Normal. */
async function activateWithCode(activation: Activation): Promise<PhysicalCardActivationResult> {
  const { input, cardNo, merchantOrderNo, provider, attributes, tracker } = activation;
  const { status, enter, fail, step } = tracker;
  enter('awaiting_code');
  const code = await awaitActivationCode(activation);
  status.activationCodeTradeNo = code.tradeNo;

  // Once the provider may have it, the mutation is followed to its outcome even if cancelled.
  return await nonCancellable(async () => {
    enter('activating');
    attributes.addOrderNo(merchantOrderNo);
    const outcome = await step(() =>
      provider.activateWithCode({
        merchantOrderNo,
        cardNo,
        sealedPin: input.sealedPin as string,
        activationCodeTradeNo: code.tradeNo,
        ...(input.noPinPaymentAmount === undefined ? {} : { noPinPaymentAmount: input.noPinPaymentAmount }),
      }),
    );
    if (outcome.status === 'fail')
      fail(FailureTypes.operationFailed, `activation ${merchantOrderNo} failed: ${outcome.remark ?? 'no description'}`);

    enter('confirming');
    if (outcome.status !== 'success') await confirmActivation(activation);
    return done(activation);
  });
}

/**
 * The card's activation code record: its card_3ds webhook, or the long poll for it, until the
 * deadline.
 */
async function awaitActivationCode({
  cardNo,
  deadlineAt,
  slowWait,
  events,
  tracker,
}: Activation): Promise<ActivationCodeRef> {
  const codeFromEvent = (): ActivationCodeRef | undefined => {
    const record = events.latest(
      'card_3ds',
      (r) => r.cardNo === cardNo && r.type === 'activation_code' && r.expirationTime > Date.now(),
    );
    return record && nonEmpty(record.tradeNo) ? activationCodeRefOf(record) : undefined;
  };
  const codeCalls = longPollCalls(slowWait, deadlineAt - Date.now());
  return await tracker.step(
    () =>
      raceSignalAndPoll(codeFromEvent, () => codeCalls.awaitActivationCode({ cardNo, poll: pollSettings(slowWait) })),
    () =>
      nonRetryable(
        FailureTypes.activationCodeTimeout,
        `no activation code arrived for card ${cardNo} before the deadline`,
      ),
  );
}

/**
 * An activation the provider accepted but not yet decided: its physical_card webhook, or the card
 * turning Normal.
 */
async function confirmActivation({ cardNo, merchantOrderNo, quickWait, events, tracker }: Activation): Promise<void> {
  const resultFromEvent = (): { status: string; remark: string | undefined } | undefined => {
    const record = events.latest(
      'physical_card',
      (r) => r.merchantOrderNo === merchantOrderNo && isFinalOperationStatus(r.status),
    );
    return record ? { status: record.status, remark: nonEmpty(record.remark) } : undefined;
  };
  const confirmCalls = longPollCalls(quickWait, CONFIRM_DEADLINE_MS);
  const confirmed = await tracker.step(
    () =>
      raceSignalAndPoll(resultFromEvent, async () => ({
        status:
          (await confirmCalls.awaitCardStatus({ cardNo, until: ['Normal'], poll: pollSettings(quickWait) })).status ===
          'Normal'
            ? 'success'
            : 'fail',
        remark: undefined,
      })),
    () =>
      nonRetryable(
        FailureTypes.activationNotConfirmed,
        `card ${cardNo} did not become Normal after activation ${merchantOrderNo}`,
      ),
  );
  if (confirmed.status !== 'success')
    tracker.fail(
      FailureTypes.operationFailed,
      `activation ${merchantOrderNo} failed: ${confirmed.remark ?? 'no description'}`,
    );
}

/** Route work_order: the files and the CARD_ACTIVE work order, its decision, then Normal. */
async function activateByWorkOrder(activation: Activation): Promise<PhysicalCardActivationResult> {
  const { cardNo, quickWait, tracker } = activation;
  const { enter, fail, step } = tracker;
  // Once sent, the uploads and the work order are recorded even if cancelled; only the wait for
  // the provider's decision stops (the work order stays with the provider, and progress says so).
  const sent = await nonCancellable(() => submitWorkOrder(activation));
  const { fileIds } = sent;

  enter('awaiting_work_order');
  const workOrder = await awaitWorkOrderDecision(activation, sent.submitted);
  if (workOrder.tradeStatus === 'fail') {
    fail(
      FailureTypes.operationFailed,
      `work order ${workOrder.orderNo} failed: ${workOrder.description ?? 'no description'}`,
    );
  }

  enter('confirming');
  const confirmCalls = longPollCalls(quickWait, CONFIRM_DEADLINE_MS);
  await step(
    () => confirmCalls.awaitCardStatus({ cardNo, until: ['Normal'], poll: pollSettings(quickWait) }),
    () =>
      nonRetryable(
        FailureTypes.activationNotConfirmed,
        `card ${cardNo} did not become Normal after work order ${workOrder.orderNo}`,
      ),
  );
  return done(activation, { workOrderNo: workOrder.orderNo, fileIds });
}

/**
 * Uploads the stored files (those given by fileId are already there), then submits the work order.
 */
async function submitWorkOrder({
  input,
  cardNo,
  merchantOrderNo,
  provider,
  attributes,
  tracker,
}: Activation): Promise<{ submitted: WorkOrderState; fileIds: string[] }> {
  const { status, enter, step } = tracker;
  const order = input.workOrder as NonNullable<PhysicalCardActivationInput['workOrder']>;
  enter('uploading');
  const fileIds: string[] = [];
  for (const file of order.files) {
    if ('fileId' in file) fileIds.push(file.fileId);
    else
      fileIds.push(
        (
          await step(() =>
            provider.uploadStoredFile({
              ref: file.ref,
              ...(file.contentType ? { contentType: file.contentType } : {}),
            }),
          )
        ).fileId,
      );
  }

  enter('submitting');
  attributes.addOrderNo(merchantOrderNo);
  const submitted = await step(() =>
    provider.submitWorkOrder({
      merchantOrderNo,
      title: order.title ?? DEFAULT_WORK_ORDER_TITLE,
      target: cardNo,
      ...(order.content === undefined ? {} : { content: order.content }),
      files: fileIds,
      tradeType: 'CARD_ACTIVE',
    }),
  );
  status.workOrderNo = submitted.orderNo;
  status.workOrderStatus = submitted.tradeStatus;
  return { submitted, fileIds };
}

/**
 * The work order's decision, unless it came with the submission: its work webhook, or the long
 * poll, until the deadline.
 */
async function awaitWorkOrderDecision(
  { merchantOrderNo, deadlineAt, slowWait, events, tracker }: Activation,
  submitted: WorkOrderState,
): Promise<WorkOrderState> {
  if (isFinalOperationStatus(submitted.tradeStatus)) return submitted;
  const fromEvent = (): WorkOrderState | undefined => {
    const record = events.latest(
      'work',
      (r) => r.merchantOrderNo === merchantOrderNo && isFinalOperationStatus(r.tradeStatus),
    );
    return record ? workOrderStateOf(record) : undefined;
  };
  const calls = longPollCalls(slowWait, deadlineAt - Date.now());
  const decided = await tracker.step(
    () => raceSignalAndPoll(fromEvent, () => calls.awaitWorkOrder({ merchantOrderNo, poll: pollSettings(slowWait) })),
    () =>
      nonRetryable(
        FailureTypes.activationNotConfirmed,
        `work order ${submitted.orderNo} was not decided before the deadline`,
      ),
  );
  tracker.status.workOrderStatus = decided.tradeStatus;
  return decided;
}

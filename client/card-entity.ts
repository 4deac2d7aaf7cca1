/**
 * The long-lived card workflow for backends: `cardEntity`, id `card-<cardNo>`. Freeze, unfreeze,
 * PIN change and deposit go through its validated Updates, sent with Update-with-Start, so the
 * first operation on a card starts its workflow and two callers never start two. A repeated
 * `requestId` returns the first answer and the provider acts once. Balance and status come from
 * the `card` query, or fresh through the `refresh` Update. A completed card workflow (the card was
 * cancelled) is never started again ({@link CardWorkflowClosedError}).
 */
import { exact } from '../domain/exact';
import { ClientErrorTypes } from '../domain/failure-types';
import { type Client, WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { z } from 'zod';
import type { KeyInput } from '../provider/keys';
import { CARDFLOW_TASK_QUEUE, WORKFLOW_TASK_TIMEOUT } from '../domain';
import { cardEntityInputFor, cardEntityStartOf } from '../domain/card-entity-start';
import { cardEntityWorkflow } from '../domain/workflows';
import { definedHandle, type DefinedHandle } from './definitions';
import {
  cardSnapshotQuery,
  depositUpdate,
  freezeUpdate,
  refreshUpdate,
  RequestIdSchema,
  requestUnblockUpdate,
  unblockRequestIssues,
  type CardUnblockOutcome,
  type UnblockRequest,
  unfreezeUpdate,
  updatePinUpdate,
  type CardEntityInput,
  type CardSnapshot,
  type DepositRequest,
  type OperationRequest,
  type PinRequest,
} from '../domain/card-entity';
import { cardOperationInputIssues } from '../domain/card-operations';
import { parseField, parseInput, refuse, refuseIssues } from './inputs';
import type { WaitOverridesSchema } from '../domain/wait-profile';
import { businessRef, cardNoField, idDigits, positiveAmount } from '../domain/fields';
import { type MerchantKeySource, sealPinForWorkflow } from './sealing';
import { addressOf, retryWhileUnavailable, type UnavailableRetry } from '../platform/temporal/unavailable-retry';

export interface CardEntityOptions {
  /** Task queue of the cardflow worker; default `CARDFLOW_TASK_QUEUE`. */
  taskQueue?: string;
  /** Used only when this call starts the card's workflow. */
  customerRef?: string;
  wait?: z.input<typeof WaitOverridesSchema>;
  /** Needed by {@link updateCardPin} with a clear PIN (client/sealing.ts). */
  merchantPublicKey?: KeyInput;
  /**
   * How long the request waits for an unavailable Temporal
   * (platform/temporal/unavailable-retry.ts); default 60 s.
   */
  whileUnavailable?: UnavailableRetry;
}

/** The card's workflow has completed (the card is cancelled): nothing more can run on it. */
export class CardWorkflowClosedError extends Error {
  readonly type = ClientErrorTypes.cardWorkflowClosed;
  constructor(readonly cardNo: string) {
    super(`the workflow of card ${cardNo} has ended (the card is cancelled); nothing more can run on it`);
    this.name = 'CardWorkflowClosedError';
  }
}

const OperationSchema = z.object({ requestId: RequestIdSchema, clientRemark: z.string().optional() }).strict();
const PinSchema = z
  .object({ requestId: RequestIdSchema, pin: z.string().optional(), sealedPin: z.string().optional() })
  .strict();
const UnblockSchema = z
  .object({
    requestId: RequestIdSchema,
    files: z.array(
      z.union([
        z.object({ fileId: z.string() }).strict(),
        z.object({ ref: z.string(), contentType: z.string().optional() }).strict(),
      ]),
    ),
    title: z.string().optional(),
    content: z.string().optional(),
  })
  .strict();
const DepositSchema = z.object({ requestId: RequestIdSchema, amount: positiveAmount, cardTypeId: idDigits }).strict();

export type CardEntityHandle = DefinedHandle<typeof cardEntityWorkflow>;

export function cardEntityHandle(client: Client, cardNo: string): CardEntityHandle {
  return definedHandle(client, cardEntityWorkflow, parseField(cardNoField, 'cardNo', cardNo));
}

/**
 * How a card's workflow is started, by whoever meets the card first (a client's Update-with-Start,
 * the receiver's signal-with-start): id `card-<cardNo>`, its attributes set at start (free), and
 * reuse ALLOW_DUPLICATE_FAILED_ONLY, so the workflow of a cancelled card is never started again.
 */
export function cardEntityStartOptions(input: CardEntityInput, taskQueue: string) {
  const { workflowId, searchAttributes } = cardEntityStartOf(input);
  return {
    workflowId,
    taskQueue,
    args: [{ ...input, attributesSetAtStart: true }] as [CardEntityInput],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY' as const,
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
    typedSearchAttributes: searchAttributes,
  };
}

/** Sends `update` to the card's workflow, starting the workflow when it does not run. */
async function updateWithStart<Ret, Args extends unknown[]>(
  client: Client,
  cardNo: string,
  update: UpdateDefinition<Ret, Args>,
  args: Args,
  opts: CardEntityOptions,
): Promise<Ret> {
  const valid = parseField(cardNoField, 'cardNo', cardNo);
  const customerRef =
    opts.customerRef === undefined ? undefined : parseField(businessRef, 'customerRef', opts.customerRef);
  const input = cardEntityInputFor(valid, { customerRef, wait: opts.wait ? exact(opts.wait) : undefined });
  // An operation is used once: each try of the retry window makes its own. A retried request is
  // answered once by the card's workflow, which keys requests by their requestId.
  const startWorkflowOperation = () =>
    new WithStartWorkflowOperation(cardEntityWorkflow.type, {
      ...cardEntityStartOptions(input, opts.taskQueue ?? CARDFLOW_TASK_QUEUE),
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  try {
    return await retryWhileUnavailable(
      addressOf(client),
      () => client.workflow.executeUpdateWithStart(update, { args, startWorkflowOperation: startWorkflowOperation() }),
      opts.whileUnavailable,
    );
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) throw new CardWorkflowClosedError(valid);
    throw error;
  }
}

export type CardRequestKind = 'freeze' | 'unfreeze' | 'updatePin' | 'deposit';
/** What each kind's Update takes. */
export interface CardRequests {
  freeze: OperationRequest;
  unfreeze: OperationRequest;
  updatePin: PinRequest;
  deposit: DepositRequest;
}
/** What a caller may hand over: for updatePin a clear `pin` (sealed here) or a `sealedPin`. */
export type CardRequestInput<K extends CardRequestKind> = K extends 'updatePin'
  ? { requestId: string; pin?: string; sealedPin?: string }
  : CardRequests[K];

/**
 * Validates a request for the card's Update `kind` (and seals a clear PIN) before anything is
 * contacted; throws `InvalidInputError` naming each field and rule, never a value.
 */
export function cardRequest<K extends CardRequestKind>(
  kind: K,
  cardNo: string,
  request: unknown,
  merchantPublicKey?: MerchantKeySource,
): CardRequests[K] {
  const what = `${kind} request`;
  parseField(cardNoField, 'cardNo', cardNo);
  if (kind === 'deposit') return parseInput(DepositSchema, what, request) as CardRequests[K];
  if (kind !== 'updatePin') {
    const valid = parseInput(OperationSchema, what, request);
    refuseIssues(what, cardOperationInputIssues(kind, { cardNo, ...valid }));
    return valid as CardRequests[K];
  }
  const { pin, sealedPin, ...rest } = parseInput(PinSchema, what, request);
  if (pin !== undefined && sealedPin !== undefined) refuse(what, 'pin', 'give either pin or sealedPin, not both');
  if (pin === undefined && sealedPin === undefined) refuse(what, 'pin', 'is required (the new 6-digit PIN)');
  const sealed = pin === undefined ? (sealedPin as string) : sealPinForWorkflow(pin, merchantPublicKey);
  refuseIssues(what, cardOperationInputIssues('updatePin', { cardNo, sealedPin: sealed }));
  return { ...rest, sealedPin: sealed } as CardRequests[K];
}

/**
 * The client function of the card's Update `kind`: validates (and seals) the request, then sends it
 * with Update-with-Start.
 */
function cardUpdate<K extends CardRequestKind, Ret>(kind: K, update: UpdateDefinition<Ret, [CardRequests[K]]>) {
  return async (
    client: Client,
    cardNo: string,
    request: CardRequestInput<K>,
    opts: CardEntityOptions = {},
  ): Promise<Ret> =>
    updateWithStart(client, cardNo, update, [cardRequest(kind, cardNo, request, opts.merchantPublicKey)], opts);
}

/**
 * Freezes the card (Update `freeze`); resolves once the Freeze record succeeded. Failure:
 * `WorkflowUpdateFailedError` (cause type OperationNotAllowed, ...).
 */
export const freezeCard = cardUpdate('freeze', freezeUpdate);

/** Unfreezes the card (Update `unfreeze`). */
export const unfreezeCard = cardUpdate('unfreeze', unfreezeUpdate);

/**
 * Changes the PIN (Update `updatePin`); a clear `pin` is sealed here with `opts.merchantPublicKey`.
 */
export const updateCardPin = cardUpdate('updatePin', updatePinUpdate);

/**
 * Deposits to the card (Update `deposit`, a `cardDeposit` child); resolves with the amount, fee and
 * balance.
 */
export const depositToCard = cardUpdate('deposit', depositUpdate);

/** Reads the card from the provider now (Update `refresh`), starting its workflow if needed. */
export async function refreshCard(client: Client, cardNo: string, opts: CardEntityOptions = {}): Promise<CardSnapshot> {
  return updateWithStart(client, cardNo, refreshUpdate, [], opts);
}

/**
 * Status, balance and recent authorizations as the running workflow knows them (the `card` query).
 */
export async function getCardSnapshot(client: Client, cardNo: string): Promise<CardSnapshot> {
  return cardEntityHandle(client, cardNo).query(cardSnapshotQuery);
}

/**
 * Asks the issuing bank to lift the card's block (Update `requestUnblock`): the files are uploaded,
 * the OTHER work order is submitted with them, and the answer comes once the work order succeeded
 * and the card reads Normal. Refused (OperationNotAllowed) for a card that is not blocked.
 */
export async function requestCardUnblock(
  client: Client,
  cardNo: string,
  request: UnblockRequest,
  opts: CardEntityOptions = {},
): Promise<CardUnblockOutcome> {
  const what = 'unblock request';
  parseField(cardNoField, 'cardNo', cardNo);
  const valid = parseInput(UnblockSchema, what, request);
  refuseIssues(what, unblockRequestIssues(valid));
  return updateWithStart(client, cardNo, requestUnblockUpdate, [valid], opts);
}

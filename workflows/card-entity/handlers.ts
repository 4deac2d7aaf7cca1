/**
 * The handlers of a `cardEntity` run (workflows/card-entity.ts): the provider event signal, the
 * snapshot query and the Updates that reach the provider (freeze, unfreeze, updatePin, deposit,
 * requestUnblock, refresh). Each request is answered once per requestId and runs in its turn
 * (card-entity/requests.ts); what it learns goes through the run (card-entity/run.ts).
 */
import { ParentClosePolicy, setHandler } from '@temporalio/workflow';
import {
  cardSnapshotQuery,
  depositUpdate,
  freezeUpdate,
  DEFAULT_UNBLOCK_TITLE,
  refreshUpdate,
  requestUnblockUpdate,
  unfreezeUpdate,
  updatePinUpdate,
  type CardDepositOutcome,
  type CardUnblockOutcome,
  type UnblockRequest,
} from '../../domain/card-entity';
import type { CardOperationKind, CardOperationOutcome } from '../../domain/card-operations';
import { deriveMerchantOrderNo, entityOrderStep } from '../../domain/merchant-order-no';
import { providerEventSignal } from '../../domain/provider-event';
import { FailureTypes } from '../../domain/failure-types';
import { isFinalOperationStatus } from '../../provider/rules';
import { cardDepositWorkflow } from '../../domain/workflows';
import { nonRetryable, rethrown, summarize } from '../../domain/failures';
import { runCardOperation } from '../card-operations';
import { runChild } from '../calls/children';
import { longPollCalls, pollSettings, reviewWait } from '../calls/profiles';
import type { OperationFields } from './requests';
import type { CardRun } from './run';

/** The clientRemark of a freeze or unfreeze request, when it has one. */
function remarkOf(req: { clientRemark?: string } | undefined): OperationFields {
  return req?.clientRemark === undefined ? {} : { clientRemark: req.clientRemark };
}

/** Registers the run's handlers, in the order the saved histories were made with. */
export function registerHandlers(run: CardRun): void {
  const { card, requests } = run;
  setHandler(providerEventSignal, (event) => run.learn(event));
  setHandler(requestUnblockUpdate, (req) => unblock(run, req), {
    validator: (req) => requests.validateUnblock(req),
  });
  setHandler(cardSnapshotQuery, () => card.snapshot(requests.pending));
  setHandler(freezeUpdate, (req) => operate(run, 'freeze', req.requestId, remarkOf(req)), {
    validator: (req) => requests.validateOperation(req?.requestId, 'freeze', remarkOf(req)),
  });
  setHandler(unfreezeUpdate, (req) => operate(run, 'unfreeze', req.requestId, remarkOf(req)), {
    validator: (req) => requests.validateOperation(req?.requestId, 'unfreeze', remarkOf(req)),
  });
  setHandler(updatePinUpdate, (req) => operate(run, 'updatePin', req.requestId, { sealedPin: req.sealedPin }), {
    validator: (req) => requests.validateOperation(req?.requestId, 'updatePin', { sealedPin: req?.sealedPin }),
  });
  setHandler(depositUpdate, (req) => deposit(run, req), { validator: (req) => requests.validateDeposit(req) });
  setHandler(refreshUpdate, async () => {
    try {
      if (run.followsLife) await run.catchUp();
      return await run.refresh();
    } catch (error) {
      const summary = summarize(error);
      throw rethrown(summary);
    }
  });
}

/** A freeze, unfreeze or PIN update, keyed by its requestId, followed to its record. */
function operate(
  run: CardRun,
  kind: CardOperationKind,
  requestId: string,
  fields: OperationFields,
): Promise<CardOperationOutcome> {
  const { card, requests, cardNo } = run;
  return requests.once(requestId, () => {
    card.project(kind);
    return requests.serialized(async () => {
      const sentAt = Date.now();
      let recordTime: number | undefined;
      const outcome = await runCardOperation(run.inbox, {
        kind,
        cardNo,
        merchantOrderNo: deriveMerchantOrderNo(run.info.workflowId, entityOrderStep(kind, requestId)),
        ...fields,
        profile: run.profile,
        provider: run.provider,
        onRecord: (operation) => {
          card.learnOwnRecord(operation.merchantOrderNo, operation.status);
          recordTime = operation.transactionTime;
        },
      });
      const before = card.mark();
      card.learnOperation(outcome.cardStatus, recordTime, sentAt);
      run.tellMoves(before, outcome.merchantOrderNo);
      return card.remember(requestId, outcome);
    });
  });
}

/** A deposit onto the card, run as the card deposit child workflow. */
function deposit(
  run: CardRun,
  req: { requestId: string; amount: string; cardTypeId: string },
): Promise<CardDepositOutcome> {
  const { card, requests, cardNo, input } = run;
  return requests.once(req.requestId, () =>
    requests.serialized(async () => {
      // ABANDON: a deposit under way finishes even if this card's workflow ends first. Started
      // without CardflowCustomerRef, as the entity has always started its deposits.
      const result = await runChild(
        cardDepositWorkflow,
        {
          cardNo,
          amount: req.amount,
          cardTypeId: req.cardTypeId,
          ...(input.customerRef ? { customerRef: input.customerRef } : {}),
          ...(input.wait ? { wait: input.wait } : {}),
        },
        { suffix: `deposit-${req.requestId}`, parentClosePolicy: ParentClosePolicy.ABANDON },
      );
      card.learnDeposit(result.balance);
      return card.remember<CardDepositOutcome>(req.requestId, {
        cardNo,
        kind: 'deposit',
        merchantOrderNo: result.merchantOrderNo,
        amount: result.amount,
        fee: result.fee,
        ...(result.balance ? { balance: result.balance } : {}),
      });
    }),
  );
}

/** Lifting a block: the files uploaded, the OTHER work order decided, the card back to Normal. */
function unblock(run: CardRun, req: UnblockRequest): Promise<CardUnblockOutcome> {
  const { card, requests, cardNo } = run;
  return requests.once(req.requestId, () =>
    requests.serialized(async () => {
      requests.requireBlocked();
      const merchantOrderNo = deriveMerchantOrderNo(run.info.workflowId, entityOrderStep('unblock', req.requestId));
      const fileIds = await uploadFiles(run, req.files);
      const orderNo = await decideWorkOrder(run, req, merchantOrderNo, fileIds);
      await longPollCalls(run.profile).awaitCardStatus({ cardNo, until: ['Normal'], poll: pollSettings(run.profile) });
      const before = card.mark();
      card.learnUnblocked();
      run.tellMoves(before, merchantOrderNo);
      return card.remember<CardUnblockOutcome>(req.requestId, {
        cardNo,
        kind: 'unblock',
        merchantOrderNo,
        workOrderNo: orderNo,
        fileIds,
        cardStatus: 'Normal',
      });
    }),
  );
}

/** The unblock's files as provider file ids, uploading the stored ones one after the other. */
async function uploadFiles(run: CardRun, files: UnblockRequest['files']): Promise<string[]> {
  const fileIds: string[] = [];
  for (const file of files) {
    if ('fileId' in file) fileIds.push(file.fileId);
    else
      fileIds.push(
        (
          await run.provider.uploadStoredFile({
            ref: file.ref,
            ...(file.contentType ? { contentType: file.contentType } : {}),
          })
        ).fileId,
      );
  }
  return fileIds;
}

/**
 * Spec, States: a block is lifted only by a manual application, the OTHER work order on the card.
 * Submits it and waits for its decision; answers the work order's number, or fails with its reason.
 */
async function decideWorkOrder(
  run: CardRun,
  req: UnblockRequest,
  merchantOrderNo: string,
  fileIds: string[],
): Promise<string> {
  const { cardNo } = run;
  let order = await run.provider.submitWorkOrder({
    merchantOrderNo,
    title: req.title ?? DEFAULT_UNBLOCK_TITLE,
    target: cardNo,
    ...(req.content === undefined ? {} : { content: req.content }),
    files: fileIds,
    tradeType: 'OTHER',
  });
  if (!isFinalOperationStatus(order.tradeStatus)) {
    const slow = reviewWait(run.input.wait);
    order = await longPollCalls(slow).awaitWorkOrder({ merchantOrderNo, poll: pollSettings(slow) });
  }
  if (order.tradeStatus === 'fail')
    throw nonRetryable(
      FailureTypes.operationFailed,
      `work order ${order.orderNo} to lift the block of card ${cardNo} failed: ${order.description ?? 'no description'}`,
    );
  return order.orderNo;
}

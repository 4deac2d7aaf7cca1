/**
 * `fundTransfer` (domain/fund-transfer.ts): both accounts read and every rule checked (direction,
 * currency, decimals, available balance) before anything is sent; the transfer is sent with a
 * merchantOrderNo derived from the workflow id (a retry after a dropped response sends the same
 * key and the provider answers "Duplicate order number"); then both ledger legs are found and
 * checked to the cent.
 */
import { isCancellation, patched, workflowInfo } from '@temporalio/workflow';
import { NotificationTypes } from '../domain/notifications';
import { cmp } from '../provider/money';
import { affordabilityIssue } from '../domain/eligibility';
import { FailureTypes } from '../domain/failure-types';
import {
  TRANSFER_DIRECTIONS,
  transferIssues,
  transferRemark,
  transferStatusQuery,
  type FundTransferInput,
  type FundTransferResult,
  type FundTransferStatus,
} from '../domain/fund-transfer';
import { nonRetryable, summarize } from '../domain/failures';
import { Notifier } from './reporting/notifier';
import { nonCancellable } from './calls/non-cancellable';
import { cardOperationWait, longPollCalls, pollSettings, providerCallsFor } from './calls/profiles';
import { Attributes, isChild, type StartedWith } from './reporting/search';
import { trackStatus } from './reporting/tracked-status';
import { fundTransferWorkflow } from '../domain/workflows';

/** How long the ledger may take to show a committed transfer. */
const LEDGER_DEADLINE_MS = 60 * 60 * 1000;

/** Transfers started before it refused a short balance in the workflow; they replay that way. */
export const SHORT_BALANCE_FINDS_EARLIER_TRANSFER = 'short-balance-finds-earlier-transfer';

/**
 * Marks collections keyed by ORDER_STEPS.collection; earlier ones replay with the transfer's key.
 */
export const COLLECTION_OWN_KEY = 'collection-own-order-step';

/**
 * The transfer, and its result told to the merchant's backend (reporting/notifier.ts): completed,
 * or failed (a cancel included) with the failure the workflow ends with.
 */
export async function fundTransfer(input: FundTransferInput & StartedWith): Promise<FundTransferResult> {
  const notifier = new Notifier();
  const known: { merchantOrderNo?: string } = {};
  const customerRef = input.customerRef ? { customerRef: input.customerRef } : {};
  try {
    const result = await transfer(input, notifier, known);
    notifier.emit(NotificationTypes.transferCompleted, {
      ...customerRef,
      type: result.type,
      merchantOrderNo: result.merchantOrderNo,
      amount: result.amount,
      currency: result.currency,
      payerAccountId: result.payer.accountId,
      payeeAccountId: result.payee.accountId,
    });
    await notifier.flush();
    return result;
  } catch (error) {
    notifier.emit(NotificationTypes.transferFailed, {
      ...customerRef,
      type: input.type,
      amount: input.amount,
      ...known,
      failure: isCancellation(error) ? { type: 'Cancelled', message: 'cancelled by an operator' } : summarize(error),
    });
    await notifier.flush();
    throw error;
  }
}

async function transfer(
  input: FundTransferInput & StartedWith,
  notifier: Notifier,
  known: { merchantOrderNo?: string },
): Promise<FundTransferResult> {
  const info = workflowInfo();
  const provider = providerCallsFor(input.wait);
  const attributes = new Attributes(input.startAttributes);
  const { status, enter, fail, step } = trackStatus<FundTransferStatus>({ stage: 'validating' }, transferStatusQuery);
  if (!isChild()) attributes.set({ customerRef: input.customerRef, flow: fundTransferWorkflow.flow });

  const accounts = await step(() =>
    provider.prepareTransfer({ payerAccountId: input.payerAccountId, payeeAccountId: input.payeeAccountId }),
  );
  notifier.enable(accounts);
  const { payer, payee } = accounts;
  const issues = transferIssues(input.type, input.amount, payer, payee, payer.digital);
  if (issues.length) fail(FailureTypes.invalidInput, issues);
  const short = affordabilityIssue(payer.availableBalance, input.amount, payer.currency);
  // A short balance may mean this transfer already went through (a resumed onboarding runs its
  // transfer child again): the transfer activity then finds it in the ledger by its key, or
  // refuses with the same InsufficientBalance before anything is sent.
  if (short && !patched(SHORT_BALANCE_FINDS_EARLIER_TRANSFER))
    fail(FailureTypes.insufficientBalance, [{ ...short, message: `account ${payer.accountId} ${short.message}` }]);

  const keys = fundTransferWorkflow.orderKeys(info.workflowId);
  // A COLLECTION has a step of its own; collections started before it sent the transfer's key.
  const merchantOrderNo = input.type === 'COLLECTION' && patched(COLLECTION_OWN_KEY) ? keys.collection : keys.transfer;
  status.merchantOrderNo = merchantOrderNo;
  known.merchantOrderNo = merchantOrderNo;
  attributes.addOrderNo(merchantOrderNo);
  // Once the provider may have it, the mutation is followed to its outcome even if cancelled.
  return await nonCancellable(async () => {
    enter('transferring');
    const sent = await step(() =>
      provider.transferFunds({
        merchantOrderNo,
        type: input.type,
        amount: input.amount,
        payerAccountId: payer.accountId,
        payeeAccountId: payee.accountId,
        remark: transferRemark(merchantOrderNo, input.remark),
      }),
    );

    enter('confirming');
    const profile = cardOperationWait(input.wait);
    const calls = longPollCalls(profile, LEDGER_DEADLINE_MS);
    const legs = await step(
      () =>
        calls.awaitTransferInLedger({
          merchantOrderNo,
          bizType: TRANSFER_DIRECTIONS[input.type].bizType,
          payerAccountId: payer.accountId,
          payeeAccountId: payee.accountId,
          poll: pollSettings(profile),
        }),
      () =>
        nonRetryable(
          FailureTypes.transferNotInLedger,
          `transfer ${merchantOrderNo} was sent but its ledger entries did not appear`,
        ),
    );
    for (const leg of [legs.payer, legs.payee]) {
      if (cmp(leg.amount, input.amount) !== 0) {
        fail(
          FailureTypes.transferNotInLedger,
          `transfer ${merchantOrderNo}: ledger entry ${leg.txId} of account ${leg.accountId} is ${leg.amount}, not ${input.amount}`,
        );
      }
    }
    enter('completed');
    return {
      type: input.type,
      merchantOrderNo,
      amount: input.amount,
      currency: payer.currency,
      sent: sent.sent,
      payer: legs.payer,
      payee: legs.payee,
    };
  });
}

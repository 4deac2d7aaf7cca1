/**
 * `walletFunding` (domain/wallet-funding.ts): deposit address → our on-chain deposit reaching
 * success (webhook where routed, polling otherwise; a deadline marks it expired) → credit the
 * receivedAmount → optionally a `fundTransfer` child to a MARGIN account → optionally a
 * `cardDeposit` child. Nothing moves unless the deposit succeeded.
 *
 * Once the credit is in the WALLET, a final failure or a cancel runs compensations
 * (compensation/saga.ts): the transfer's unspent part comes back by a COLLECTION
 * (compensation/transfer-return.ts), and the credit that did not reach the card, which the provider
 * cannot withdraw, is named in status and the failure and kept in a strandedMoney record.
 */
import { isCancellation, workflowInfo, type WorkflowInfo } from '@temporalio/workflow';
import type { DepositAddress } from '../activities';
import { NotificationTypes } from '../domain/notifications';
import { Notifier } from './reporting/notifier';
import { add, cmp, sub } from '../provider/money';
import type { CompensationOutcome, MoneyLeft } from '../domain/compensation';
import type { FieldIssue } from '../domain/cardholder-data';
import { FailureTypes } from '../domain/failure-types';
import {
  DEFAULT_FUNDING_DEADLINE_MS,
  DEPOSIT_CLOCK_SKEW_MS,
  fundingStatusQuery,
  matchesDeposit,
  maxDepositFor,
  type DepositMatch,
  type WalletFundingInput,
  type WalletFundingResult,
  type WalletFundingStatus,
} from '../domain/wallet-funding';
import { childIdOf } from '../domain/workflow-definition';
import { nonRetryable, summarize } from '../domain/failures';
import { nonCancellable } from './calls/non-cancellable';
import { compensatedFailure, Saga } from './compensation/saga';
import { returnUnspentTransfer } from './compensation/transfer-return';
import { runChild } from './calls/children';
import { cardOperationWait, longPollCalls, pollSettings, providerCallsFor } from './calls/profiles';
import { EventInbox } from './events/inbox';
import { walletDepositOf, type WalletDeposit } from '../domain/provider-records';
import { Attributes, isChild, type StartedWith } from './reporting/search';
import { trackStatus, type Tracker } from './reporting/tracked-status';
import { raceSignalAndPoll } from './events/waits';
import { cardDepositWorkflow, fundTransferWorkflow, walletFundingWorkflow } from '../domain/workflows';
import { AMOUNT_RE, LONG_ID_RE, isFinalOperationStatus } from '../provider/rules';

function inputIssues(input: WalletFundingInput): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const amount = (path: string, value: string | undefined) => {
    if (value !== undefined && (typeof value !== 'string' || !AMOUNT_RE.test(value) || cmp(value, '0') <= 0))
      issues.push({ path, message: 'must be a decimal string greater than 0' });
  };
  if (typeof input.coinKey !== 'string' || input.coinKey === '')
    issues.push({ path: 'coinKey', message: 'is required' });
  amount('expectedAmount', input.expectedAmount);
  amount('transfer.amount', input.transfer?.amount);
  amount('cardDeposit.amount', input.cardDeposit?.amount);
  if (input.transfer && !LONG_ID_RE.test(input.transfer.payeeAccountId ?? ''))
    issues.push({ path: 'transfer.payeeAccountId', message: 'must be an account id of digits' });
  if (input.cardDeposit && !input.cardDeposit.cardNo)
    issues.push({ path: 'cardDeposit.cardNo', message: 'is required' });
  if (input.cardDeposit && !LONG_ID_RE.test(input.cardDeposit.cardTypeId ?? ''))
    issues.push({ path: 'cardDeposit.cardTypeId', message: 'must be a card type id of digits' });
  return issues;
}

/**
 * The funding, and its result told to the merchant's backend (reporting/notifier.ts): completed, or
 * failed (a cancel included) with the failure the workflow ends with.
 */
export async function walletFunding(input: WalletFundingInput & StartedWith): Promise<WalletFundingResult> {
  const notifier = new Notifier();
  const known: { address?: string } = {};
  const customerRef = input.customerRef ? { customerRef: input.customerRef } : {};
  try {
    const result = await funding(input, notifier, known);
    notifier.emit(NotificationTypes.fundingCompleted, {
      ...customerRef,
      coinKey: result.coinKey,
      address: result.address,
      walletOrderNo: result.walletOrderNo,
      receivedAmount: result.receivedAmount,
      currency: result.currency,
      ...(result.txHash ? { txHash: result.txHash } : {}),
      ...(result.transfer ? { transfer: result.transfer } : {}),
      ...(result.deposit ? { deposit: result.deposit } : {}),
    });
    await notifier.flush();
    return result;
  } catch (error) {
    notifier.emit(NotificationTypes.fundingFailed, {
      ...customerRef,
      coinKey: input.coinKey,
      ...known,
      failure: isCancellation(error) ? { type: 'Cancelled', message: 'cancelled by an operator' } : summarize(error),
    });
    await notifier.flush();
    throw error;
  }
}

/** What the funding's steps work with: its input, the provider, its events, status and saga. */
interface Funding {
  input: WalletFundingInput & StartedWith;
  info: WorkflowInfo;
  provider: ReturnType<typeof providerCallsFor>;
  attributes: Attributes;
  events: EventInbox<'wallet_transaction_v2'>;
  tracker: Tracker<WalletFundingStatus>;
  saga: Saga;
  /** The merchant WALLET the credit is in, once read. */
  wallet: { accountId?: string };
}

async function funding(
  input: WalletFundingInput & StartedWith,
  notifier: Notifier,
  known: { address?: string },
): Promise<WalletFundingResult> {
  const info = workflowInfo();
  const provider = providerCallsFor(input.wait);
  const attributes = new Attributes(input.startAttributes);
  const events = new EventInbox(['wallet_transaction_v2']);
  const tracker = trackStatus<WalletFundingStatus>({ stage: 'validating' }, fundingStatusQuery, events);

  const saga = new Saga(input.customerRef);
  const run: Funding = { input, info, provider, attributes, events, tracker, saga, wallet: {} };

  // What moved is returned (or named) when a later step fails for good or an operator cancels.
  return saga.compensating(
    async () => {
      const address = await prepareAddress(run, notifier, known);
      // 1. Our deposit, final.
      const deposit = await awaitDeposit(run, address);
      const credit = deposit.receivedAmount;
      tracker.status.receivedAmount = credit;
      if (cmp(credit, '0') <= 0)
        tracker.fail(FailureTypes.depositFailed, `deposit ${deposit.orderNo} credited nothing after fees`);

      const result: WalletFundingResult = {
        coinKey: address.coinKey,
        address: address.address,
        walletOrderNo: deposit.orderNo,
        ...(deposit.txHash ? { txHash: deposit.txHash } : {}),
        ...(deposit.txAmount ? { txAmount: deposit.txAmount } : {}),
        receivedAmount: credit,
        currency: deposit.receivedCurrency,
        confirmations: address.confirmations,
      };
      keepCreditNamed(run, deposit, result);

      // 2. Optionally to a MARGIN account.
      const available = input.transfer ? await transferOn(run, deposit, result) : credit;
      // 3. Optionally to a card.
      if (input.cardDeposit) await depositToCard(run, available, result);

      tracker.enter('completed');
      return result;
    },
    (outcome, error) => compensatedFailure(tracker.status, outcome, error),
  );
}

/** The input checked, then the merchant's deposit address for the coin, listed for routing. */
async function prepareAddress(
  { input, provider, attributes, tracker }: Funding,
  notifier: Notifier,
  known: { address?: string },
): Promise<DepositAddress> {
  const issues = inputIssues(input);
  if (issues.length) tracker.fail(FailureTypes.invalidInput, issues);
  if (!isChild()) attributes.set({ customerRef: input.customerRef, flow: walletFundingWorkflow.flow });
  const { notifications, ...address } = await tracker.step(() =>
    provider.prepareDepositAddress({ coinKey: input.coinKey }),
  );
  notifier.enable({ notifications });
  tracker.status.address = address.address;
  known.address = address.address;
  // Deposits carry no merchantOrderNo; listing the address lets the receiver route
  // wallet_transaction_v2 events here by destinationAddress (webhooks/categories.ts).
  attributes.addOrderNo(address.address);
  return address;
}

/**
 * The customer's deposit to the address reaching a final status (its webhook, or the long poll)
 * before the deadline.
 */
async function awaitDeposit(
  { input, info, events, tracker }: Funding,
  address: DepositAddress,
): Promise<WalletDeposit> {
  const { status, fail } = tracker;
  const deadlineMs = input.deadlineMs ?? DEFAULT_FUNDING_DEADLINE_MS;
  tracker.enter('awaiting_deposit');
  const match: DepositMatch = {
    address: address.address,
    since: input.depositSince ?? info.startTime.getTime() - DEPOSIT_CLOCK_SKEW_MS,
    ...(input.txHash ? { txHash: input.txHash } : {}),
    ...(input.expectedAmount ? { expectedAmount: input.expectedAmount } : {}),
  };
  const fromEvent = (): WalletDeposit | undefined => {
    const record = events.latest(
      'wallet_transaction_v2',
      (r) => matchesDeposit(r, match) && isFinalOperationStatus(r.status),
    );
    return record ? walletDepositOf(record) : undefined;
  };
  const profile = cardOperationWait(input.wait);
  const calls = longPollCalls(profile, deadlineMs);
  const deposit = await tracker.step(
    () => raceSignalAndPoll(fromEvent, () => calls.awaitWalletDeposit({ match, poll: pollSettings(profile) })),
    () =>
      nonRetryable(
        FailureTypes.depositExpired,
        `no ${input.coinKey} deposit to ${address.address} succeeded within ${Math.round(deadlineMs / 1000)} s; nothing was moved`,
      ),
  );
  status.walletOrderNo = deposit.orderNo;
  status.depositStatus = deposit.status;
  if (deposit.status === 'fail') {
    fail(
      FailureTypes.depositFailed,
      `deposit ${deposit.orderNo} failed: ${deposit.message ?? 'no reason given'}; nothing was moved`,
    );
  }
  return deposit;
}

/**
 * The customer's credit is in the merchant WALLET now and the provider has no wallet withdraw:
 * should the funding stop, what of it did not move on stays there, named.
 */
function keepCreditNamed({ provider, saga, wallet }: Funding, deposit: WalletDeposit, result: WalletFundingResult) {
  const credit = deposit.receivedAmount;
  const creditLeft = (soFar: CompensationOutcome): MoneyLeft[] => {
    const movedOn = result.transfer?.amount ?? '0';
    const back = soFar.returned.reduce((sum, r) => add(sum, r.amount), '0');
    const amount = sub(add(credit, back), movedOn);
    if (cmp(amount, '0') <= 0) return [];
    return [
      {
        where: 'WALLET',
        account: wallet.accountId ?? `WALLET ${deposit.receivedCurrency}`,
        amount,
        currency: deposit.receivedCurrency,
        why: `the customer's deposit ${deposit.orderNo} stays in the merchant WALLET: the provider has no wallet withdraw`,
      },
    ];
  };
  saga.add(
    `the credit of deposit ${deposit.orderNo}`,
    async (soFar) => {
      wallet.accountId ??= (await provider.getAccountBalance({ currency: deposit.receivedCurrency })).accountId;
      return { remaining: creditLeft(soFar) };
    },
    () => creditLeft({ returned: [], remaining: [] }),
  );
}

/** The children are started for this customer (their CardflowCustomerRef). */
function asChildOf(input: WalletFundingInput): { customerRef?: string } {
  return input.customerRef ? { customerRef: input.customerRef } : {};
}

/**
 * A `fundTransfer` child moves the credit (or part of it) to the MARGIN account; returns what is
 * available there.
 */
async function transferOn(
  { input, info, provider, attributes, tracker, saga, wallet }: Funding,
  deposit: WalletDeposit,
  result: WalletFundingResult,
): Promise<string> {
  const { fail, step } = tracker;
  const target = input.transfer!;
  const credit = deposit.receivedAmount;
  tracker.enter('transferring');
  const amount = target.amount ?? credit;
  if (cmp(amount, credit) > 0)
    fail(FailureTypes.invalidInput, [{ path: 'transfer.amount', message: `${amount} exceeds the credited ${credit}` }]);
  const account = await step(() => provider.getAccountBalance({ currency: deposit.receivedCurrency }));
  wallet.accountId = account.accountId;
  // The credited money moves on to completion even if an operator cancels meanwhile.
  const transfer = await step(() =>
    nonCancellable(() =>
      runChild(
        fundTransferWorkflow,
        {
          type: 'TRANSFER',
          amount,
          payerAccountId: account.accountId,
          payeeAccountId: target.payeeAccountId,
          ...(input.customerRef ? { customerRef: input.customerRef } : {}),
          ...(input.wait ? { wait: input.wait } : {}),
        },
        { ...asChildOf(input), routeToParent: attributes },
      ),
    ),
  );
  result.transfer = { merchantOrderNo: transfer.merchantOrderNo, amount: transfer.amount };
  returnUnspentTransfer(saga, {
    moved: transfer,
    step: 'transfer',
    // The card deposit below is charged to the MARGIN account.
    chargedBy: [cardDepositWorkflow.orderKeys(childIdOf(cardDepositWorkflow, info.workflowId)).deposit],
    customerRef: input.customerRef,
    wait: input.wait,
  });
  return amount;
}

/** A `cardDeposit` child puts what is available (or the amount asked) on the card. */
async function depositToCard(
  { input, provider, tracker }: Funding,
  available: string,
  result: WalletFundingResult,
): Promise<void> {
  const { fail, step } = tracker;
  const target = input.cardDeposit!;
  tracker.enter('depositing');
  const cardType = await step(() => provider.getCardType({ cardTypeId: target.cardTypeId }));
  const amount = target.amount ?? maxDepositFor(available, cardType);
  if (amount === undefined) {
    return fail(FailureTypes.notEligible, [
      {
        path: 'cardDeposit',
        message: `${available} does not cover the card type's minimum deposit ${cardType.rechargeMinQuota} plus its fee`,
      },
    ]);
  }
  const deposited = await step(() =>
    nonCancellable(() =>
      runChild(
        cardDepositWorkflow,
        {
          cardNo: target.cardNo,
          amount,
          cardTypeId: target.cardTypeId,
          cardType,
          ...(input.transfer ? { accountId: input.transfer.payeeAccountId } : {}),
          ...(input.customerRef ? { customerRef: input.customerRef } : {}),
          ...(input.wait ? { wait: input.wait } : {}),
        },
        asChildOf(input),
      ),
    ),
  );
  result.deposit = { merchantOrderNo: deposited.merchantOrderNo, amount: deposited.amount, fee: deposited.fee };
}

/**
 * Card activities (spec: Card types and cards; Card records): card type lookup, create card
 * v2, deposit, the operation record lookup by merchantOrderNo, the long-poll over an operation,
 * and card info without sensitive data (also read by create and deposit once they succeed).
 */
import { cancellationSignal, log, sleep } from '@temporalio/activity';
import type { CardType } from '../provider/schemas/card-type';
import type { CardBirth } from '../domain/card-entity';
import { cardEntityInputFor, type CardEntityStartContext } from '../domain/card-entity-start';
import { FailureTypes } from '../domain/failure-types';
import { createAccountHelpers, type BalanceRequirement } from './accounts';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { nonRetryable } from '../domain/failures';
import { callIdempotent } from './idempotent';
import { awaitFinalByOrderNo } from './long-poll';
import { notificationPlanOf } from './notifications';
import { cardOperationOf, type CardOperation } from '../domain/provider-records';
import type { CardOperationRecord } from '../provider/schemas/card';
import type { CardSummary } from './types';
import { isFinalOperationStatus } from '../provider/rules';

/** What every card operation request carries besides its own fields. */
export interface OperationRequest {
  merchantOrderNo: string;
  /** What the charged account must hold before the operation is sent. */
  required?: BalanceRequirement;
  /** How long to give a pending operation to settle before answering (ms); none when absent. */
  settleMs?: number;
}

/**
 * A card operation with the card as it stood right after the operation succeeded within the
 * attempt; `card` is absent when the operation had not succeeded yet or the read failed.
 */
export interface CardOperationWithCard extends CardOperation {
  card?: CardSummary;
}

/**
 * The steps the card activities are made of: finding an operation by its key, sending one once,
 * letting it settle, and reading the card after it.
 */
function cardSteps(deps: ActivityDeps) {
  const { provider } = deps;
  const { requireBalance } = createAccountHelpers(deps);

  async function findOperation(merchantOrderNo: string): Promise<CardOperation | undefined> {
    const page = await provider.listCardTransactions(
      { pageNum: 1, pageSize: 10, merchantOrderNo },
      { signal: cancellationSignal() },
    );
    const record = page.records.find((r) => r.merchantOrderNo === merchantOrderNo);
    return record ? cardOperationOf(record, merchantOrderNo) : undefined;
  }

  /**
   * The operation as sent, or, when it is still pending and `settleMs` is given, as it stands
   * `settleMs` later: most operations settle in seconds, and waiting for that inside the
   * mutation's attempt lets the workflow skip the wait (and its timer) altogether.
   */
  async function settle(sent: CardOperation, settleMs: number | undefined): Promise<CardOperation> {
    if (!settleMs || isFinalOperationStatus(sent.status)) return sent;
    await sleep(settleMs);
    const now = await findOperation(sent.merchantOrderNo);
    return now && isFinalOperationStatus(now.status)
      ? { ...sent, ...now, cardNo: now.cardNo ?? sent.cardNo, orderNo: now.orderNo || sent.orderNo }
      : sent;
  }

  /**
   * Sends a card operation once (callIdempotent: looked up before and after an ambiguous
   * outcome), after checking the charged account covers `required` (its shortfall named after
   * `amountField`), and gives it `settleMs` to settle.
   */
  async function sendOperation(
    input: OperationRequest,
    amountField: string,
    send: (signal: AbortSignal) => Promise<CardOperationRecord>,
  ): Promise<CardOperation> {
    const { merchantOrderNo, required } = input;
    const { value } = await callIdempotent<CardOperation>({
      routes: deps.routes,
      merchantOrderNo,
      lookup: () => findOperation(merchantOrderNo),
      ...(required ? { precheck: () => requireBalance(required, amountField) } : {}),
      send: async () => cardOperationOf(await send(cancellationSignal()), merchantOrderNo),
    });
    return settle(value, input.settleMs);
  }

  /** Card info with balance; never the card number, CVV or expiry. */
  async function readCardSummary(cardNo: string): Promise<CardSummary> {
    const card = await provider.getCardInfo({ cardNo, onlySimpleInfo: false }, { signal: cancellationSignal() });
    return {
      cardNo: card.cardNo,
      cardTypeId: card.cardTypeId,
      ...(card.holderId ? { holderId: card.holderId } : {}),
      status: card.status,
      blocked: card.blocked,
      ...(card.balanceInfo
        ? { balance: { amount: card.balanceInfo.amount, currency: card.balanceInfo.currency } }
        : {}),
    };
  }

  /**
   * `operation` with the card read in the same attempt once it succeeded: the workflow then
   * schedules no getCardSummary activity (one billable action). A failed read is not the
   * operation's failure: the card is left out and the workflow reads it with that activity.
   */
  async function withCard(operation: CardOperation, cardNo = operation.cardNo): Promise<CardOperationWithCard> {
    if (operation.status !== 'success' || !cardNo) return operation;
    try {
      return { ...operation, card: await readCardSummary(cardNo) };
    } catch (error) {
      if (cancellationSignal().aborted) throw error;
      return operation;
    }
  }

  /**
   * A card made here gets its own workflow now (`cardEntity`), so it is followed from its issuance
   * on without a command in the issuing workflow; `context` (the issuing flow's customerRef and
   * waits) makes it the workflow a client's first call would have started. Best effort: a card
   * whose workflow could not be started is followed from its first own event, which the receiver
   * delivers with signal-with-start.
   */
  async function followCard(
    created: CardOperationWithCard,
    context: CardEntityStartContext | undefined,
    readAt: number,
  ): Promise<void> {
    if (!deps.cardEntities || !created.cardNo || created.status === 'fail') return;
    const born = birthOf(created, readAt);
    try {
      await deps.cardEntities.follow({ ...cardEntityInputFor(created.cardNo, context), ...(born ? { born } : {}) });
    } catch (error) {
      if (cancellationSignal().aborted) throw error;
      (deps.logger ?? log).warn('the card workflow of a new card was not started; its first event will start it', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /**
   * A card made within the attempt and read after it: its workflow learns it from this
   * (`CardBirth`) instead of catching up and reading it again.
   */
  function birthOf(created: CardOperationWithCard, readAt: number): CardBirth | undefined {
    const { card, transactionTime, ...create } = created;
    if (created.status !== 'success' || !card || card.cardNo !== created.cardNo || transactionTime === undefined)
      return undefined;
    const { cardNo: _cardNo, ...read } = card;
    return { create: { ...create, transactionTime }, card: read, readAt, ...notificationPlanOf(deps) };
  }

  async function getCardOperation(input: { merchantOrderNo: string }): Promise<CardOperation | null> {
    return (await findOperation(input.merchantOrderNo)) ?? null;
  }

  return { findOperation, sendOperation, readCardSummary, withCard, followCard, getCardOperation };
}

export function createCardActivities(deps: ActivityDeps) {
  const { provider } = deps;
  const { findOperation, sendOperation, readCardSummary, withCard, followCard, getCardOperation } = cardSteps(deps);

  return convertingFailures({
    /** The card type (bin) with its rules, fees and limits. */
    async getCardType(input: { cardTypeId: string }): Promise<CardType> {
      const types = await provider.listCardTypes({}, { signal: cancellationSignal() });
      const found = types.find((t) => t.cardTypeId === input.cardTypeId);
      if (!found)
        throw nonRetryable(FailureTypes.cardTypeNotFound, `cardTypeId: card type ${input.cardTypeId} does not exist`);
      return found;
    },

    /**
     * Create card v2 (amount = initial deposit, "0" when the card type takes none). Checks the
     * charged account covers card fee + deposit + fee first; idempotent by merchantOrderNo.
     */
    async createCard(
      input: OperationRequest & {
        cardTypeId: string;
        holderId?: string;
        amount: string;
        accountId?: string;
        /** Physical cards: the number printed on the card (never logged). */
        cardNumber?: string;
        /**
         * What the card's own workflow starts with besides the card number (the issuing flow's).
         */
        follow?: CardEntityStartContext;
      },
    ): Promise<CardOperationWithCard> {
      const created = await sendOperation(input, 'initialDeposit', (signal) =>
        provider.createCard(
          {
            merchantOrderNo: input.merchantOrderNo,
            cardTypeId: input.cardTypeId,
            amount: input.amount,
            ...(input.holderId === undefined ? {} : { holderId: input.holderId }),
            ...(input.accountId === undefined ? {} : { accountId: input.accountId }),
            ...(input.cardNumber === undefined ? {} : { cardNumber: input.cardNumber }),
          },
          { signal },
        ),
      );
      const readAt = Date.now();
      const made = await withCard(created);
      await followCard(made, input.follow, readAt);
      return made;
    },

    /**
     * Deposit to a card; checks the paying account covers amount + fee first; idempotent by
     * merchantOrderNo.
     */
    async depositCard(input: OperationRequest & { cardNo: string; amount: string }): Promise<CardOperationWithCard> {
      const sent = await sendOperation(input, 'amount', (signal) =>
        provider.depositCard(
          { merchantOrderNo: input.merchantOrderNo, cardNo: input.cardNo, amount: input.amount },
          { signal },
        ),
      );
      return withCard(sent, input.cardNo);
    },

    /** The operation record of a merchantOrderNo, or null when there is none. */
    getCardOperation,

    /** Polls the operation of `merchantOrderNo` until it succeeds or fails. */
    awaitCardOperation: awaitFinalByOrderNo({
      what: 'card operation',
      find: findOperation,
      status: (op) => op.status,
      reprobes: deps.reprobes,
    }),

    /** Card info with balance; never the card number, CVV or expiry. */
    async getCardSummary(input: { cardNo: string }): Promise<CardSummary> {
      return readCardSummary(input.cardNo);
    },
  });
}

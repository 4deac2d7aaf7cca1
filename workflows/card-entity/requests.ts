/**
 * The card entity's requests (its Updates): each is checked by its validator against the card's
 * projected status before it is accepted, runs once per requestId (a repeat gets the first
 * answer, or shares the running one), and runs in arrival order, one at a time (a ticket queue).
 */
import type { ApplicationFailure } from '@temporalio/workflow';
import {
  blockedRefusal,
  depositRequestIssues,
  requestIdIssues,
  unblockRequestIssues,
  type UnblockRequest,
  type CardEntityOutcome,
  type DepositRequest,
} from '../../domain/card-entity';
import { CARD_OPERATION_FROM, cardOperationInputIssues, type CardOperationKind } from '../../domain/card-operations';
import { FailureTypes } from '../../domain/failure-types';
import { nonRetryable, rethrown, summarize } from '../../domain/failures';
import { TicketQueue } from './ticket-queue';
import { BEFORE_ACTIVATION, type CardState } from './state';

/** What an operation request carries beyond its requestId. */
export interface OperationFields {
  clientRemark?: string;
  sealedPin?: string;
}

export class CardRequests {
  private readonly queue = new TicketQueue();
  /** Requests accepted and not yet finished, so a repeat sent meanwhile shares the first answer. */
  private readonly running: Record<string, Promise<CardEntityOutcome>> = {};

  constructor(private readonly card: CardState) {}

  /** Requests queued or running. */
  get pending(): number {
    return this.queue.pending;
  }

  /**
   * The validator of an operation Update: a malformed requestId is refused; a repeat is accepted
   * (it gets the first answer); a new request is refused on a cancelled card, when a field breaks
   * its rule, or when the projected status does not allow it.
   */
  validateOperation(requestId: unknown, kind: CardOperationKind, fields: OperationFields = {}): void {
    if (!this.admits(requestId)) return;
    const issues = cardOperationInputIssues(kind, { cardNo: this.card.cardNo, ...fields });
    if (issues.length) throw nonRetryable(FailureTypes.invalidInput, issues);
    // Checked before the status: a blocked card reads Freeze at the provider, and an unfreeze would
    // only be refused there.
    if (this.card.blocked && kind !== 'updatePin')
      throw nonRetryable(FailureTypes.operationNotAllowed, blockedRefusal(this.card.cardNo, kind));
    // A card read before its activation may be active by now: the provider decides.
    const projected = this.card.projected;
    if (
      projected !== undefined &&
      !BEFORE_ACTIVATION.includes(projected) &&
      !CARD_OPERATION_FROM[kind].includes(projected)
    ) {
      throw nonRetryable(
        FailureTypes.operationNotAllowed,
        `card ${this.card.cardNo} is (or will be) ${projected}; ${kind} needs ${CARD_OPERATION_FROM[kind].join(' or ')}`,
      );
    }
  }

  /**
   * The validator of the deposit Update: as an operation's, and its amount and card type by the
   * shared field rules.
   */
  validateDeposit(request: Partial<DepositRequest> | undefined): void {
    const fresh = this.admits(request?.requestId);
    const issues = depositRequestIssues(request);
    if (issues.length) throw nonRetryable(FailureTypes.invalidInput, issues);
    if (fresh && this.card.blocked)
      throw nonRetryable(FailureTypes.operationNotAllowed, blockedRefusal(this.card.cardNo, 'deposit'));
  }

  /**
   * The validator of the requestUnblock Update: its files, title and content by the work order
   * rules, and a card the issuing bank has blocked (any other card needs no application).
   */
  validateUnblock(request: Partial<UnblockRequest> | undefined): void {
    if (!this.admits(request?.requestId)) return;
    const issues = unblockRequestIssues(request);
    if (issues.length) throw nonRetryable(FailureTypes.invalidInput, issues);
    this.requireBlocked();
  }

  /**
   * Refuses an unblock for a card known not to be blocked (a card not read yet is given the benefit
   * of the doubt).
   */
  requireBlocked(): void {
    if (this.card.projected !== undefined && !this.card.blocked)
      throw nonRetryable(
        FailureTypes.operationNotAllowed,
        `card ${this.card.cardNo} is not blocked by the issuing bank (status ${this.card.projected}); an unblock work order is only for a blocked card`,
      );
  }

  /** Runs a request once: a repeat gets the finished answer, or shares the running one. */
  once<T extends CardEntityOutcome>(requestId: string, work: () => Promise<T>): Promise<T> {
    const earlier = this.card.answer(requestId) ?? this.running[requestId];
    if (earlier) return Promise.resolve(earlier as T);
    const promise = work();
    this.running[requestId] = promise;
    const clear = () => {
      delete this.running[requestId];
    };
    promise.then(clear, clear);
    return promise;
  }

  /**
   * Runs `work` when every earlier request has finished; a cancelled card refuses what is still
   * queued.
   */
  async serialized<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await this.queue.run(
        async () => {
          if (this.card.cancelled) throw this.cancelledFailure();
          return await work();
        },
        () => this.card.settle(),
      );
    } catch (error) {
      const summary = summarize(error);
      throw rethrown(summary);
    }
  }

  /**
   * Checks what every request shares: a well-formed requestId, and a card not cancelled. False
   * for a repeat (answered or running), which needs no more checks.
   */
  private admits(requestId: unknown): boolean {
    const issues = requestIdIssues(requestId);
    if (issues.length) throw nonRetryable(FailureTypes.invalidInput, issues);
    if (typeof requestId !== 'string' || this.card.answer(requestId) || requestId in this.running) return false;
    if (this.card.cancelled) throw this.cancelledFailure();
    return true;
  }

  private cancelledFailure(): ApplicationFailure {
    return nonRetryable(FailureTypes.cardCancelled, `card ${this.card.cardNo} is cancelled`);
  }
}

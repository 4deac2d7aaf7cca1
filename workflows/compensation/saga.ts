/**
 * Compensation as a saga: each step that moves money registers its undo once it has committed;
 * when the workflow fails for good or is cancelled, the undos run in reverse order, shielded from
 * cancellation so an operator's cancel cannot cut one short. Money that cannot go back is named
 * in a `strandedMoney` record (domain/stranded-money.ts) until an operator acknowledges it.
 * {@link COMPENSATE_MOVED_MONEY} is asked only when compensations would run, so the happy path
 * records no marker (docs/versioning.md, Patches).
 */
import {
  CancellationScope,
  isCancellation,
  patched,
  workflowInfo,
  type ApplicationFailure,
} from '@temporalio/workflow';
import {
  describeCompensation,
  type CompensationOutcome,
  type MoneyLeft,
  type MoneyReturned,
} from '../../domain/compensation';
import { strandedMoneyWorkflow } from '../../domain/workflows';
import { startAbandoned } from '../calls/children';
import { rethrown, rootApplicationFailure, summarize } from '../../domain/failures';

export const COMPENSATE_MOVED_MONEY = 'compensate-moved-money';

/** What a compensation reports: money it moved back, money it leaves where it is. */
export interface Undone {
  returned?: MoneyReturned;
  remaining?: MoneyLeft[];
}

interface Compensation {
  /** What it undoes, for the record of a compensation that failed. */
  step: string;
  /** Where the money stays when the compensation itself fails. */
  ifItFails: () => MoneyLeft[];
  undo: (soFar: CompensationOutcome) => Promise<Undone>;
}

export class Saga {
  private readonly compensations: Compensation[] = [];

  /** `customerRef`: whom the money was moved for, named on the record of what stays. */
  constructor(private readonly customerRef?: string) {}

  /** Registers the undo of a step that has committed. */
  add(step: string, undo: (soFar: CompensationOutcome) => Promise<Undone>, ifItFails: () => MoneyLeft[]): void {
    this.compensations.push({ step, undo, ifItFails });
  }

  /**
   * Runs `body`; if it fails or is cancelled after a step registered a compensation, runs them
   * (last first), hands what they did to `report`, and re-raises what ended the body.
   */
  async compensating<T>(
    body: () => Promise<T>,
    report: (outcome: CompensationOutcome, error: unknown) => Error | undefined,
  ): Promise<T> {
    try {
      return await body();
    } catch (error) {
      if (this.compensations.length && patched(COMPENSATE_MOVED_MONEY)) {
        const outcome = await CancellationScope.nonCancellable(async () => {
          const done = await this.runAll();
          if (!done.remaining.length) return done;
          return { ...done, strandedRecord: await this.recordStranded(done.remaining, error) };
        });
        const replaced = report(outcome, error);
        if (replaced !== undefined && !isCancellation(error)) throw replaced;
      }
      throw error;
    }
  }

  /**
   * Starts the record of money that stays at the provider, which outlives this workflow until
   * acknowledged.
   */
  private recordStranded(left: MoneyLeft[], error: unknown): Promise<string> {
    const { workflowId, runId } = workflowInfo();
    const reason = isCancellation(error) ? 'cancelled by an operator' : summarize(error).message;
    return startAbandoned(
      strandedMoneyWorkflow,
      { ...(this.customerRef ? { customerRef: this.customerRef } : {}), sourceWorkflowId: workflowId, reason, left },
      { ...(this.customerRef ? { customerRef: this.customerRef } : {}), suffix: `stranded.${runId}` },
    );
  }

  private async runAll(): Promise<CompensationOutcome> {
    const outcome: CompensationOutcome = { returned: [], remaining: [] };
    for (const c of [...this.compensations].reverse()) {
      try {
        const done = await c.undo(outcome);
        if (done.returned) outcome.returned.push(done.returned);
        outcome.remaining.push(...(done.remaining ?? []));
      } catch (error) {
        const why = `${c.step} could not be undone: ${summarize(error).message}`;
        outcome.remaining.push(...c.ifItFails().map((left) => ({ ...left, why })));
      }
    }
    return outcome;
  }
}

/** A status that reports compensations: what they did, and the failure they followed. */
export interface CompensatedStatus {
  compensation?: CompensationOutcome;
  failure?: { message: string };
}

/**
 * Puts what the compensations did in `status`; after a failure (not a cancel) returns the failure
 * to end with instead, its message naming what went back and what stays, since a failed
 * workflow's caller gets its failure instead of a result.
 */
export function compensatedFailure(
  status: CompensatedStatus,
  outcome: CompensationOutcome,
  error: unknown,
): ApplicationFailure | undefined {
  status.compensation = outcome;
  if (isCancellation(error)) return undefined;
  const { type, message } = summarize(error);
  const said = `${message}; ${describeCompensation(outcome)}`;
  if (status.failure) status.failure.message = said;
  return rethrown({ type, message: said }, rootApplicationFailure(error)?.details?.[0]);
}

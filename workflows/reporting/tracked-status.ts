/**
 * The one progress and failure idiom every workflow shares: a progress status answered by its
 * query, provider events (webhooks forwarded by signal) fed to the workflow's inbox, and a {@link
 * Tracker} that moves the status to a stage, records a failure in it and throws. A workflow fails
 * one way: `fail(type, reason)` for a rule it checks itself (the failure of domain/failures.ts's
 * `nonRetryable`), `step(run)` around an activity or child whose failure becomes its own, and
 * `guard(body)` around the whole body where anything else may escape. Registering handlers issues
 * no command, so a workflow using this replays the histories it made before.
 */
import { isCancellation, setHandler, type ApplicationFailure, type QueryDefinition } from '@temporalio/workflow';
import type { FieldIssue } from '../../domain/cardholder-data';
import type { FailureType } from '../../domain/failure-types';
import { isTimeout, nonRetryable, propagate, rethrown, summarize } from '../../domain/failures';
import { providerEventSignal, type ProviderEvent } from '../../domain/provider-event';
import type { FailureSummary } from '../../domain/summaries';

/** The least a progress status carries: where the process is, and why it failed. */
export interface StageStatus {
  stage: string;
  failure?: FailureSummary;
}

/**
 * How a workflow fails for a rule it checks itself: with a failure already made, or with a type
 * and its reason (a message, or the field issues), made by domain/failures.ts's `nonRetryable`.
 */
export interface Fail {
  (failure: ApplicationFailure): never;
  (type: FailureType, reason: string | readonly FieldIssue[]): never;
}

/** Where provider events go (the workflow's Inbox). */
export interface ProviderEventSink {
  add(event: ProviderEvent): unknown;
}

/**
 * The status of one workflow and the ways it moves. Its public members are bound functions (no
 * `this` at the call site), so they may be destructured. A workflow with more to report (the
 * onboarding: its stage history, search attributes, resumability) extends it and overrides the
 * protected hooks, never the idiom.
 */
export class Tracker<S extends StageStatus> {
  constructor(readonly status: S) {}

  /** Moves the status to `stage`. */
  readonly enter = (stage: S['stage']): void => this.moveTo(stage);

  /**
   * Records the failure as the status's (stage `failed`) and throws it: a failure already made,
   * or one made here from its type and reason ({@link nonRetryable}: a message, or field issues).
   */
  readonly fail: Fail = (first: ApplicationFailure | FailureType, reason?: string | readonly FieldIssue[]): never => {
    const failure = typeof first === 'string' ? nonRetryable(first, reason ?? '') : first;
    this.record({ type: failure.type ?? 'Error', message: failure.message });
    this.moveTo('failed');
    return this.raise(failure);
  };

  /**
   * Runs an activity or child step; its failure becomes this workflow's with the same type, or
   * `onTimeout()`'s when the activity timed out. A failure already recorded by {@link fail}
   * inside it passes through as it is.
   */
  readonly step = async <T>(run: () => Promise<T>, onTimeout?: () => ApplicationFailure): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (this.status.stage === 'failed') throw error;
      if (isCancellation(error)) {
        this.cancelled();
        throw error;
      }
      if (onTimeout && isTimeout(error)) return this.fail(onTimeout());
      const summary = summarize(error);
      this.record(summary);
      this.moveTo('failed');
      return this.raiseFrom(error, summary);
    }
  };

  /**
   * Runs a workflow's whole body: what escapes it marks the process failed (keeping a failure
   * already recorded) and is re-raised as the root failure with its type, message and details; a
   * cancellation (an operator stopped it) is marked `cancelled` and re-raised as it is.
   */
  readonly guard = async <T>(body: () => Promise<T>): Promise<T> => {
    try {
      return await body();
    } catch (error) {
      if (isCancellation(error)) {
        this.cancelled();
        throw error;
      }
      return this.escaped(error);
    }
  };

  protected moveTo(stage: S['stage'] | 'failed' | 'cancelled'): void {
    this.status.stage = stage;
  }

  protected record(failure: FailureSummary): void {
    this.status.failure = failure;
  }

  protected cancelled(): void {
    this.moveTo('cancelled');
  }

  /** Throws a failure the workflow raised itself ({@link fail}). */
  protected raise(failure: ApplicationFailure): never {
    throw failure;
  }

  /** Throws the failure a step ended with, as this workflow's own. */
  protected raiseFrom(_error: unknown, summary: FailureSummary): never {
    throw rethrown(summary);
  }

  /** What {@link guard} does with anything but a cancellation escaping the body. */
  protected escaped(error: unknown): never {
    this.moveTo('failed');
    this.status.failure ??= summarize(error);
    return propagate(error);
  }
}

/**
 * Registers the provider-event signal (when an `inbox` is given; without one, signals stay
 * unhandled as before) and then the status query, and returns the tracker of `status`.
 */
export function trackStatus<S extends StageStatus>(
  status: S,
  query: QueryDefinition<S>,
  inbox?: ProviderEventSink,
): Tracker<S> {
  if (inbox) setHandler(providerEventSignal, (event) => void inbox.add(event));
  setHandler(query, () => status);
  return new Tracker(status);
}

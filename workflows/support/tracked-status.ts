/**
 * The preamble every single-process workflow shares: a progress status answered by its query,
 * provider events (webhooks forwarded by signal) fed to the workflow's inbox, and the helpers
 * that move the status to a stage or record a failure in it and throw. Registering handlers
 * issues no command, so a workflow using this replays the histories it made before.
 */
import { isCancellation, setHandler, type ApplicationFailure, type QueryDefinition } from '@temporalio/workflow';
import { providerEventSignal, type ProviderEvent } from '../../domain/provider-event';
import type { FailureSummary } from '../../domain/workflow-types';
import { failWith, isTimeout, summarize } from './failures';

/** The least a progress status carries: where the process is, and why it failed. */
export interface StageStatus {
  stage: string;
  failure?: FailureSummary;
}

/** Where provider events go (EventInbox, RecordInbox). */
export interface ProviderEventSink {
  add(event: ProviderEvent): unknown;
}

/** Its functions close over the status (no `this`), so they may be destructured. */
export interface StatusTracker<S extends StageStatus> {
  /** The status object the query returns (the same object, updated in place). */
  readonly status: S;
  readonly enter: (stage: S['stage']) => void;
  /** Records the failure as the status's (stage `failed`) and throws it. */
  readonly fail: (failure: ApplicationFailure) => never;
  /**
   * Runs an activity or child step; its failure becomes this workflow's with the same type, or
   * `onTimeout()`'s when the activity timed out.
   */
  readonly step: <T>(run: () => Promise<T>, onTimeout?: () => ApplicationFailure) => Promise<T>;
}

/**
 * Registers the provider-event signal (when an `inbox` is given; without one, signals stay
 * unhandled as before) and then the status query, and returns the tracker of `status`.
 */
export function trackStatus<S extends StageStatus>(
  status: S,
  query: QueryDefinition<S>,
  inbox?: ProviderEventSink,
): StatusTracker<S> {
  if (inbox) setHandler(providerEventSignal, (event) => void inbox.add(event));
  setHandler(query, () => status);
  const fail = (failure: ApplicationFailure): never => {
    status.stage = 'failed';
    status.failure = { type: failure.type ?? 'Error', message: failure.message };
    throw failure;
  };
  return {
    status,
    enter: (stage) => {
      status.stage = stage;
    },
    fail,
    step: async (run, onTimeout) => {
      try {
        return await run();
      } catch (error) {
        if (isCancellation(error)) {
          status.stage = 'cancelled';
          throw error;
        }
        if (onTimeout && isTimeout(error)) return fail(onTimeout());
        const summary = summarize(error);
        return fail(failWith(summary.type, summary.message));
      }
    },
  };
}

/**
 * Live progress of any cardflow workflow for displays (the CLI, `npm start`), at a bounded cost.
 *
 * A Query is a billable action on Temporal Cloud ("Query received by Worker"), so polling it every
 * second through a week-long review would cost far more than the process itself. Instead the
 * watcher describes the execution (not an action) and runs the workflow's status query only when
 * the history has grown since the last look: a stage can only change through a new event.
 * {@link watchWorkflow} is the one loop; {@link watchProgress} is the onboarding's use of it, and
 * client/workflow-status.ts gives every other workflow's query.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OnboardingProgress } from '../domain';
import { getProgress, onboardingHandle } from './onboarding';

export interface WatchOptions {
  /** Time between describes; default 1000 ms. */
  pollMs?: number;
  /** Stops watching (resolves with the last progress seen). */
  signal?: AbortSignal;
}

export interface WatchResult<S = OnboardingProgress> {
  /** The execution status when watching stopped, e.g. COMPLETED, FAILED, RUNNING (aborted). */
  status: string;
  progress?: S;
}

/** What to watch: the execution, how to read its status (a query), and what counts as a change. */
export interface WatchTarget<S> {
  handle: Pick<WorkflowHandle, 'describe'>;
  read: () => Promise<S>;
  /** Two reads with the same key are the same stage (default: JSON of the read). */
  key?: (status: S) => string;
}

/**
 * Calls `onChange` each time the workflow's status changes (and once with the status it is in),
 * until the workflow closes or `signal` aborts.
 */
export async function watchWorkflow<S>(
  target: WatchTarget<S>,
  onChange: (status: S) => void,
  opts: WatchOptions = {},
): Promise<WatchResult<S>> {
  const pollMs = opts.pollMs ?? 1000;
  const key = target.key ?? ((s: S) => JSON.stringify(s));
  let lastLength = -1;
  let lastKey: string | undefined;
  let progress: S | undefined;
  const look = async (): Promise<void> => {
    const next = await target.read();
    progress = next;
    const k = key(next);
    if (k !== lastKey) {
      lastKey = k;
      onChange(next);
    }
  };
  for (;;) {
    const description = await target.handle.describe();
    const status = description.status.name;
    if (status !== 'RUNNING') {
      // A closed workflow still answers queries (a worker replays it); its last stage is what we
      // report.
      if (description.historyLength !== lastLength) await look().catch(() => undefined);
      return { status, ...(progress !== undefined ? { progress } : {}) };
    }
    if (description.historyLength !== lastLength) {
      // A query fails while the workflow task is failing or no worker polls: look again next time.
      if (
        await look().then(
          () => true,
          () => false,
        )
      )
        lastLength = description.historyLength;
    }
    if (opts.signal?.aborted) return { status, ...(progress !== undefined ? { progress } : {}) };
    await sleep(pollMs, undefined, opts.signal ? { signal: opts.signal } : undefined).catch(() => undefined);
  }
}

/**
 * Calls `onStage` each time the onboarding enters a new stage (and once with the stage it is in),
 * until the workflow closes or `signal` aborts.
 */
export async function watchProgress(
  client: Client,
  customerRef: string,
  onStage: (progress: OnboardingProgress) => void,
  opts: WatchOptions = {},
): Promise<WatchResult> {
  return watchWorkflow(
    {
      handle: onboardingHandle(client, customerRef),
      read: () => getProgress(client, customerRef),
      key: (p) => p.stage,
    },
    onStage,
    opts,
  );
}

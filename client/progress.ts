/**
 * Live progress of an onboarding for displays (the CLI, `npm start`), at a bounded cost.
 *
 * A Query is a billable action on Temporal Cloud ("Query received by Worker"), so polling it every
 * second through a week-long review would cost far more than the onboarding itself. Instead the
 * watcher describes the execution (not an action) and queries `progress` only when the history has
 * grown since the last look: a stage can only change through a new event.
 */
import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OnboardingProgress } from '../domain';
import { getProgress, onboardingHandle } from './onboarding';

export interface WatchOptions {
  /** Time between describes; default 1000 ms. */
  pollMs?: number;
  /** Stops watching (resolves with the last progress seen). */
  signal?: AbortSignal;
}

export interface WatchResult {
  /** The execution status when watching stopped, e.g. COMPLETED, FAILED, RUNNING (aborted). */
  status: string;
  progress?: OnboardingProgress;
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
  const handle = onboardingHandle(client, customerRef);
  const pollMs = opts.pollMs ?? 1000;
  let lastLength = -1;
  let lastStage: string | undefined;
  let progress: OnboardingProgress | undefined;
  const look = async (): Promise<void> => {
    const next = await getProgress(client, customerRef);
    progress = next;
    if (next.stage !== lastStage) {
      lastStage = next.stage;
      onStage(next);
    }
  };
  for (;;) {
    const description = await handle.describe();
    const status = description.status.name;
    if (status !== 'RUNNING') {
      // A closed workflow still answers queries (a worker replays it); its last stage is what we report.
      if (description.historyLength !== lastLength) await look().catch(() => undefined);
      return { status, ...(progress ? { progress } : {}) };
    }
    if (description.historyLength !== lastLength) {
      // A query fails while the workflow task is failing or no worker polls: look again next time.
      if (await look().then(() => true, () => false)) lastLength = description.historyLength;
    }
    if (opts.signal?.aborted) return { status, ...(progress ? { progress } : {}) };
    await sleep(pollMs, undefined, opts.signal ? { signal: opts.signal } : undefined).catch(() => undefined);
  }
}

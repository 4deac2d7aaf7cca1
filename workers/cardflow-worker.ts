/**
 * The two SDK Workers of a cardflow worker (workflows and actions; probes) run, stopped and
 * observed as one, with the part of the SDK Worker's interface the processes and tests use.
 */
import type { State, Worker } from '@temporalio/worker';

export class CardflowWorker {
  constructor(
    /** Workflows and every activity on the task queue. */
    readonly workflows: Worker,
    /** Probes of long waits on the probe queue. */
    readonly probes: Worker,
  ) {}

  /** Runs both until shutdown; when one stops (or fails) the other is shut down too. */
  async run(): Promise<void> {
    const stopOther = (other: Worker) => () => {
      if (other.getState() === 'RUNNING') other.shutdown();
    };
    const results = await Promise.allSettled([
      this.workflows.run().finally(stopOther(this.probes)),
      this.probes.run().finally(stopOther(this.workflows)),
    ]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Runs both while `fn` runs, then shuts both down (as Worker.runUntil). */
  runUntil<R>(fn: Promise<R> | (() => Promise<R>)): Promise<R> {
    return this.probes.runUntil(() => this.workflows.runUntil(fn));
  }

  /** Starts a graceful shutdown of both. */
  shutdown(): void {
    for (const worker of [this.workflows, this.probes]) if (worker.getState() === 'RUNNING') worker.shutdown();
  }

  /** The workflows worker's state ('RUNNING' only while both run). */
  getState(): State {
    const state = this.workflows.getState();
    return state === 'RUNNING' && this.probes.getState() !== 'RUNNING' ? this.probes.getState() : state;
  }

  /** The workflows worker's status (cache, in-flight activities of the task queue). */
  getStatus(): ReturnType<Worker['getStatus']> {
    return this.workflows.getStatus();
  }
}

/**
 * Requests an entity workflow runs one at a time, in arrival order: each takes a ticket and
 * waits (a timer-free condition, no command) until every earlier one has finished.
 */
import { condition } from '@temporalio/workflow';

export class TicketQueue {
  private nextTicket = 0;
  private serving = 0;
  private waiting = 0;

  /** Requests accepted and not yet finished (the one running included). */
  get pending(): number {
    return this.waiting;
  }

  /** Runs `work` in its turn; `onIdle` runs when it leaves nothing pending. */
  async run<T>(work: () => Promise<T>, onIdle: () => void): Promise<T> {
    const ticket = this.nextTicket++;
    this.waiting += 1;
    try {
      await condition(() => this.serving === ticket);
      return await work();
    } finally {
      this.serving += 1;
      this.waiting -= 1;
      if (this.waiting === 0) onIdle();
    }
  }
}

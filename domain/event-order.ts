/**
 * The one ordering rule for what a workflow learns of a provider state, by webhook, poll or its
 * own call's answer. Webhooks come at least once, unordered, and retried for up to a day, so an
 * event older than the state reached changes nothing:
 * - a record's status only moves forward; a final status is never replaced ({@link movesForward});
 * - a state several records set in turn (a card's status) is the newest record's by the
 *   provider's `transactionTime` ({@link advance}); a read vouches for the state as of when it was
 *   sent, less {@link READ_CLOCK_ALLOWANCE_MS} for the clocks' difference.
 * Plain records only: they cross continue-as-new.
 */

/**
 * How far the provider's clock may run behind the workflow's before a read hides a newer record.
 */
export const READ_CLOCK_ALLOWANCE_MS = 60_000;

/** A state and the provider time it was reached at (absent before anything was learned). */
export interface ReachedState {
  state?: string;
  /** Provider time (ms) of the newest record or read that set `state`. */
  at?: number;
}

/**
 * Moves `reached` to `state` learned as of `at` when that is newer than what it holds; an equal or
 * older observation (a duplicate, a late retry, a read sent before a newer record) changes
 * nothing. Returns whether it moved.
 */
export function advance(reached: ReachedState, state: string, at: number): boolean {
  if (reached.at !== undefined && at <= reached.at) return false;
  reached.state = state;
  reached.at = at;
  return true;
}

/**
 * The time a read sent at workflow time `sentAt` vouches for (see {@link READ_CLOCK_ALLOWANCE_MS}).
 */
export function readTime(sentAt: number): number {
  return sentAt - READ_CLOCK_ALLOWANCE_MS;
}

/**
 * Whether a record's status `next` may replace `current` (same record) where statuses are ranked
 * (a deposit's wait_process → processing → success | fail): never by a lower rank, since
 * deliveries are unordered (provider-notes, Webhooks); an equal rank may be pushed again with
 * amounts filled in.
 */
export function ranksForward(current: string | undefined, next: string, rank: (status: string) => number): boolean {
  return current === undefined || rank(next) >= rank(current);
}

/**
 * Whether a record's status `next` may replace `current` (same record): a non-final status never
 * replaces a final one; a final one may be pushed again with amounts filled in (an authorization's
 * fee or settlement amount moving from 0). The two-rank case of {@link ranksForward}.
 */
export function movesForward(current: string | undefined, next: string, isFinal: (status: string) => boolean): boolean {
  return ranksForward(current, next, (status) => (isFinal(status) ? 1 : 0));
}

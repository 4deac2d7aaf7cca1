/**
 * The idempotent call of every mutating activity, keyed on the merchantOrderNo (the walk of one:
 * docs/architecture.md, "The two main flows"). Before sending, the key is recorded as a route to
 * this workflow (activities/routes.ts) so its webhooks find it. A retry, a failed precheck, an
 * ambiguous outcome (transport error, timeout, 5xx) or a "Duplicate order number" answer is
 * followed by a lookup: a record found is returned and nothing is sent; none found fails
 * retryably, and the next attempt sends the same key (the provider acts once). Each lookup counts
 * in `cardflow_provider_lookups_total{reason, result}` (docs/observability.md).
 */
import { Context, activityInfo } from '@temporalio/activity';
import { FailureTypes } from '../domain/failure-types';
import type { RouteRecorder } from '../platform/storage/route-store';
import { isAmbiguous, isDuplicateOrder } from './failures';
import { retryable } from '../domain/failures';
import { recordRoute } from './routes';

export interface IdempotentCall<T> {
  merchantOrderNo: string;
  /** Sends the mutation with `merchantOrderNo`. */
  send: () => Promise<T>;
  /** Finds what an earlier call with `merchantOrderNo` did, or undefined. */
  lookup: () => Promise<T | undefined>;
  /**
   * Runs before the first attempt's send (balance checks). Not on retries: an earlier attempt
   * may have gone through and spent the balance; the provider's own check then applies.
   */
  precheck?: () => Promise<void>;
  /**
   * Where the route `order:<merchantOrderNo>` is recorded before the call (ActivityDeps.routes).
   */
  routes: RouteRecorder | undefined;
}

/** Where the result came from, for logs and tests. */
export type IdempotentSource = 'sent' | 'found';

type LookupReason = 'retry' | 'ambiguous' | 'precheck';

async function lookUp<T>(call: IdempotentCall<T>, reason: LookupReason): Promise<T | undefined> {
  const found = await call.lookup();
  Context.current()
    .metricMeter.createCounter('cardflow_provider_lookups', undefined, 'Order lookups before resending a mutation')
    .add(1, { reason, result: found === undefined ? 'absent' : 'found' });
  return found;
}

export async function callIdempotent<T>(call: IdempotentCall<T>): Promise<{ value: T; source: IdempotentSource }> {
  await recordRoute(call.routes, 'order', call.merchantOrderNo);
  if (activityInfo().attempt > 1) {
    const earlier = await lookUp(call, 'retry');
    if (earlier !== undefined) return { value: earlier, source: 'found' };
  } else if (call.precheck) {
    try {
      await call.precheck();
    } catch (error) {
      // The order may already exist with its money spent, e.g. when an operator resumed a
      // failed onboarding and this step re-runs: then it is not a shortfall but a step done.
      const earlier = await lookUp(call, 'precheck');
      if (earlier !== undefined) return { value: earlier, source: 'found' };
      throw error;
    }
  }
  try {
    return { value: await call.send(), source: 'sent' };
  } catch (error) {
    if (!isAmbiguous(error) && !isDuplicateOrder(error)) throw error;
    const existing = await lookUp(call, 'ambiguous');
    if (existing !== undefined) return { value: existing, source: 'found' };
    if (isDuplicateOrder(error)) {
      throw retryable(
        FailureTypes.orderNotFound,
        `merchantOrderNo ${call.merchantOrderNo} is already used but not found yet`,
      );
    }
    throw error;
  }
}

/**
 * `referenceRefresh`: reads every reference list from the provider and replaces the shared cache
 * (platform/storage/reference-store.ts) that the client's onboarding check reads. Run by a Temporal
 * Schedule the worker ensures at start, as reconciliation's is; a read only, so it sends the
 * provider nothing that costs or changes anything, and a failed run leaves the last lists in place.
 */

/** Nothing to choose: every list is read whole. */
export type ReferenceRefreshInput = Record<string, never>;

/** What a run stored: the number of records of each list, and when the provider answered. */
export interface ReferenceRefreshResult {
  lists: Record<string, number>;
  fetchedAt: number;
}

/** The id of the Temporal Schedule that runs the refresh. */
export const REFERENCE_SCHEDULE_ID = 'cardflow-reference-refresh';

/**
 * The refresh of the provider's reference data (domain/reference-refresh.ts): each list read whole
 * and stored over the last copy. Reads only; a list the provider does not answer fails the attempt,
 * and the lists already stored stay as they were until a later attempt stores them all.
 */
import { FailureTypes } from '../domain/failure-types';
import { nonRetryable } from '../domain/failures';
import type { ReferenceRefreshResult } from '../domain/reference-refresh';
import { REFERENCE_LIST_NAMES, readReferenceList } from '../provider/reference-lists';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';

export function createReferenceDataActivities(deps: ActivityDeps) {
  return convertingFailures({
    async refreshReferenceData(): Promise<ReferenceRefreshResult> {
      const store = deps.referenceStore;
      if (!store)
        throw nonRetryable(
          FailureTypes.invalidInput,
          'the worker has no reference store (ActivityDeps.referenceStore)',
        );
      const lists: Record<string, number> = {};
      let fetchedAt = 0;
      for (const name of REFERENCE_LIST_NAMES) {
        const read = await readReferenceList(deps.provider, name);
        await store.put(name, read);
        lists[name] = read.records.length;
        fetchedAt = Math.max(fetchedAt, read.fetchedAt);
      }
      return { lists, fetchedAt };
    },
  });
}

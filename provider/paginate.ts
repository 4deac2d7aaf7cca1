/**
 * Walks every record of a paged query (data = {total, records}; spec, "Response envelope").
 * Stops once `total` records have been seen or a page comes back empty, whichever is first,
 * so a provider that miscounts `total` cannot make it loop forever.
 */
import type { Page } from './operation';

/** Fetches one page by its 1-based number. */
export type PageFetcher<T> = (pageNumber: number) => Promise<Page<T>>;

/** Yields the records of pages `firstPage`, `firstPage + 1`, ... in order. */
export async function* paginatePages<T>(fetchPage: PageFetcher<T>, firstPage = 1): AsyncGenerator<T, void, undefined> {
  let seen = 0n;
  let skipped: bigint | undefined;
  for (let pageNumber = firstPage; ; pageNumber += 1) {
    const page = await fetchPage(pageNumber);
    if (page.records.length === 0) return;
    for (const record of page.records) yield record;
    // Pages before firstPage were skipped by the caller: count them at this page size.
    skipped ??= BigInt(firstPage - 1) * BigInt(page.records.length);
    seen += BigInt(page.records.length);
    if (skipped + seen >= BigInt(page.total)) return;
  }
}

import type { Page } from '../../../provider/operation';
import { paginatePages } from '../../../provider/paginate';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

function pages(all: number[], size: number, total = String(all.length)) {
  const asked: number[] = [];
  const fetch = async (n: number): Promise<Page<number>> => {
    asked.push(n);
    return { total, records: all.slice((n - 1) * size, n * size) };
  };
  return { asked, fetch };
}

describe('paginatePages', () => {
  it('walks every page in order and stops at total without asking for an extra page', async () => {
    const { asked, fetch } = pages([1, 2, 3, 4, 5, 6, 7], 3);
    expect(await collect(paginatePages(fetch))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('stops at an empty page when total overstates', async () => {
    const { asked, fetch } = pages([1, 2, 3, 4], 2, '100');
    expect(await collect(paginatePages(fetch))).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual([1, 2, 3]);
  });

  it('asks nothing more after an empty first page', async () => {
    const { asked, fetch } = pages([], 10, '0');
    expect(await collect(paginatePages(fetch))).toEqual([]);
    expect(asked).toEqual([1]);
  });

  it('starts at a later page and still stops at total', async () => {
    const { asked, fetch } = pages([1, 2, 3, 4, 5, 6], 2);
    expect(await collect(paginatePages(fetch, 2))).toEqual([3, 4, 5, 6]);
    expect(asked).toEqual([2, 3]);
  });

  it('stops early when the consumer breaks', async () => {
    const { asked, fetch } = pages([1, 2, 3, 4, 5, 6], 2);
    for await (const n of paginatePages(fetch)) if (n === 3) break;
    expect(asked).toEqual([1, 2]);
  });
});

/**
 * Paged queries (spec, "Limits"): pageNum default 1, pageSize default 10 (max 100, account
 * list max 10), newest first, `{ total, records }` with total a Long.
 */
import { jsonNumber } from '../../../provider/json';
import { DAY_MS, PAGE_NUM_DEFAULT, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../../provider/rules';
import { paramError, type Ctx } from './context';
import { optInt, optText, type Req } from './request';

export function page<T>(records: readonly T[], req: Req, toWire: (r: T) => unknown, maxSize = PAGE_SIZE_MAX): unknown {
  const pageNum = optInt(req, 'pageNum') ?? optInt(req, 'pageNo') ?? PAGE_NUM_DEFAULT;
  const pageSize = optInt(req, 'pageSize') ?? PAGE_SIZE_DEFAULT;
  if (pageNum < 1) throw paramError('pageNum', 'must be 1 or more');
  if (pageSize < 1 || pageSize > maxSize) throw paramError('pageSize', `must be 1 to ${maxSize}`);
  const start = (pageNum - 1) * pageSize;
  return { total: jsonNumber(records.length), records: records.slice(start, start + pageSize).map(toWire) };
}

/**
 * startTime/endTime filter on `time`. With `windowDays`, the range may span at most that many
 * days and defaults to the most recent window (ledger 30 days, wallet 90 days).
 */
export function inTimeRange<T>(
  ctx: Ctx,
  records: readonly T[],
  req: Req,
  time: (r: T) => number,
  windowDays?: number,
): T[] {
  let start = optInt(req, 'startTime');
  let end = optInt(req, 'endTime');
  if (start !== undefined && end !== undefined && start > end)
    throw paramError('startTime', 'must not be after endTime');
  if (windowDays !== undefined) {
    const span = windowDays * DAY_MS;
    if (start !== undefined && end !== undefined && end - start > span) {
      throw paramError('endTime', `time range must be at most ${windowDays} days`);
    }
    if (start === undefined && end === undefined) {
      end = ctx.now();
      start = end - span;
    } else if (start === undefined) start = (end as number) - span;
    else if (end === undefined) end = start + span;
  }
  return records.filter((r) => (start === undefined || time(r) >= start) && (end === undefined || time(r) <= end));
}

/** Keeps records whose `key` equals the request's field of the same name, when given. */
export function byField<T>(
  records: readonly T[],
  req: Req,
  field: string,
  value: (r: T) => unknown = (r) => (r as Record<string, unknown>)[field],
): T[] {
  const wanted = optText(req, field);
  return wanted === undefined ? [...records] : records.filter((r) => String(value(r)) === wanted);
}

/**
 * `byField` for each of `fields`, in turn: the records that match every filter the request sets.
 */
export function byFields<T>(records: readonly T[], req: Req, fields: readonly string[]): T[] {
  return fields.reduce<T[]>((kept, field) => byField(kept, req, field), [...records]);
}

/** Newest first, stable for equal times. */
export function newestFirst<T>(records: readonly T[], time: (r: T) => number): T[] {
  return records
    .map((r, i) => ({ r, i }))
    .sort((a, b) => time(b.r) - time(a.r) || b.i - a.i)
    .map((x) => x.r);
}

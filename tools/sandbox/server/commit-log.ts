/**
 * Every mutation the sandbox committed, in order: what a test (or a developer) reads to prove that
 * a retried, crashed or answer-lost call had exactly one effect at the provider. A mutation lands
 * here once the engine accepted it, whether or not its answer then reached the caller (a dropped
 * answer is marked). Only references are kept (operation, keys and the ids the answer named),
 * never personal data.
 */
import { isLosslessNumber } from '../../../provider/json';

export interface Commit {
  /** Order of commits, from 1. */
  seq: number;
  /** Operation name (provider/operations.ts). */
  operation: string;
  /** Sandbox clock time of the commit (ms). */
  at: number;
  /** The answer was dropped after the commit (request fault `dropResponseRate`). */
  dropped: boolean;
  /**
   * Identifying request fields and result ids: merchantOrderNo, holderId, cardNo, accountName,
   * coinKey, fileId, ...
   */
  refs: Record<string, string>;
}

/** Request fields and result fields that identify what a mutation touched or made. */
const REQUEST_REFS = ['merchantOrderNo', 'holderId', 'cardNo', 'accountName', 'coinKey', 'cardTypeId'] as const;
const RESULT_REFS = ['holderId', 'cardNo', 'fileId', 'accountId', 'address', 'orderNo'] as const;

function pick(from: unknown, names: readonly string[], into: Record<string, string>): void {
  const record = Array.isArray(from) ? from[0] : from;
  if (typeof record !== 'object' || record === null) return;
  for (const name of names) {
    const value = (record as Record<string, unknown>)[name];
    if (typeof value === 'string' || isLosslessNumber(value) || typeof value === 'number') into[name] ??= String(value);
  }
}

export class CommitLog {
  private readonly commits: Commit[] = [];

  record(operation: string, at: number, request: Record<string, unknown>, result: unknown, dropped: boolean): void {
    const refs: Record<string, string> = {};
    pick(request, REQUEST_REFS, refs);
    pick(result, RESULT_REFS, refs);
    this.commits.push({ seq: this.commits.length + 1, operation, at, dropped, refs });
  }

  /** The commits so far, optionally of one operation only. */
  list(filter: { operation?: string } = {}): Commit[] {
    return this.commits.filter((c) => filter.operation === undefined || c.operation === filter.operation);
  }
}

/**
 * The record of card-detail reveals: who was shown a card's details, why and when (never the
 * details), and the per-card limit on how often they may be shown. Every replica of a backend
 * shares it, so the limit holds across them: PostgreSQL when a database is configured
 * (platform/storage/postgres-reveal-log.ts), else this embedded default, one append-only file the
 * processes of one machine share, each check-and-record made under a lock directory (mkdir is
 * atomic), so two processes never both take the last reveal of a window.
 */
import { appendFile, mkdir, readFile, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** One reveal, as recorded: never a value of the card. */
export interface RevealRecord {
  cardNo: string;
  /** Who asked (the backend's user or service, free text). */
  caller: string;
  /** Why (a support ticket, the customer's own request), free text. */
  reason: string;
  /** When, ms since the epoch. */
  at: number;
}

/** At most `count` reveals of one card within any `windowMs`. */
export interface RevealLimit {
  count: number;
  windowMs: number;
}

export type RevealClaim =
  | { allowed: true; record: RevealRecord }
  /** Refused: `recent` reveals within the window; the next is allowed at `nextAt` (ms). */
  | { allowed: false; recent: number; nextAt: number };

export interface RevealLog {
  /**
   * Records a reveal of `request.cardNo` now, unless the limit is reached; one decision at a time
   * per card.
   */
  claim(request: Omit<RevealRecord, 'at'>, limit: RevealLimit): Promise<RevealClaim>;
  /** The reveals recorded for `cardNo`, oldest first. */
  list(cardNo: string): Promise<RevealRecord[]>;
  close(): Promise<void>;
}

/** The decision on the reveals recorded in the window, oldest first; shared by both stores. */
export function decideReveal(recentTimes: readonly number[], limit: RevealLimit, now: number): RevealClaim | undefined {
  const inWindow = recentTimes.filter((t) => t > now - limit.windowMs).sort((a, b) => a - b);
  if (inWindow.length < limit.count) return undefined;
  // The oldest reveal that must leave the window before one more fits in it.
  const leaving = inWindow[inWindow.length - limit.count]!;
  return { allowed: false, recent: inWindow.length, nextAt: leaving + limit.windowMs };
}

export const REVEAL_LOG = 'reveals.jsonl';
const LOCK_WAIT_MS = 10_000;
/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 30_000;

async function withDirLock<T>(lockDir: string, run: () => Promise<T>): Promise<T> {
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lockDir).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await rmdir(lockDir).catch(() => undefined);
      else if (Date.now() > until) throw new Error(`reveal log: ${lockDir} is held by another process for too long`);
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  try {
    return await run();
  } finally {
    await rmdir(lockDir).catch(() => undefined);
  }
}

/** The file store in `dir` (created on first use). */
export function createFileRevealLog(dir: string, clock: () => number = Date.now): RevealLog {
  const file = path.join(dir, REVEAL_LOG);
  const lockDir = path.join(dir, `${REVEAL_LOG}.lock`);
  const read = async (): Promise<RevealRecord[]> => {
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    // A line cut short by a crash mid-append is left out, never read as a record.
    return text
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as RevealRecord];
        } catch {
          return [];
        }
      });
  };
  return {
    async claim(request, limit) {
      await mkdir(dir, { recursive: true });
      return withDirLock(lockDir, async () => {
        const now = clock();
        const times = (await read()).filter((r) => r.cardNo === request.cardNo).map((r) => r.at);
        const refused = decideReveal(times, limit, now);
        if (refused) return refused;
        const record: RevealRecord = { ...request, at: now };
        await appendFile(file, `${JSON.stringify(record)}\n`);
        return { allowed: true, record };
      });
    },
    async list(cardNo) {
      return (await read()).filter((r) => r.cardNo === cardNo).sort((a, b) => a.at - b.at);
    },
    async close() {},
  };
}

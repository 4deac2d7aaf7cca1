/**
 * Routes: which workflow owns the provider events of a key (a merchantOrderNo, a holderId, a
 * deposit address, a card awaited). The activity that is about to make the provider call that
 * will produce the events, or to wait for them, records `key → its workflow id` durably before it
 * calls (activities/routes.ts); the
 * webhook receiver reads the key of a delivery and signals the workflow ids it finds. A key read
 * after it was written is always found, unlike a visibility list query (eventually consistent,
 * rate-limited), which is why routing no longer asks visibility (docs/architecture.md, Routing).
 *
 * Routes name workflow ids, never run ids: a signal by workflow id reaches the run current now,
 * so a workflow that continued as new (or was reset) still gets the events of the keys an
 * earlier run recorded. A key may have several owners: a shared per-coin deposit address is
 * watched by every running funding of that coin.
 *
 * This file holds the embedded default, one append-only file that every process of one machine
 * shares (the workers write, the receivers read); several machines share the PostgreSQL store
 * (platform/storage/postgres-route-store.ts).
 */
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import path from 'node:path';
import { schemaDefault } from '../config/schema';

/**
 * What a key names: an order (merchantOrderNo, or a wallet orderNo), a cardholder, a deposit
 * address, or a card whose own records a workflow waits for beside the card's workflow (a physical
 * card's activation, for its activation code).
 */
export type RouteKind = 'order' | 'holder' | 'address' | 'card';

/**
 * The key under which `value` of `kind` is stored: kinds never collide (`order:…`, `holder:…`,
 * `card:…`).
 */
export function routeKey(kind: RouteKind, value: string): string {
  return `${kind}:${value}`;
}

/**
 * One owner of a key, with the version of its route (so a stale route is closed, never a fresh
 * one).
 */
export interface RouteOwner {
  workflowId: string;
  /**
   * When the route was last recorded, as the store reports it; {@link RouteStore.markClosed}
   * compares it.
   */
  recordedAt: string;
  /** Its workflow was found closed: not signalled again, but the key still counts as routed. */
  closed: boolean;
}

/** The side the workers write. */
export interface RouteRecorder {
  /** Records `key → workflowId` durably (or refreshes it) before resolving. */
  record(key: string, workflowId: string): Promise<void>;
}

export interface RouteStore extends RouteRecorder {
  /**
   * Every workflow id recorded for `key`, closed ones included, as of now (a write that resolved
   * before is seen).
   */
  owners(key: string): Promise<RouteOwner[]>;
  /**
   * Marks `owner` of `key` closed (its workflow has finished), unless the route was recorded again
   * since `owner.recordedAt` (a new run under the same id calling with the same key). Kept, not
   * deleted: a key whose owners have all closed is ours and done, not one no route was recorded
   * for.
   */
  markClosed(key: string, owner: RouteOwner): Promise<void>;
  close(): Promise<void>;
}

export const ROUTE_LOG = 'routes.jsonl';

/** One line of the file: a route recorded, or (`closed`) one whose workflow was found closed. */
interface RouteLine {
  k: string;
  w: string;
  /** ISO time written; for `closed`, the `recordedAt` of the route it closes. */
  t: string;
  closed?: true;
}

/** How long the file store keeps its file open after its last use (busy: open throughout). */
const IDLE_CLOSE_MS = 2_000;
/** What one read takes at most; a reader behind by more reads again. */
const READ_CHUNK = 64 * 1024;

/**
 * The file store: every process appends whole lines to one file opened with O_APPEND (each line
 * is one write, so lines of several processes never interleave) and syncs it before resolving;
 * a reader reads what was appended since its last read before every lookup, so a route a worker
 * wrote before its provider call is seen by the receiver that gets the event. The file stays
 * open while the store is in use and closes after {@link IDLE_CLOSE_MS} without a call, so a
 * busy receiver or worker pays one read or one write and sync per call (no open, stat or
 * close), and a store nobody closes (a test's, a worker's default) holds nothing for long. The
 * file grows by one line per activity attempt that records: it belongs with the dev server's
 * data and goes when that is reset (never rewritten while open: another process would go on
 * appending to the old file); production uses PostgreSQL.
 */
export function createFileRouteStore(opts: { dir?: string } = {}): RouteStore {
  const dir = path.resolve(opts.dir ?? schemaDefault('CARDFLOW_ROUTE_DIR'));
  const file = path.join(dir, ROUTE_LOG);
  /** key → workflow id → its route, as of `offset`. */
  const routes = new Map<string, Map<string, { t: string; closed: boolean }>>();
  let offset = 0;
  let partial = '';
  const decoder = new StringDecoder('utf8');
  const chunk = Buffer.allocUnsafe(READ_CHUNK);
  let reading: Promise<void> = Promise.resolve();
  let opened: Promise<FileHandle> | undefined;
  let users = 0;
  let idle: NodeJS.Timeout | undefined;

  function closeHandle(): Promise<void> {
    const closing = opened;
    opened = undefined;
    return closing ? closing.then((handle) => handle.close()).catch(() => undefined) : Promise.resolve();
  }

  /** Runs `use` on the open file (O_APPEND for writes, positioned reads), opening it if needed. */
  async function withFile<T>(use: (handle: FileHandle) => Promise<T>): Promise<T> {
    clearTimeout(idle);
    users += 1;
    try {
      opened ??= mkdir(dir, { recursive: true }).then(() => open(file, 'a+'));
      const handle = await opened.catch((error: unknown) => {
        opened = undefined;
        throw error;
      });
      return await use(handle);
    } finally {
      users -= 1;
      if (users === 0) idle = setTimeout(() => void closeHandle(), IDLE_CLOSE_MS).unref();
    }
  }

  function apply(line: RouteLine): void {
    const owners = routes.get(line.k) ?? new Map<string, { t: string; closed: boolean }>();
    if (line.closed) {
      if (owners.get(line.w)?.t === line.t) owners.set(line.w, { t: line.t, closed: true });
    } else {
      owners.set(line.w, { t: line.t, closed: false });
    }
    routes.set(line.k, owners);
  }

  function applyText(text: string): void {
    const lines = (partial + text).split('\n');
    // The last piece is a line still being written (or empty): kept until its newline arrives.
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        apply(JSON.parse(line) as RouteLine);
      } catch {
        // A line torn by a crash mid-write: its activity failed before calling, and records again.
      }
    }
  }

  const readNew = () =>
    withFile(async (handle) => {
      for (;;) {
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
        if (bytesRead === 0) return;
        offset += bytesRead;
        applyText(decoder.write(chunk.subarray(0, bytesRead)));
        if (bytesRead < chunk.length) return;
      }
    });

  /** Reads what other processes appended; one read at a time, in order. */
  function catchUp(): Promise<void> {
    reading = reading.then(readNew, readNew);
    return reading;
  }

  const append = (line: RouteLine) =>
    withFile(async (handle) => {
      await handle.write(`${JSON.stringify(line)}\n`);
      await handle.datasync();
    });

  return {
    async record(key, workflowId) {
      await append({ k: key, w: workflowId, t: new Date().toISOString() });
    },
    async owners(key) {
      await catchUp();
      return [...(routes.get(key) ?? [])].map(([workflowId, { t, closed }]) => ({
        workflowId,
        recordedAt: t,
        closed,
      }));
    },
    async markClosed(key, owner) {
      await append({ k: key, w: owner.workflowId, t: owner.recordedAt, closed: true });
    },
    async close() {
      await reading.catch(() => undefined);
      clearTimeout(idle);
      await closeHandle();
    },
  };
}

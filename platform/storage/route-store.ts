/**
 * Routes: which workflow owns the provider events of a key (a merchantOrderNo, holderId, deposit
 * address, card). The activity records `key → workflow id` durably before the call that produces
 * the events (activities/routes.ts); the receiver looks the key up and signals. A key read after
 * it was written is always found, unlike an eventually consistent visibility query. Routes name
 * workflow ids, never run ids, so a continued or reset run still gets its keys' events; a key may
 * have several owners (a shared deposit address). This file is the embedded default, shared by
 * the processes of one machine; several machines share PostgreSQL (postgres-route-store.ts).
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
 * The file store: each process appends whole lines with O_APPEND (one write each, so lines never
 * interleave) and syncs before resolving; a reader reads what was appended since its last read
 * before every lookup, so a route written before a provider call is seen when its event comes.
 * The file stays open while in use and closes after {@link IDLE_CLOSE_MS} idle. It grows by one
 * line per recording attempt and goes with the dev server's data (never rewritten while open:
 * another process would go on appending to the old file); production uses PostgreSQL.
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

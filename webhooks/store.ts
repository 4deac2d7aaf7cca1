/**
 * The receiver's delivery log, one JSON line per webhook under `.data/webhooks/`: repeats of an
 * `X-WSB-REQUEST-ID` must be dropped across restarts, and unowned events kept where an operator can
 * read them, without a workflow (and its actions) per webhook. One receiver per data directory;
 * several share the PostgreSQL store (webhooks/postgres-store.ts). Entries past the retention
 * (7 days, past the provider's last retry) go when the store opens. An entry that is the only
 * record of its event is synced before the delivery is acknowledged; a `not_forwarded` one (a
 * non-final status no workflow acts on, most deliveries) is written unsynced: a power cut may lose
 * it, and the provider still has the record. Workflows de-duplicate again, so a slipped repeat has
 * no second effect.
 */
import { createHash } from 'node:crypto';
import { type FileHandle, mkdir, open, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { schemaDefault } from '../platform/config/schema';

export type WebhookOutcome = 'signalled' | 'no_owner' | 'not_forwarded' | 'unknown_category' | 'unparseable';

/** One handled webhook. Written by the receiver only: plain JSON, ids and amounts as strings. */
export interface WebhookEntry {
  requestId: string;
  category: string;
  outcome: WebhookOutcome;
  /** Workflows the event was signalled to (empty unless `signalled`). */
  workflowIds: string[];
  /** ISO time the receiver recorded the entry. */
  recordedAt: string;
  /** Why an event was not forwarded (`unparseable`: field and rule). */
  problem?: string;
  /** The parsed record of a known category (personal fields already dropped by its schema). */
  record?: Record<string, unknown>;
  /** The raw body of an unknown category, kept verbatim for an operator. */
  body?: string;
}

/**
 * What `claim` found: the right to forward is ours, the delivery is already recorded, or another
 * replica holds it.
 */
export type WebhookClaim = 'claimed' | 'handled' | 'busy';

export interface WebhookStore {
  /** The entry of an already handled request id, if any. */
  get(requestId: string): WebhookEntry | undefined | Promise<WebhookEntry | undefined>;
  /**
   * Records the outcome before resolving (and ends a claim on it): durably, or for a
   * `not_forwarded` entry at least written where a crash of this process keeps it.
   */
  append(entry: WebhookEntry): Promise<void>;
  /**
   * Only for a store shared by several receivers: takes the right to forward `requestId` for a
   * lease, so a delivery that reaches two replicas at once is forwarded once, and one whose replica
   * died while forwarding is taken over when the lease runs out. Absent: one receiver per store.
   */
  claim?(requestId: string): Promise<WebhookClaim>;
  /** Gives a claim back without recording anything (forwarding failed; the provider retries). */
  release?(requestId: string): Promise<void>;
  close(): Promise<void>;
}

export interface FileWebhookStoreOptions {
  /** Directory of the log; default `CARDFLOW_WEBHOOK_DATA_DIR`'s, under the working directory. */
  dir?: string;
  /** Entries older than this are dropped at open; default 7 days. */
  retentionMs?: number;
  now?: () => number;
}

export const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000;
export const DELIVERY_LOG = 'deliveries.jsonl';

function readEntries(text: string): WebhookEntry[] {
  const entries: WebhookEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      // Our own file: every value is a string or a plain array, so JSON.parse loses nothing.
      entries.push(JSON.parse(line) as WebhookEntry);
    } catch {
      // A line torn by a crash mid-write; its webhook was never acknowledged and will be retried.
    }
  }
  return entries;
}

/**
 * The file delivery log. Appends made while a write is syncing wait and go together in the next
 * write and sync (group commit), so a burst of deliveries costs one sync per batch instead of one
 * per delivery. Each resolves once its line is on disk; a batch of `not_forwarded` entries alone
 * resolves once written, without a sync (see the header).
 */
class FileWebhookStore implements WebhookStore {
  private pending: Array<{ entry: WebhookEntry; done: () => void; failed: (error: unknown) => void }> = [];
  private flushing = false;
  private flushed: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: FileHandle,
    private readonly byRequestId: Map<string, WebhookEntry>,
  ) {}

  get(requestId: string): WebhookEntry | undefined {
    return this.byRequestId.get(requestId);
  }

  append(entry: WebhookEntry): Promise<void> {
    return new Promise<void>((done, failed) => {
      this.pending.push({ entry, done, failed });
      if (!this.flushing) this.flushed = this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        await this.file.appendFile(batch.map(({ entry }) => `${JSON.stringify(entry)}\n`).join(''));
        if (batch.some(({ entry }) => entry.outcome !== 'not_forwarded')) await this.file.datasync();
        for (const { entry, done } of batch) {
          this.byRequestId.set(entry.requestId, entry);
          done();
        }
      } catch (error) {
        for (const { failed } of batch) failed(error);
      }
    }
    this.flushing = false;
  }

  async close(): Promise<void> {
    await this.flushed;
    await this.file.close();
  }
}

/**
 * Opens (creating if needed) the delivery log, loads the request ids it holds, drops expired
 * entries.
 */
export async function openFileWebhookStore(opts: FileWebhookStoreOptions = {}): Promise<WebhookStore> {
  const dir = path.resolve(opts.dir ?? schemaDefault('CARDFLOW_WEBHOOK_DATA_DIR'));
  const retentionMs = opts.retentionMs ?? DEFAULT_RETENTION_MS;
  const now = opts.now ?? Date.now;
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, DELIVERY_LOG);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const all = readEntries(text);
  const cutoff = now() - retentionMs;
  const kept = all.filter((e) => Date.parse(e.recordedAt) >= cutoff);
  // Rewritten when entries expired, or when a crash left a torn last line the next append would
  // join.
  if (kept.length !== all.length || (text !== '' && !text.endsWith('\n'))) {
    const tmp = `${file}.tmp`;
    await writeFile(tmp, kept.map((e) => `${JSON.stringify(e)}\n`).join(''));
    await rename(tmp, file);
  }
  const byRequestId = new Map(kept.map((e) => [e.requestId, e]));
  return new FileWebhookStore(await open(file, 'a'), byRequestId);
}

/**
 * A dedupe key for a delivery without `X-WSB-REQUEST-ID`: the same body is the same record state.
 * A body is the query record with its `updateTime`, so a state reached again later (a cardholder
 * rejected in a second review round) is another body, never taken for a repeat of the first.
 */
export function bodyRequestId(rawBody: Uint8Array): string {
  return `body-sha256-${createHash('sha256').update(rawBody).digest('hex').slice(0, 32)}`;
}

/**
 * Notifications the backend did not take within the delivery window: recorded here by the worker
 * (activities/notifications.ts), counted on `cardflow_notifications_undeliverable_total`, listed
 * by `cardflow events list` and sent again by `cardflow events resend <id>`.
 *
 * Two stores, as for the webhook receiver's delivery log (webhooks/store.ts says why a file and
 * not Temporal): with CARDFLOW_DATABASE_URL a PostgreSQL table every worker and the CLI reach
 * (platform/notifications/postgres-store.ts), otherwise an append-only JSON-lines file under
 * `.data/notifications/` (CARDFLOW_NOTIFY_DATA_DIR) for the processes of one machine. The file is
 * read whole at every call, so the worker's appends and the CLI's are seen by the other process.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** One undelivered notification. */
export interface UndeliveredEntry {
  /** The event's id (a resend keeps it). */
  id: string;
  type: string;
  workflowId: string;
  /** When it was recorded (ISO). */
  recordedAt: string;
  /** The last failure: the backend's status, or why it could not be reached. */
  reason: string;
  /**
   * The event's JSON as it was sent, for a resend; absent when it must not be kept (a 3DS code
   * past its expiry: resending it would help nobody and keep a secret at rest).
   */
  body?: string;
  /** When an operator's resend was taken by the backend (ISO); absent while still undelivered. */
  resentAt?: string;
}

export interface UndeliveredStore {
  /** Records (or records again, the latest wins) an undelivered event, durably. */
  record(entry: UndeliveredEntry): Promise<void>;
  /** Every entry, oldest first; `pending` only those not resent since. */
  list(opts?: { pending?: boolean }): Promise<UndeliveredEntry[]>;
  get(id: string): Promise<UndeliveredEntry | undefined>;
  /** Marks a resent entry as delivered. */
  markResent(id: string, at: string): Promise<void>;
  close(): Promise<void>;
}

export const UNDELIVERED_LOG = 'undelivered.jsonl';

type Line = UndeliveredEntry | { id: string; resentAt: string; kind: 'resent' };

class FileUndeliveredStore implements UndeliveredStore {
  constructor(private readonly file: string) {}

  private async entries(): Promise<Map<string, UndeliveredEntry>> {
    const text = await readFile(this.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    const byId = new Map<string, UndeliveredEntry>();
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      let line: Line;
      try {
        // Our own file: every value is a string, so JSON.parse loses nothing.
        line = JSON.parse(raw) as Line;
      } catch {
        continue; // a line torn by a crash mid-write: the activity that wrote it is retried
      }
      if ('kind' in line) {
        const entry = byId.get(line.id);
        if (entry) byId.set(line.id, { ...entry, resentAt: line.resentAt });
      } else {
        byId.delete(line.id); // recorded again: it moves to the end, undelivered
        byId.set(line.id, line);
      }
    }
    return byId;
  }

  private async append(line: Line): Promise<void> {
    await appendFile(this.file, `${JSON.stringify(line)}\n`, { flush: true });
  }

  record(entry: UndeliveredEntry): Promise<void> {
    const { resentAt: _dropped, ...fresh } = entry;
    return this.append(fresh);
  }

  async list(opts: { pending?: boolean } = {}): Promise<UndeliveredEntry[]> {
    const all = [...(await this.entries()).values()];
    return opts.pending ? all.filter((e) => e.resentAt === undefined) : all;
  }

  async get(id: string): Promise<UndeliveredEntry | undefined> {
    return (await this.entries()).get(id);
  }

  markResent(id: string, at: string): Promise<void> {
    return this.append({ id, resentAt: at, kind: 'resent' });
  }

  async close(): Promise<void> {}
}

/**
 * The store in `dir` (created if needed); default `.data/notifications` under the working
 * directory.
 */
export async function openFileUndeliveredStore(dir = path.join(process.cwd(), '.data', 'notifications')) {
  await mkdir(dir, { recursive: true });
  return new FileUndeliveredStore(path.join(dir, UNDELIVERED_LOG));
}

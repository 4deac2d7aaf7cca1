/**
 * The delivery log and dedupe in PostgreSQL, shared by every replica of the webhook receiver
 * behind the load balancer (`CARDFLOW_DATABASE_URL`). One row per request id: a replica first
 * claims the row for a lease, forwards, then records the outcome on it. So a repeat that reaches
 * two replicas at once is forwarded once (the second finds the claim), and a delivery whose
 * replica dies between claim and record is forwarded by whichever replica gets the provider's next
 * retry once the lease has run out. Entries past the retention are deleted at start, as the file
 * log drops them (webhooks/store.ts says why seven days).
 */
import { hostname } from 'node:os';
import type { Pool } from 'pg';
import { openPool } from '../platform/storage/postgres';
import { requireSchema } from '../platform/storage/schema-versions';
import { DEFAULT_RETENTION_MS, type WebhookClaim, type WebhookEntry, type WebhookStore } from './store';

/** How long a claim holds: far longer than a forward takes (a route lookup and a few signals). */
export const DEFAULT_CLAIM_LEASE_MS = 15_000;

export interface PostgresWebhookStoreOptions {
  /** A pool to use (not closed by the store); default one of its own on `url`. */
  pool?: Pool;
  /**
   * Who holds a claim, for an operator reading the table; default the machine's (or container's)
   * host name, as the operating system gives it, and the pid.
   */
  replica?: string;
  claimLeaseMs?: number;
  retentionMs?: number;
}

export async function openPostgresWebhookStore(
  url: string,
  opts: PostgresWebhookStoreOptions = {},
): Promise<WebhookStore> {
  const pool = opts.pool ?? openPool(url, { max: 8 });
  const replica = opts.replica ?? `${hostname()}:${process.pid}`;
  const leaseMs = opts.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS;
  await requireSchema(pool);
  await pool.query(
    `DELETE FROM cardflow_webhook_deliveries WHERE recorded_at < now() - $1 * interval '1 millisecond'`,
    [opts.retentionMs ?? DEFAULT_RETENTION_MS],
  );
  return {
    async get(requestId) {
      const { rows } = await pool.query<{ entry: WebhookEntry }>(
        'SELECT entry FROM cardflow_webhook_deliveries WHERE request_id = $1 AND entry IS NOT NULL',
        [requestId],
      );
      return rows[0]?.entry;
    },
    async claim(requestId): Promise<WebhookClaim> {
      // One statement: insert a fresh claim, or take over an expired one; a row it did not touch
      // is either recorded (handled) or claimed by a live replica (busy).
      const { rows } = await pool.query<{ request_id: string }>(
        `INSERT INTO cardflow_webhook_deliveries (request_id, claimed_by, claimed_until)
         VALUES ($1, $2, now() + $3 * interval '1 millisecond')
         ON CONFLICT (request_id) DO UPDATE
           SET claimed_by = EXCLUDED.claimed_by, claimed_until = EXCLUDED.claimed_until
           WHERE cardflow_webhook_deliveries.entry IS NULL
             AND (cardflow_webhook_deliveries.claimed_until IS NULL
                  OR cardflow_webhook_deliveries.claimed_until < now())
         RETURNING request_id`,
        [requestId, replica, leaseMs],
      );
      if (rows.length > 0) return 'claimed';
      const seen = await pool.query<{ recorded: boolean }>(
        'SELECT entry IS NOT NULL AS recorded FROM cardflow_webhook_deliveries WHERE request_id = $1',
        [requestId],
      );
      return seen.rows[0]?.recorded ? 'handled' : 'busy';
    },
    async release(requestId) {
      await pool.query(
        'UPDATE cardflow_webhook_deliveries SET claimed_by = NULL, claimed_until = NULL WHERE request_id = $1 AND entry IS NULL AND claimed_by = $2',
        [requestId, replica],
      );
    },
    async append(entry) {
      await pool.query(
        `INSERT INTO cardflow_webhook_deliveries (request_id, entry, recorded_at)
         VALUES ($1, $2, $3)
         ON CONFLICT (request_id) DO UPDATE
           SET entry = EXCLUDED.entry, recorded_at = EXCLUDED.recorded_at, claimed_by = NULL, claimed_until = NULL`,
        [entry.requestId, JSON.stringify(entry), entry.recordedAt],
      );
    },
    async close() {
      if (!opts.pool) await pool.end();
    },
  };
}

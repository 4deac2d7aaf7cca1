/**
 * Work-order supporting files in PostgreSQL (bytea), with the fileIds their uploads returned: the
 * production store, which every worker and backend reaches, so a file put by one machine is read by
 * whichever worker runs the upload (platform/storage/file-store.ts says why files travel by
 * reference). Supporting files are photos and PDFs of a few megabytes at most, well within a bytea
 * value.
 */
import type { Pool } from 'pg';
import { CLEAR_FILES, type FileSealer } from './file-sealing';
import { type FileStore, contentRef } from './file-store';
import { openPool } from './postgres';
import { requireSchema } from './schema-versions';

/**
 * The PostgreSQL file store on `url`. Its schema is checked at once (in the background; every
 * call waits for that), so a worker configured with a wrong URL fails its first upload loudly.
 */
export function createPostgresFileStore(url: string, opts: { pool?: Pool; sealer?: FileSealer } = {}): FileStore {
  const sealer = opts.sealer ?? CLEAR_FILES;
  const pool = opts.pool ?? openPool(url, { max: 4 });
  const ready = requireSchema(pool);
  // Reported by the first call that awaits it; not an unhandled rejection meanwhile.
  ready.catch(() => undefined);
  return {
    async put(data, filename) {
      const stored = contentRef(data, filename);
      await ready;
      // Same content, same reference: a second put keeps the stored content and only renews
      // stored_at, so the retention counts from the latest put (deleteUploadedBefore).
      await pool.query(
        `INSERT INTO cardflow_files (ref, content_type, data) VALUES ($1, $2, $3)
         ON CONFLICT (ref) DO UPDATE SET stored_at = now()`,
        [stored.ref, stored.contentType, Buffer.from(await sealer.seal(data))],
      );
      return stored;
    },
    async get(ref) {
      await ready;
      const { rows } = await pool.query<{ content_type: string; data: Buffer }>(
        'SELECT content_type, data FROM cardflow_files WHERE ref = $1',
        [ref],
      );
      const row = rows[0];
      return row
        ? { ref, contentType: row.content_type, data: new Uint8Array(await sealer.open(row.data)) }
        : undefined;
    },
    async uploadedFileId(scope, ref) {
      await ready;
      const { rows } = await pool.query<{ file_id: string }>(
        'SELECT file_id FROM cardflow_file_uploads WHERE scope = $1 AND ref = $2',
        [scope, ref],
      );
      return rows[0]?.file_id;
    },
    async recordUpload(scope, ref, fileId) {
      await ready;
      await pool.query(
        `INSERT INTO cardflow_file_uploads (scope, ref, file_id) VALUES ($1, $2, $3)
         ON CONFLICT (scope, ref) DO UPDATE SET file_id = EXCLUDED.file_id, recorded_at = now()`,
        [scope, ref, fileId],
      );
    },
    async deleteUploadedBefore(cutoff) {
      await ready;
      const { rowCount } = await pool.query(
        `DELETE FROM cardflow_files f
          WHERE (SELECT max(u.recorded_at) FROM cardflow_file_uploads u WHERE u.ref = f.ref) BETWEEN f.stored_at AND $1`,
        [cutoff],
      );
      return rowCount ?? 0;
    },
    async close() {
      if (!opts.pool) await pool.end();
    },
  };
}

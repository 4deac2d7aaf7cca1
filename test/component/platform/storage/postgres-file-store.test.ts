import { configured } from '../../../support/configured';
import { Pool } from 'pg';
import { createPostgresFileStore } from '../../../../platform/storage/postgres-file-store';
import { fileStoreFor } from '../../../../platform/storage/from-config';
import { type TestPostgres, startTestPostgres } from '../../support/postgres';

const PDF = Buffer.from('%PDF-1.4\n% proof of delivery\n');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

let pg: TestPostgres;
beforeAll(async () => {
  pg = await startTestPostgres();
}, 60_000);
afterAll(async () => pg?.stop());

it('a file put through one worker is read back through another, by content reference', async () => {
  const url = await pg.database();
  // Two workers starting together: both create the tables, neither fails.
  const [a, b] = [createPostgresFileStore(url), createPostgresFileStore(url)];
  try {
    const stored = await a.put(PDF, 'delivery-note.PDF');
    expect(stored).toEqual({ ref: expect.stringMatching(/^[0-9a-f]{64}\.pdf$/), contentType: 'application/pdf' });
    expect(await a.put(PDF, 'same-content.pdf')).toEqual(stored);
    const read = await b.get(stored.ref);
    expect(read?.contentType).toBe('application/pdf');
    expect(Buffer.from(read!.data).equals(PDF)).toBe(true);
    const png = await b.put(PNG, 'card.png');
    expect(Buffer.from((await a.get(png.ref))!.data).equals(PNG)).toBe(true);
    expect(await b.get(`${'0'.repeat(64)}.pdf`)).toBeUndefined();
    await expect(a.put(PDF, 'note.txt')).rejects.toThrow(/must end in \.jpg/);
  } finally {
    await a.close();
    await b.close();
  }
});

it('records the fileId an upload returned per workflow and reference, seen by every worker', async () => {
  const url = await pg.database();
  const a = createPostgresFileStore(url);
  const b = createPostgresFileStore(url);
  try {
    const { ref } = await a.put(PDF, 'a.pdf');
    expect(await b.uploadedFileId('activation-1', ref)).toBeUndefined();
    await a.recordUpload('activation-1', ref, 'F123');
    expect(await b.uploadedFileId('activation-1', ref)).toBe('F123');
    expect(await b.uploadedFileId('activation-2', ref)).toBeUndefined();
    await b.recordUpload('activation-1', ref, 'F124');
    expect(await a.uploadedFileId('activation-1', ref)).toBe('F124');
  } finally {
    await a.close();
    await b.close();
  }
});

it('is what the environment chooses when CARDFLOW_DATABASE_URL is set, and keeps files in the database', async () => {
  const url = await pg.database();
  const store = fileStoreFor(
    configured({ CARDFLOW_DATABASE_URL: url, CARDFLOW_FILE_STORE_DIR: '/nonexistent/never-used' }),
  );
  try {
    const { ref } = await store.put(PDF, 'a.pdf');
    const pool = new Pool({ connectionString: url });
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM cardflow_files WHERE ref = $1', [ref]);
    await pool.end();
    expect(rows[0]?.n).toBe('1');
  } finally {
    await store.close();
  }
});

it('serves again after the database restarts', async () => {
  const url = await pg.database();
  const store = createPostgresFileStore(url);
  try {
    const { ref } = await store.put(PDF, 'a.pdf');
    await pg.server.restart();
    // The restart cut the pool's idle connections: they are dropped, not handed out dead.
    expect(await store.get(ref)).toBeDefined();
  } finally {
    await store.close();
  }
}, 60_000);

/**
 * The two stores `fileStoreFor` builds, for a test file of the storage tier: one PostgreSQL
 * server for the file, a fresh folder per test, and each store's variables.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type TestPostgres, startTestPostgres } from './postgres';

export type StoreKind = 'directory' | 'postgresql';

export function fileStoresUnderTest(prefix: string) {
  let pg: TestPostgres | undefined;
  let dir = '';
  beforeAll(async () => {
    pg = await startTestPostgres();
  }, 60_000);
  afterAll(async () => pg?.stop());
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return {
    /** This test's folder (the directory store's). */
    get dir() {
      return dir;
    },
    /** The variables of a `kind` store: this test's folder, and for PostgreSQL a fresh database. */
    async variables(kind: StoreKind): Promise<{ url: string | undefined; env: Record<string, string> }> {
      const url = kind === 'postgresql' ? await pg!.database() : undefined;
      return { url, env: { CARDFLOW_FILE_STORE_DIR: dir, ...(url ? { CARDFLOW_DATABASE_URL: url } : {}) } };
    },
  };
}

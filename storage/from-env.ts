/**
 * The file store the environment configures. `CARDFLOW_DATABASE_URL` set: PostgreSQL, which every
 * worker and backend reaches (production, several machines). Otherwise the directory
 * `CARDFLOW_FILE_STORE_DIR` (default `.data/files`), the embedded default shared by the processes
 * of one machine.
 */
import { join, resolve } from 'node:path';
import { type FileStore, createDirectoryFileStore } from './file-store';
import { createPostgresFileStore } from './postgres-file-store';
import { databaseUrlFromEnv } from './postgres';
import { processEnv } from '../config/process-env';

export function fileStoreFromEnv(env: Record<string, string | undefined> = processEnv()): FileStore {
  const url = databaseUrlFromEnv(env);
  if (url) return createPostgresFileStore(url);
  return createDirectoryFileStore(resolve(env.CARDFLOW_FILE_STORE_DIR?.trim() || join('.data', 'files')));
}

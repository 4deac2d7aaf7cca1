/**
 * The file store the configuration names. `CARDFLOW_DATABASE_URL` set: PostgreSQL, which every
 * worker and backend reaches (production, several machines). Otherwise the directory
 * `CARDFLOW_FILE_STORE_DIR` (default `.data/files`), the embedded default shared by the processes
 * of one machine. Either way each file is encrypted with the codec keys (storage/file-sealing.ts).
 */
import { join, resolve } from 'node:path';
import { type FileStore, createDirectoryFileStore } from './file-store';
import { createPostgresFileStore } from './postgres-file-store';
import type { ConfigurationSlice } from '../config/schema';
import { type KeyVariables, resolveKeyring } from '../codec/dev-keys';
import { codecFileSealer } from './file-sealing';

export function fileStoreFor(
  config: ConfigurationSlice<'CARDFLOW_DATABASE_URL' | 'CARDFLOW_FILE_STORE_DIR'> & KeyVariables,
): FileStore {
  const sealer = codecFileSealer(resolveKeyring(config).keyring);
  const url = config.CARDFLOW_DATABASE_URL?.value;
  if (url) return createPostgresFileStore(url, { sealer });
  return createDirectoryFileStore(resolve(config.CARDFLOW_FILE_STORE_DIR ?? join('.data', 'files')), sealer);
}

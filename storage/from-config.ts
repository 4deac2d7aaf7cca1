/**
 * The file store and the route store the configuration names. `CARDFLOW_DATABASE_URL` set:
 * PostgreSQL, which every worker and backend reaches (production, several machines). Otherwise
 * local files (supporting files in `CARDFLOW_FILE_STORE_DIR`, default `.data/files`; routes in
 * `.data/routes`), the embedded default shared by the processes of one machine.
 */
import { join, resolve } from 'node:path';
import { type FileStore, createDirectoryFileStore } from './file-store';
import { createPostgresFileStore } from './postgres-file-store';
import { createPostgresRouteStore } from './postgres-route-store';
import { type RouteStore, createFileRouteStore } from './route-store';
import type { ConfigurationSlice } from '../config/schema';

export function fileStoreFor(
  config: ConfigurationSlice<'CARDFLOW_DATABASE_URL' | 'CARDFLOW_FILE_STORE_DIR'>,
): FileStore {
  const url = config.CARDFLOW_DATABASE_URL?.value;
  if (url) return createPostgresFileStore(url);
  return createDirectoryFileStore(resolve(config.CARDFLOW_FILE_STORE_DIR ?? join('.data', 'files')));
}

/** Where workers record routes and receivers read them (storage/route-store.ts). */
export function routeStoreFor(config: ConfigurationSlice<'CARDFLOW_DATABASE_URL'>): RouteStore {
  const url = config.CARDFLOW_DATABASE_URL?.value;
  return url ? createPostgresRouteStore(url) : createFileRouteStore();
}

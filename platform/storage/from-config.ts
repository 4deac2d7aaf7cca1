/**
 * The file store and the route store the configuration names. `CARDFLOW_DATABASE_URL` set:
 * PostgreSQL, which every worker and backend reaches (production, several machines). Otherwise
 * local files (supporting files in `CARDFLOW_FILE_STORE_DIR`; routes in `CARDFLOW_ROUTE_DIR`), the
 * embedded default shared by the processes of one machine. Either way each supporting file is
 * encrypted with the codec keys (platform/storage/file-sealing.ts).
 */
import { resolve } from 'node:path';
import type { Pool } from 'pg';
import { type FileStore, createDirectoryFileStore } from './file-store';
import { createPostgresFileStore } from './postgres-file-store';
import { createPostgresRouteStore } from './postgres-route-store';
import { type RouteStore, createFileRouteStore } from './route-store';
import { createPostgresRevealLog } from './postgres-reveal-log';
import { createFileRevealLog, type RevealLog } from './reveal-log';
import { createPostgresReferenceStore } from './postgres-reference-store';
import { createFileReferenceStore, type ReferenceStore } from './reference-store';
import { configured, type ConfigurationSlice } from '../config/schema';
import { type KeyVariables, resolveKeyring } from '../codec/dev-keys';
import { codecFileSealer } from './file-sealing';

export function fileStoreFor(
  config: ConfigurationSlice<'CARDFLOW_DATABASE_URL' | 'CARDFLOW_FILE_STORE_DIR'> & KeyVariables,
): FileStore {
  const sealer = codecFileSealer(resolveKeyring(config).keyring);
  const url = config.CARDFLOW_DATABASE_URL?.value;
  if (url) return createPostgresFileStore(url, { sealer });
  return createDirectoryFileStore(resolve(configured(config, 'CARDFLOW_FILE_STORE_DIR')), sealer);
}

/**
 * Where workers record routes and receivers read them (platform/storage/route-store.ts); `pool`
 * shares a process's PostgreSQL connections with its other stores.
 */
export function routeStoreFor(
  config: ConfigurationSlice<'CARDFLOW_DATABASE_URL' | 'CARDFLOW_ROUTE_DIR'>,
  opts: { pool?: Pool } = {},
): RouteStore {
  const url = config.CARDFLOW_DATABASE_URL?.value;
  if (url) return createPostgresRouteStore(url, opts.pool ? { pool: opts.pool } : {});
  return createFileRouteStore({ dir: configured(config, 'CARDFLOW_ROUTE_DIR') });
}

/** Where card-detail reveals are recorded and limited (platform/storage/reveal-log.ts). */
export function revealLogFor(
  config: ConfigurationSlice<'CARDFLOW_DATABASE_URL' | 'CARDFLOW_REVEAL_LOG_DIR'>,
  opts: { pool?: Pool } = {},
): RevealLog {
  const url = config.CARDFLOW_DATABASE_URL?.value;
  if (url) return createPostgresRevealLog(url, opts.pool ? { pool: opts.pool } : {});
  return createFileRevealLog(resolve(configured(config, 'CARDFLOW_REVEAL_LOG_DIR')));
}

/**
 * Where the provider's reference data is cached (platform/storage/reference-store.ts): the worker's
 * refresh writes it, backends read it.
 */
export function referenceStoreFor(
  config: ConfigurationSlice<'CARDFLOW_DATABASE_URL' | 'CARDFLOW_REFERENCE_DIR'>,
  opts: { pool?: Pool } = {},
): ReferenceStore {
  const url = config.CARDFLOW_DATABASE_URL?.value;
  if (url) return createPostgresReferenceStore(url, opts.pool ? { pool: opts.pool } : {});
  return createFileReferenceStore(resolve(configured(config, 'CARDFLOW_REFERENCE_DIR')));
}

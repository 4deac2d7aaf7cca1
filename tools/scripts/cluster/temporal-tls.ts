/**
 * The certificates of the cluster's mutual TLS, made by tools/scripts/make-certs.sh (the documented
 * step, docs/operations.md) into a folder of the run, and how each kind of caller presents its own:
 * as `TEMPORAL_TLS_*` variables for cardflow's processes (read by `@temporalio/envconfig` through
 * platform/temporal/connection.ts, as in a deployment), or as connection options for a client the
 * harness opens itself.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TLSConfig } from '@temporalio/client';

const run = promisify(execFile);
const ROOT = join(__dirname, '../../..');

/** The client certificates tools/scripts/make-certs.sh issues, one per kind of caller. */
export type TemporalClientKind = 'worker' | 'webhooks' | 'client' | 'ui' | 'cli';

/** The name every client checks the server's certificate against (one of its SANs). */
const TEMPORAL_SERVER_NAME = 'temporal';

/** Makes the CA, the server's and the clients' certificates in `dir`. */
export async function makeTemporalCerts(dir: string): Promise<void> {
  await run('bash', [join(ROOT, 'tools/scripts/make-certs.sh'), dir], { timeout: 60_000 });
}

/**
 * The variables a cardflow process of `kind` connects with (platform/temporal/connection.ts reads
 * them).
 */
export function temporalTlsEnv(dir: string, kind: TemporalClientKind): Record<string, string> {
  return {
    TEMPORAL_TLS_CLIENT_CERT_PATH: join(dir, `${kind}.pem`),
    TEMPORAL_TLS_CLIENT_KEY_PATH: join(dir, `${kind}-key.pem`),
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: join(dir, 'ca.pem'),
    TEMPORAL_TLS_SERVER_NAME: TEMPORAL_SERVER_NAME,
  };
}

/** The `tls` option of a `Connection` (or `NativeConnection`) of `kind`. */
export function temporalTlsOptions(dir: string, kind: TemporalClientKind): TLSConfig {
  return {
    serverNameOverride: TEMPORAL_SERVER_NAME,
    serverRootCACertificate: readFileSync(join(dir, 'ca.pem')),
    clientCertPair: { crt: readFileSync(join(dir, `${kind}.pem`)), key: readFileSync(join(dir, `${kind}-key.pem`)) },
  };
}

/**
 * Who each caller of the cluster is and what it may do: its certificate (temporal-tls.ts, the
 * first gate) and its JWT, made by tools/scripts/make-tokens.sh (the documented step,
 * docs/operations.md) into a folder of the run whose `jwks.json` the server reads. As variables
 * for cardflow's processes (`TEMPORAL_API_KEY_FILE` beside `TEMPORAL_TLS_*`, read through
 * platform/temporal/connection.ts as in a deployment), or as connection options for a client the
 * harness opens itself.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TLSConfig } from '@temporalio/client';
import { type TemporalClientKind, temporalTlsEnv, temporalTlsOptions } from './temporal-tls';

const run = promisify(execFile);
const ROOT = join(__dirname, '../../..');

/** The callers tools/scripts/make-tokens.sh issues a token to, one role each. */
export type TemporalCaller = 'worker' | 'webhooks' | 'backend' | 'operator' | 'reader' | 'ui' | 'setup';

/**
 * The certificate each caller presents: backends and the set-up job share `client`, operators
 * `cli`.
 */
const CERTIFICATE: Record<TemporalCaller, TemporalClientKind> = {
  worker: 'worker',
  webhooks: 'webhooks',
  backend: 'client',
  setup: 'client',
  operator: 'cli',
  reader: 'cli',
  ui: 'ui',
};

/** Where a cluster's certificates and tokens are. */
export interface TemporalCredentials {
  tlsDir: string;
  authDir: string;
}

/** Makes the signing key, the JWKS document and the callers' tokens for `namespace` in `dir`. */
export async function makeTemporalTokens(dir: string, namespace: string): Promise<void> {
  await run('bash', [join(ROOT, 'tools/scripts/make-tokens.sh'), dir], {
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', TEMPORAL_NAMESPACE: namespace },
  });
}

/** The JWKS document the server checks tokens against. */
export function jwksFile(authDir: string): string {
  return join(authDir, 'jwks.json');
}

/** The token of `caller` (a JWT). */
export function temporalToken(authDir: string, caller: TemporalCaller): string {
  return readFileSync(join(authDir, `${caller}.token`), 'utf8').trim();
}

/**
 * The variables a cardflow process of `caller` connects with (platform/temporal/connection.ts reads
 * them).
 */
export function temporalCallerEnv(credentials: TemporalCredentials, caller: TemporalCaller): Record<string, string> {
  return {
    ...temporalTlsEnv(credentials.tlsDir, CERTIFICATE[caller]),
    TEMPORAL_API_KEY_FILE: join(credentials.authDir, `${caller}.token`),
  };
}

/** The `tls` and `apiKey` options of a `Connection` (or `NativeConnection`) of `caller`. */
export function temporalCallerOptions(
  credentials: TemporalCredentials,
  caller: TemporalCaller,
): { tls: TLSConfig; apiKey: string } {
  return {
    tls: temporalTlsOptions(credentials.tlsDir, CERTIFICATE[caller]),
    apiKey: temporalToken(credentials.authDir, caller),
  };
}

/**
 * The bench's Temporal cluster: the production topology's server (tools/scripts/cluster/:
 * PostgreSQL, frontend, matching, worker service, two history hosts as processes), with the
 * namespace the bench's clients and workers use, so the dev server's figures can be measured again
 * on it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { startPostgres } from '../scripts/cluster/postgres';
import { ProcessGroup } from '../scripts/cluster/processes';
import { startTemporalCluster } from '../scripts/cluster/temporal-cluster';
import { temporalCallerEnv, temporalCallerOptions } from '../scripts/cluster/temporal-auth';

/** What the bench's phases need of a Temporal server: a client and a worker connection. */
export interface BenchTemporal {
  client: Client;
  nativeConnection: NativeConnection;
  /** host:port of the frontend, for processes the bench starts (the receiver of (a)). */
  address: string;
  /**
   * `TEMPORAL_TLS_*` and the token for those processes, when the server wants them (the cluster
   * does).
   */
  clientEnv?: Record<string, string>;
}

export interface BenchCluster extends BenchTemporal {
  stop(): Promise<void>;
}

export async function startBenchCluster(): Promise<BenchCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cardflow-bench-cluster-'));
  const group = new ProcessGroup(dir);
  try {
    const pg = await startPostgres(group, path.join(dir, 'postgresql'));
    // The bench's workers and clients use the SDK's default namespace, as on the dev server.
    const cluster = await startTemporalCluster(group, pg, {
      namespace: 'default',
      tlsDir: path.join(dir, 'temporal-tls'),
      authDir: path.join(dir, 'temporal-auth'),
    });
    // The bench's client and workers in one process, as a worker (writer on the namespace).
    const credentials = temporalCallerOptions(cluster, 'worker');
    const connection = await Connection.connect({ address: cluster.address, ...credentials });
    const nativeConnection = await NativeConnection.connect({ address: cluster.address, ...credentials });
    return {
      address: cluster.address,
      clientEnv: temporalCallerEnv(cluster, 'webhooks'),
      client: new Client({ connection, namespace: 'default' }),
      nativeConnection,
      async stop() {
        await nativeConnection.close();
        await connection.close();
        await group.stopAll();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await group.stopAll();
    throw error;
  }
}

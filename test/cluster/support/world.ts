/**
 * One test file's world on the tier's cluster: the sandbox (in this process, zero delays, keys on
 * disk so other processes can read them), and cardflow as deployed: two worker processes on a task
 * queue of this file's own, two webhook receivers behind haproxy (the sandbox's callback URL), all
 * sharing the PostgreSQL stores and one codec key. A Temporal client with the same data converter,
 * as a backend (its certificate and token), one with the workers' credentials, and a provider
 * client to check what the sandbox holds.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { createProviderClient, type ProviderClient } from '../../../provider/client';
import { createDataConverter } from '../../../platform/codec/data-converter';
import { parseKeyList } from '../../../platform/codec/keys';
import { startSandbox, ZERO_DELAYS, type FaultUpdate, type RunningSandbox } from '../../../tools/sandbox';
import { ProcessGroup } from '../../../tools/scripts/cluster/processes';
import { type RunningServices, type ServicesOptions, startServices } from '../../../tools/scripts/cluster/services';
import { temporalCallerOptions } from '../../../tools/scripts/cluster/temporal-auth';
import { clusterSettings } from './control';

export interface ClusterWorld {
  sandbox: RunningSandbox;
  provider: ProviderClient;
  /** A merchant's backend: the `backend` role (start, signal, Update, query, describe, cancel). */
  client: Client;
  /**
   * The workers' credentials (writer on the namespace), for what a deployment does as itself:
   * a rollout's routing changes, which docs/production.md runs in a worker's container.
   */
  workerClient: Client;
  taskQueue: string;
  /** The codec key list every process of the world shares (CARDFLOW_CODEC_KEYS). */
  codecKeys: string;
  services: RunningServices;
  /** Calls a sandbox test helper (decide a review, credit a deposit, ...). */
  helper(name: string, body: Record<string, unknown>): unknown;
  /** The world's processes (to start more beside them) and their folder. */
  group: ProcessGroup;
  dir: string;
  stop(): Promise<void>;
}

export async function startClusterWorld(opts: {
  faults?: FaultUpdate;
  label: string;
  /** Metrics endpoints, the codec server, extra variables (tools/scripts/cluster/services.ts). */
  services?: Pick<ServicesOptions, 'metrics' | 'codecServer' | 'extraEnv'>;
}): Promise<ClusterWorld> {
  const cluster = clusterSettings();
  const dir = mkdtempSync(join(tmpdir(), `cardflow-cluster-${opts.label}-`));
  const group = new ProcessGroup(dir);
  const sandbox = await startSandbox({
    delays: ZERO_DELAYS,
    clock: 'real',
    keysDir: join(dir, 'sandbox-keys'),
    ...(opts.faults ? { faults: opts.faults } : {}),
  });
  const codecKeys = `cluster-test:${randomBytes(32).toString('base64')}`;
  const taskQueue = `cluster-${opts.label}-${randomUUID()}`;
  let connection: Connection | undefined;
  let workerConnection: Connection | undefined;
  try {
    const services = await startServices(group, {
      dir,
      temporalAddress: cluster.address,
      temporalTlsDir: cluster.tlsDir,
      temporalAuthDir: cluster.authDir,
      namespace: cluster.namespace,
      databaseUrl: cluster.databaseUrl,
      codecKeys,
      providerEnv: sandbox.env,
      taskQueue,
      ...opts.services,
    });
    sandbox.setWebhookUrl(services.webhookUrl);
    const dataConverter = createDataConverter(parseKeyList(codecKeys));
    connection = await Connection.connect({ address: cluster.address, ...temporalCallerOptions(cluster, 'backend') });
    const client = new Client({ connection, namespace: cluster.namespace, dataConverter });
    workerConnection = await Connection.connect({
      address: cluster.address,
      ...temporalCallerOptions(cluster, 'worker'),
    });
    const workerClient = new Client({ connection: workerConnection, namespace: cluster.namespace, dataConverter });
    const provider = createProviderClient(sandbox.clientConfig());
    const open = [connection, workerConnection];
    return {
      sandbox,
      provider,
      client,
      workerClient,
      taskQueue,
      codecKeys,
      services,
      group,
      dir,
      helper: (name, body) => {
        const helper = sandbox.engine.helpers[name];
        if (!helper) throw new Error(`no sandbox helper ${name}`);
        return helper(body);
      },
      async stop() {
        await group.stopAll();
        await sandbox.stop();
        await provider.close();
        await Promise.all(open.map((c) => c.close()));
        if (!process.env.CARDFLOW_TEST_KEEP_LOGS) rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await group.stopAll();
    await sandbox.stop();
    await connection?.close();
    await workerConnection?.close();
    throw error;
  }
}

export { until } from '../../support/until';

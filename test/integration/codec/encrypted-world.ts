/**
 * What each payload-encryption proof runs on: a sandbox (zero delays, real clock) whose webhooks
 * reach a receiver signalling through the proof's encrypting client, a provider client on that
 * sandbox, and cardflow workers encrypting with the proof's data converter on a task queue of the
 * proof's own. The proofs differ in the Temporal server they use (the tier's, or one with the UI)
 * and in what they run and look for; this is the part they share.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection, type DataConverter } from '@temporalio/client';
import type { NativeConnection, WorkflowBundle } from '@temporalio/worker';
import { createProviderClient, type ProviderClient } from '../../../api/client';
import { startSandbox, ZERO_DELAYS, type RunningSandbox } from '../../../sandbox';
import { startWebhookReceiver } from '../../../webhooks/receiver';
import type { CardflowWorker } from '../../../workers/cardflow-worker';
import { createWorker } from '../../../workers/create-worker';
import { connectTestNativeConnection, testTemporalServer, uniqueTaskQueue } from '../support/temporal-env';

export interface EncryptedWorld {
  sandbox: RunningSandbox;
  provider: ProviderClient;
  taskQueue: string;
  /** A worker on the world's task queue encrypting with the proof's converter; `withMerchantKey`: its activities open sealed PINs and activation codes. */
  worker(connection: NativeConnection, options?: { withMerchantKey?: boolean }): Promise<CardflowWorker>;
  stop(): Promise<void>;
}

export async function startEncryptedWorld(opts: {
  client: Client;
  dataConverter: DataConverter;
  bundle: WorkflowBundle;
  /** Names the task queue and the receiver's data directory. */
  label: string;
}): Promise<EncryptedWorld> {
  const sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'real' });
  const dataDir = await mkdtemp(join(tmpdir(), `cardflow-${opts.label}-`));
  const receiver = await startWebhookReceiver({
    platformPublicKey: sandbox.keys.platform.publicKey,
    client: opts.client,
    dataDir,
  });
  sandbox.setWebhookUrl(receiver.url);
  const provider = createProviderClient(sandbox.clientConfig());
  const taskQueue = uniqueTaskQueue(opts.label);
  return {
    sandbox,
    provider,
    taskQueue,
    worker: (connection, { withMerchantKey = false } = {}) =>
      createWorker({
        connection,
        namespace: opts.client.options.namespace,
        taskQueue,
        activityDeps: withMerchantKey
          ? { provider, merchantPrivateKey: sandbox.keys.merchant.privateKey }
          : { provider },
        workflowBundle: opts.bundle,
        workerOptions: { dataConverter: opts.dataConverter },
      }),
    async stop() {
      await receiver.stop();
      await sandbox.stop();
      await provider.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** On the tier's server: a client encrypting with `dataConverter`, one reading the raw (encrypted) payloads, and a worker connection. */
export async function connectEncryptingClients(dataConverter: DataConverter): Promise<{
  client: Client;
  rawClient: Client;
  nativeConnection: NativeConnection;
  close(): Promise<void>;
}> {
  const { address, namespace } = testTemporalServer();
  const connection = await Connection.connect({ address });
  const nativeConnection = await connectTestNativeConnection();
  return {
    client: new Client({ connection, namespace, dataConverter }),
    rawClient: new Client({ connection, namespace }),
    nativeConnection,
    async close() {
      await nativeConnection.close();
      await connection.close();
    },
  };
}

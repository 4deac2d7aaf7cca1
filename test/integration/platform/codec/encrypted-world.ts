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
import type { NativeConnection } from '@temporalio/worker';
import { createProviderClient, type ProviderClient } from '../../../../provider/client';
import { startSandbox, ZERO_DELAYS, type RunningSandbox } from '../../../../tools/sandbox';
import type { B2bCardholder, B2cCardholder } from '../../../../domain/cardholder-data';
import { startWebhookReceiver } from '../../../../webhooks/receiver';
import { b2bHolder } from '../../../fixtures/holders';
import type { CardflowWorker } from '../../../../workers/cardflow-worker';
import { createWorker } from '../../../../workers/create-worker';
import { workflowBundle } from '../../support/harness';
import {
  connectTestNativeConnection,
  TEST_MAX_CACHED_WORKFLOWS,
  testTemporalServer,
  uniqueTaskQueue,
} from '../../support/temporal-env';

export interface EncryptedWorld {
  sandbox: RunningSandbox;
  provider: ProviderClient;
  taskQueue: string;
  /**
   * A worker on the world's task queue encrypting with the proof's converter; `withMerchantKey`:
   * its activities open sealed PINs and activation codes.
   */
  worker(connection: NativeConnection, options?: { withMerchantKey?: boolean }): Promise<CardflowWorker>;
  stop(): Promise<void>;
}

/** Six random digits: part of a distinctive value, so a hit in the bytes can only be a leak. */
export function sixDigits(): string {
  return Math.floor(Math.random() * 1e6)
    .toString()
    .padStart(6, '0');
}

/**
 * A B2B holder of distinctive values (`suffix` in the email, random mobile digits), so a hit in the
 * bytes can only be a leak.
 */
export function distinctiveB2bHolder(suffix: string): B2bCardholder {
  return b2bHolder(`zoltana.${suffix}@example.com`, {
    mobile: `5557${sixDigits()}`,
    firstName: 'Zoltana',
    lastName: 'Quibbleworth',
    birthday: '1987-03-14',
    address: '77 Wintergreen Lane',
    postCode: 'QX7733',
  });
}

/** The personal values every holder shape carries: names, contact, birthday and address. */
export function personalValues(holder: B2bCardholder | B2cCardholder): string[] {
  return [holder.firstName, holder.lastName, holder.email, holder.mobile, holder.birthday, holder.address];
}

/**
 * A world whose workers run the tier's workflow bundle (`workflowBundle`; a file warms it in its
 * beforeAll).
 */
export async function startEncryptedWorld(opts: {
  client: Client;
  dataConverter: DataConverter;
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
  const bundle = await workflowBundle();
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
        workflowBundle: bundle,
        workerOptions: { dataConverter: opts.dataConverter, maxCachedWorkflows: TEST_MAX_CACHED_WORKFLOWS },
      }),
    async stop() {
      await receiver.stop();
      await sandbox.stop();
      await provider.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * On the tier's server: a client encrypting with `dataConverter`, one reading the raw (encrypted)
 * payloads, and a worker connection.
 */
async function connectEncryptingClients(dataConverter: DataConverter): Promise<{
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

/**
 * On the tier's server: the encrypting clients and a world on them; `close` stops the world, then
 * the clients.
 */
export async function openEncryptedProof(
  dataConverter: DataConverter,
  label: string,
): Promise<{
  client: Client;
  rawClient: Client;
  nativeConnection: NativeConnection;
  world: EncryptedWorld;
  close(): Promise<void>;
}> {
  const clients = await connectEncryptingClients(dataConverter);
  const world = await startEncryptedWorld({ client: clients.client, dataConverter, label });
  return {
    ...clients,
    world,
    async close() {
      await world.stop();
      await clients.close();
    },
  };
}

/**
 * A bench service in a process of its own (forked by tools/bench/services.ts), so the bench reads
 * its CPU apart from the worker's: `sandbox <delays JSON>` runs the provider stand-in (the
 * provider's cost, not cardflow's), `receiver <Temporal address> <task queue>` the webhook receiver
 * (with the platform public key in CARDFLOW_PLATFORM_PUBLIC_KEY, reading routes in
 * CARDFLOW_ROUTE_DIR, the folder the bench's worker records them in; a card's events also go to the
 * card's own workflow on the bench worker's task queue, as webhooks/main.ts sends them). Each
 * answers on the IPC channel: `ready` once it listens, the receiver's deliveries since last asked
 * on `deliveries` (outcomes counted, the signalled ones' latencies), and stops on `stop`.
 */
import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publicKeyFrom } from '../../provider/keys';
import type { SandboxDelays } from '../sandbox/contract';
import { startSandbox } from '../sandbox/index';
import { createCardEntityDelivery } from '../../webhooks/card-route';
import { startWebhookReceiver } from '../../webhooks/receiver';
import { readConfiguration } from '../../platform/config/schema';
import { routeStoreFor } from '../../platform/storage/from-config';
import { countDelivery, type DeliveriesSeen, noDeliveries, takeDeliveries } from './delivery-latency';

/** What a service process tells the bench. */
export type ServiceMessage =
  { type: 'ready'; url: string; env: Record<string, string> } | { type: 'deliveries'; seen: DeliveriesSeen };

/** What the bench tells a service process. */
export type ServiceCommand = { type: 'webhook-url'; url: string } | { type: 'deliveries' } | { type: 'stop' };

const send = (message: ServiceMessage) => process.send?.(message);

async function sandbox(delays: Partial<SandboxDelays>): Promise<() => Promise<void>> {
  const running = await startSandbox({ delays, clock: 'real', seed: Math.floor(Math.random() * 2 ** 31) });
  process.on('message', (command: ServiceCommand) => {
    if (command.type === 'webhook-url') running.setWebhookUrl(command.url);
  });
  send({ type: 'ready', url: running.url, env: running.env });
  return () => running.stop();
}

async function receiver(address: string, taskQueue: string): Promise<() => Promise<void>> {
  // Over the native connection, as webhooks/main.ts connects (webhooks/temporal-client.ts); signals
  // as the bench's own client sends them (the bench's Temporal client carries no codec). TLS as the
  // environment says (TEMPORAL_TLS_*, the cluster's), as every cardflow process reads it.
  const { connectionOptions } = loadClientConnectConfig();
  const connection = await NativeConnection.connect({ ...connectionOptions, address });
  const client = new Client({ connection });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cardflow-bench-receiver-'));
  const seen = noDeliveries();
  const running = await startWebhookReceiver({
    platformPublicKey: publicKeyFrom(process.env.CARDFLOW_PLATFORM_PUBLIC_KEY ?? '', 'CARDFLOW_PLATFORM_PUBLIC_KEY'),
    client,
    routes: routeStoreFor(readConfiguration({ CARDFLOW_ROUTE_DIR: process.env.CARDFLOW_ROUTE_DIR })),
    cardEntities: createCardEntityDelivery(client, { taskQueue }),
    dataDir,
    onHandled: (h) => countDelivery(seen, h),
  });
  process.on('message', (command: ServiceCommand) => {
    if (command.type === 'deliveries') send({ type: 'deliveries', seen: takeDeliveries(seen) });
  });
  send({ type: 'ready', url: running.url, env: {} });
  return async () => {
    await running.stop();
    await connection.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

async function main(): Promise<void> {
  const [role, argument = '', taskQueue = ''] = process.argv.slice(2);
  const stop =
    role === 'sandbox'
      ? await sandbox(JSON.parse(argument) as Partial<SandboxDelays>)
      : role === 'receiver'
        ? await receiver(argument, taskQueue)
        : undefined;
  if (!stop) throw new Error(`bench service: unknown role ${role}`);
  process.on('message', (command: ServiceCommand) => {
    if (command.type === 'stop') void stop().finally(() => process.exit(0));
  });
  // The bench gone (its IPC channel closed): stop with it.
  process.on('disconnect', () => void stop().finally(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(`bench service: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});

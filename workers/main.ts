/**
 * The cardflow worker process: `tsx workers/main.ts`. Configured from the environment
 * (workers/config.ts, api/config.ts, codec keys); on SIGINT or SIGTERM it stops polling, lets running
 * tasks finish (up to the shutdown grace time), closes its connections and exits.
 */
import { NativeConnection, Runtime } from '@temporalio/worker';
import { createProviderClient } from '../api/client';
import { loadProviderConfig } from '../api/config';
import { dataConverterFromEnv } from '../codec/data-converter';
import { loadTemporalWorkerConfig } from './config';
import { createWorker } from './create-worker';

export async function runWorkerProcess(env: Record<string, string | undefined> = process.env): Promise<void> {
  // Our own signal handling, so shutdown is one ordered sequence.
  Runtime.install({ shutdownSignals: [] });
  const temporal = loadTemporalWorkerConfig(env);
  const provider = createProviderClient(loadProviderConfig(env));
  // The same converter as the client and the webhook receiver: payloads are encrypted (codec/).
  const { dataConverter, keySource, currentKeyId } = dataConverterFromEnv();
  const connection = await NativeConnection.connect({ address: temporal.address });
  try {
    const worker = await createWorker({
      connection,
      namespace: temporal.namespace,
      taskQueue: temporal.taskQueue,
      activityDeps: { provider },
      workerOptions: { shutdownGraceTime: '10s', dataConverter },
    });
    const stop = (signal: NodeJS.Signals) => {
      console.log(`cardflow worker: ${signal} received, shutting down`);
      if (worker.getState() === 'RUNNING') worker.shutdown();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    console.log(
      `cardflow worker: polling ${temporal.taskQueue} on ${temporal.address} (namespace ${temporal.namespace}), codec key ${currentKeyId} from ${keySource}`,
    );
    await worker.run();
    console.log('cardflow worker: stopped');
  } finally {
    await connection.close();
    await provider.close();
  }
}

if (require.main === module) {
  runWorkerProcess().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

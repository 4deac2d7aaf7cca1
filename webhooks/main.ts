/**
 * The webhook receiver as its own process: `npm run webhooks` (or `tsx webhooks/main.ts`).
 *
 * | variable | |
 * |---|---|
 * | CARDFLOW_PLATFORM_PUBLIC_KEY or CARDFLOW_PLATFORM_PUBLIC_KEY_FILE | the platform public key (PEM or base64 X.509 DER), as for the provider client |
 * | CARDFLOW_WEBHOOK_HOST | default 127.0.0.1; put a TLS proxy in front for the provider to reach it |
 * | CARDFLOW_WEBHOOK_PORT | default 4100 |
 * | CARDFLOW_WEBHOOK_DATA_DIR | delivery log directory, default `.data/webhooks` |
 * | TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY ... | see `client/connection.ts` |
 *
 * SIGINT / SIGTERM stop accepting, finish the deliveries in progress, and exit.
 */
import { publicKeyFrom, publicKeyFromFile } from '../api/keys';
import { connectTemporalClient } from '../client/connection';
import { startWebhookReceiver } from './receiver';

/** The platform public key from the environment, or an error naming the variables to set. */
export function platformPublicKeyFromEnv(env: Record<string, string | undefined> = process.env) {
  const text = env.CARDFLOW_PLATFORM_PUBLIC_KEY?.trim();
  const file = env.CARDFLOW_PLATFORM_PUBLIC_KEY_FILE?.trim();
  if (text && file) throw new Error('set only one of CARDFLOW_PLATFORM_PUBLIC_KEY and CARDFLOW_PLATFORM_PUBLIC_KEY_FILE');
  if (text) return publicKeyFrom(text, 'CARDFLOW_PLATFORM_PUBLIC_KEY');
  if (file) return publicKeyFromFile(file, 'CARDFLOW_PLATFORM_PUBLIC_KEY_FILE');
  throw new Error('set CARDFLOW_PLATFORM_PUBLIC_KEY or CARDFLOW_PLATFORM_PUBLIC_KEY_FILE (the platform public key from the provider dashboard)');
}

async function main(): Promise<void> {
  const platformPublicKey = platformPublicKeyFromEnv();
  const port = Number(process.env.CARDFLOW_WEBHOOK_PORT ?? 4100);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`CARDFLOW_WEBHOOK_PORT=${process.env.CARDFLOW_WEBHOOK_PORT} is not a TCP port`);
  const temporal = await connectTemporalClient();
  const receiver = await startWebhookReceiver({
    platformPublicKey,
    client: temporal.client,
    host: process.env.CARDFLOW_WEBHOOK_HOST || '127.0.0.1',
    port,
    ...(process.env.CARDFLOW_WEBHOOK_DATA_DIR ? { dataDir: process.env.CARDFLOW_WEBHOOK_DATA_DIR } : {}),
    log: (line) => console.log(line),
  });
  console.log(`webhook receiver listening at ${receiver.url} (namespace ${temporal.namespace})`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the webhook receiver`);
    receiver
      .stop()
      .then(() => temporal.close())
      .catch((error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      });
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`webhooks: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}

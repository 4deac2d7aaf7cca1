/**
 * A backend's window on one card through the client package alone: its history straight from the
 * provider, page after page; its details for the customer (decrypted here, the reveal recorded,
 * only the last four digits printed); and its replacement (one new card however often it runs,
 * the old one frozen once the new one is active). Settings as every cardflow process reads them.
 *
 *   node --import tsx client/examples/backend/card-window.ts <cardNo>
 */
import {
  cardAuthorizations,
  cardOperations,
  connectTemporalClient,
  createProviderClient,
  openCardDetails,
  processEnv,
  providerConfig,
  readConfiguration,
  reissueCard,
} from '../../index';

async function main(cardNo: string | undefined): Promise<void> {
  if (!cardNo) throw new Error('usage: card-window.ts <cardNo>');
  const env = processEnv();
  const config = readConfiguration(env);
  const provider = createProviderClient(providerConfig(config));
  const details = openCardDetails(config);
  const temporal = await connectTemporalClient({ env, configuration: config });
  try {
    for await (const op of cardOperations(provider, cardNo))
      console.log(`operation ${op.type} ${op.status} ${op.amount} ${op.currency} ${op.orderNo}`);
    for await (const auth of cardAuthorizations(provider, cardNo))
      console.log(`authorization ${auth.type} ${auth.status} ${auth.tradeNo}`);

    const shown = await details.reveal(cardNo, { caller: 'card-window example', reason: 'customer asked' });
    console.log(
      `details card ending ${shown.cardNumber?.slice(-4) ?? '(gift card link)'}, expiry ${shown.expireDate ?? '-'}`,
    );

    const taskQueue = config.CARDFLOW_TASK_QUEUE;
    const reissued = await reissueCard(temporal.client, cardNo, taskQueue ? { taskQueue } : {});
    console.log(
      `reissued as card ${reissued.card.cardNo} (${reissued.card.cardStatus}); old card ${reissued.oldCard.outcome}`,
    );
  } finally {
    await temporal.close();
    await details.close();
    await provider.close();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

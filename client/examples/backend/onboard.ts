/**
 * A backend onboarding a B2C customer from the bytes of their identity documents, with the client
 * package alone: it stores each document (checked, sealed), starts the onboarding naming them by
 * reference, and when the review rejects the front of the ID, stores the retake and sends the
 * correction; it prints the card at the end. It needs the workers' file store and reference data
 * (the database, or their directories) and, with --task-queue, the workers' queue.
 *
 *   tsx client/examples/backend/onboard.ts [--task-queue <name>] <customer.json> <front> <back>
 *   <selfie> [<front, retaken>]
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import {
  awaitResult,
  connectTemporalClient,
  getProgress,
  startOnboarding,
  storeFile,
  submitCorrection,
  type OnboardingRequest,
} from '../../index';

async function stored(path: string): Promise<string> {
  const { ref } = await storeFile({ filename: basename(path), data: await readFile(path) });
  return ref;
}

async function main(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { 'task-queue': { type: 'string' } },
    allowPositionals: true,
  });
  const [inputPath, front, back, selfie, retakenFront] = positionals;
  const taskQueue = values['task-queue'];
  if (!inputPath || !front || !back || !selfie)
    throw new Error('usage: onboard.ts <customer.json> <front> <back> <selfie> [<front, retaken>]');
  const input = JSON.parse(await readFile(inputPath, 'utf8')) as OnboardingRequest;
  const documents = { idFrontRef: await stored(front), idBackRef: await stored(back), idHoldRef: await stored(selfie) };
  const holder = { ...input.holder, ...documents } as OnboardingRequest['holder'];

  const temporal = await connectTemporalClient();
  const { client } = temporal;
  try {
    const { workflowId } = await startOnboarding(client, { ...input, holder }, taskQueue ? { taskQueue } : {});
    console.log(`started ${workflowId}`);
    let corrected = false;
    for (;;) {
      const progress = await getProgress(client, input.customerRef);
      if (['completed', 'failed', 'cancelled'].includes(progress.stage)) break;
      const reason = progress.review?.rejectReason;
      if (progress.stage === 'awaiting_correction' && reason && !corrected) {
        console.log(`rejected: ${reason}`);
        if (!reason.startsWith('idFrontId') || !retakenFront) throw new Error('no correction for this reject');
        await submitCorrection(client, input.customerRef, {
          holder: { ...holder, idFrontRef: await stored(retakenFront) },
        });
        console.log('corrected: idFrontRef replaced');
        corrected = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const result = await awaitResult(client, input.customerRef);
    console.log(`card ${result.card.cardNo} ${result.card.cardStatus}`);
  } finally {
    await temporal.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

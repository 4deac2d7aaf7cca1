/**
 * A worker killed between a stored document's upload and the holder's submission: the real worker
 * process reaches the provider through a gate that lets the sandbox commit the first upload and
 * holds its answer; the worker is then killed. A second worker uploads that document again (the
 * upload has no key and no lookup: one spare file nothing references), uploads the others and
 * submits the holder once. The sandbox's records show one holder and one referenced upload per
 * document.
 */
import { createHash, randomUUID } from 'node:crypto';
import { operations } from '../../../provider/operations';
import type { CardholderOnboardingResult } from '../../../domain/cardholder-onboarding';
import { WorkflowTypes } from '../../../domain/workflows';
import { b2cHolderWithoutDocuments } from '../../fixtures/holders';
import { cardholdersByEmail, customerRef, encryptingClient } from '../support/harness';
import {
  FAST_WAIT,
  PHYSICAL_TYPE,
  startCardHarness,
  workerProcessEnv,
  type CardHarness,
} from '../support/card-harness';
import { recordDocumentContents } from '../support/issued-secrets';
import { testCodecKeys } from '../support/temporal-env';
import {
  startProviderGate,
  startWorkerProcess,
  type ProviderGate,
  type WorkerProcess,
} from '../support/worker-process';

// Two worker start-ups (each bundles the workflows), on a shared machine.
jest.setTimeout(300_000);

const codecKeys = testCodecKeys('documents-kill');
let h: CardHarness;
let gate: ProviderGate;
const workers: WorkerProcess[] = [];

function workerProcess(extra: Record<string, string> = {}): WorkerProcess {
  const worker = startWorkerProcess({
    ...workerProcessEnv(h, { providerUrl: gate.url, taskQueue: h.taskQueue, codecKeys }),
    ...extra,
  });
  workers.push(worker);
  return worker;
}

const png = (text: string) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(text)]);

beforeAll(async () => {
  h = await startCardHarness();
  gate = await startProviderGate(h.sandbox.env.CARDFLOW_PROVIDER_BASE_URL!);
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await gate?.close();
  await h?.stop();
});

it('uploads each document once more at most and submits the holder once after the kill', async () => {
  const unique = randomUUID().replace(/-/g, '').slice(0, 10);
  const email = `kill+${unique}@example.com`;
  const texts = [`front ${unique}`, `back ${unique}`, `selfie ${unique}`];
  const data = texts.map(png);
  recordDocumentContents(Object.fromEntries(texts.map((t) => [t, t])));
  // The worker process opens these with its codec sealer; content stored in clear reads as it is.
  const [front, back, hold] = await Promise.all(data.map((d, i) => h.fileStore.put(d, `doc-${i}.png`)));
  const holder = b2cHolderWithoutDocuments({ email, idNumber: `P${unique}` });

  const first = workerProcess({ CARDFLOW_PROVIDER_TIMEOUT_MS: '55000' });
  await first.polling(150_000);
  gate.hold([operations.uploadFile.path]);
  const uploadsBefore = h.sandbox.commits({ operation: 'uploadFile' }).length;
  const client = encryptingClient(h, codecKeys);
  const handle = await client.workflow.start(WorkflowTypes.cardholderOnboarding, {
    taskQueue: h.taskQueue,
    workflowId: `cardholder-${customerRef('documents-kill')}`,
    args: [
      {
        cardTypeId: PHYSICAL_TYPE,
        wait: FAST_WAIT,
        holder: { ...holder, idFrontRef: front!.ref, idBackRef: back!.ref, idHoldRef: hold!.ref },
      },
    ],
  });

  // The first document committed at the provider, its answer held: the worker dies there.
  await gate.waitForHeld({ [operations.uploadFile.path]: 1 });
  await first.stop('SIGKILL');
  expect(first.child.signalCode).toBe('SIGKILL');
  gate.release();
  workerProcess();
  const result = (await handle.result()) as CardholderOnboardingResult;
  expect(result.status).toBe('pass_audit');
  expect(await cardholdersByEmail(h.provider, email)).toHaveLength(1);

  // Four uploads: the first document twice (its first answer died with the worker), the others
  // once.
  expect(h.sandbox.commits({ operation: 'uploadFile' }).length - uploadsBefore).toBe(4);
  const hashes = data.map((d) => createHash('sha256').update(d).digest('hex'));
  const { files } = await h.helper<{
    files: { sha256: string; referencedBy: { holderId: string; field: string }[] }[];
  }>('uploadedFiles', {});
  const mine = files.filter((f) => hashes.includes(f.sha256));
  expect(mine.filter((f) => f.sha256 === hashes[0])).toHaveLength(2);
  expect(mine.filter((f) => f.referencedBy.length > 0).map((f) => [f.sha256, f.referencedBy])).toEqual(
    expect.arrayContaining([
      [hashes[0], [{ holderId: result.holderId, field: 'idFrontId' }]],
      [hashes[1], [{ holderId: result.holderId, field: 'idBackId' }]],
      [hashes[2], [{ holderId: result.holderId, field: 'idHoldId' }]],
    ]),
  );
  expect(mine.filter((f) => f.referencedBy.length > 0)).toHaveLength(3);
  // Neither worker's log lines carry a document's bytes (the teardown searches every history).
  for (const worker of workers) for (const text of texts) expect(worker.output()).not.toContain(text);
  expect(workers.map((w) => w.output()).join('').length).toBeGreaterThan(0);
});

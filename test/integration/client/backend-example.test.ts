/**
 * The client-only backend example (client/examples/backend/onboard.ts), run as a program against
 * the tier's dev server, sandbox, worker and receiver: it stores a B2C customer's document bytes,
 * onboards them, replaces the front photo the review could not read, and ends with an active card.
 * The sandbox's records show one holder and one upload per document.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDataConverter } from '../../../platform/codec/data-converter';
import { parseKeyList } from '../../../platform/codec/keys';
import { readConfiguration } from '../../../platform/config/schema';
import { fileStoreFor } from '../../../platform/storage/from-config';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';
import { UNREADABLE_DOCUMENT } from '../../../tools/sandbox/engine/magic';
import { b2cHolderWithoutDocuments } from '../../fixtures/holders';
import { startCardHarness } from '../support/card-harness';
import { recordDocumentContents } from '../support/issued-secrets';
import { cardholdersByEmail, customerRef, harnessPerFile, runCardflowWorker } from '../support/harness';
import { testCodecKeys, testTemporalServer } from '../support/temporal-env';
import { filledReferenceDir } from '../support/reference-data';

jest.setTimeout(240_000);

const h = harnessPerFile(startCardHarness);
const ROOT = join(__dirname, '../../..');
const codecKeys = testCodecKeys('backend-example');

const png = (text: string) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(text)]);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'backend-example-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('onboards a B2C customer from document bytes to an active (Normal) card, replacing a rejected document', async () => {
  const unique = randomUUID().replace(/-/g, '').slice(0, 10);
  const email = `example+${unique}@example.com`;
  const holder = b2cHolderWithoutDocuments({ email, idNumber: `P${unique}` });
  const ref = customerRef('backend-example');
  await writeFile(
    join(dir, 'customer.json'),
    JSON.stringify({ customerRef: ref, cardTypeId: CARD_TYPE_IDS.b2cVirtual, holder }),
  );
  const documents = {
    'front.png': png(`${UNREADABLE_DOCUMENT} front ${unique}`),
    'back.png': png(`back ${unique}`),
    'selfie.png': png(`selfie ${unique}`),
    'front-retaken.png': png(`front retaken ${unique}`),
  };
  for (const [name, data] of Object.entries(documents)) await writeFile(join(dir, name), data);
  recordDocumentContents(
    Object.fromEntries(Object.entries(documents).map(([name, data]) => [name, data.subarray(8).toString()])),
  );

  const { address, namespace } = testTemporalServer();
  const env = {
    PATH: process.env.PATH ?? '',
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: namespace,
    CARDFLOW_CODEC_KEYS: codecKeys,
    CARDFLOW_FILE_STORE_DIR: join(dir, 'store'),
    // The reference data its start is checked against, as the workers' scheduled refresh leaves it:
    // the example has no provider settings.
    CARDFLOW_REFERENCE_DIR: await filledReferenceDir(h.provider),
  };
  // The worker reads the store the example writes, with the same keys.
  const fileStore = fileStoreFor(readConfiguration(env));
  const run = await runCardflowWorker(
    {
      taskQueue: h.taskQueue,
      activityDeps: {
        provider: h.provider,
        merchantPrivateKey: h.sandbox.keys.merchant.privateKey,
        fileStore,
        routes: h.routes,
      },
      workerOptions: { dataConverter: createDataConverter(parseKeyList(codecKeys)) },
    },
    () =>
      promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          join(ROOT, 'client/examples/backend/onboard.ts'),
          '--task-queue',
          h.taskQueue,
          ...['customer.json', 'front.png', 'back.png', 'selfie.png', 'front-retaken.png'].map((n) => join(dir, n)),
        ],
        { cwd: ROOT, env },
      ),
  ).finally(() => fileStore.close());

  const lines = run.stdout.trim().split('\n');
  expect(lines[0]).toBe(`started onboarding-${ref}`);
  expect(lines).toContainEqual(expect.stringMatching(/^rejected: idFrontId: the document in file \S+ cannot be read/));
  expect(lines).toContain('corrected: idFrontRef replaced');
  expect(lines.at(-1)).toMatch(/^card \d+ Normal$/);

  expect(await cardholdersByEmail(h.provider, email)).toHaveLength(1);
  const hashes = Object.values(documents).map((data) => createHash('sha256').update(data).digest('hex'));
  const { files } = await h.helper<{ files: { sha256: string; referencedBy: { field: string }[] }[] }>(
    'uploadedFiles',
    {},
  );
  const uploads = files.filter((f) => hashes.includes(f.sha256));
  expect(uploads.map((f) => f.sha256).sort()).toEqual([...hashes].sort());
});

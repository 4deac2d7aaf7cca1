/**
 * The client-only example `client/examples/backend/card-window.ts`, run as a backend would run
 * it (its own process, configured by environment) against a worker process, the dev server and
 * the sandbox, on a card onboarded through the client: it lists the card's records, reveals its
 * details (recorded, never printed whole) and reissues it, the old card frozen.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { createDataConverter } from '../../../platform/codec/data-converter';
import { parseKeyList } from '../../../platform/codec/keys';
import { awaitResult, startOnboarding } from '../../../client/onboarding';
import { createFileRevealLog } from '../../../platform/storage/reveal-log';
import { decryptSensitive } from '../../../provider/sensitive';
import { FAST_WAIT, startCardHarness, workerProcessEnv, type CardHarness } from '../support/card-harness';
import { CARD_TYPES, encryptingClient } from '../support/harness';
import { testCodecKeys } from '../support/temporal-env';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';

jest.setTimeout(300_000);

const run = promisify(execFile);
const codecKeys = testCodecKeys('card-window');
let h: CardHarness;
let client: Client;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  h = await startCardHarness();
  client = encryptingClient(h, codecKeys);
}, 180_000);

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await h?.stop();
});

/** A history as text, every payload in it decoded by the codec (a payload: `metadata`, `data`). */
async function decodedText(history: unknown): Promise<string> {
  const codecs = createDataConverter(parseKeyList(codecKeys)).payloadCodecs ?? [];
  const texts = [JSON.stringify(history)];
  const visit = async (node: unknown): Promise<void> => {
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (record.metadata && record.data instanceof Uint8Array) {
      let decoded = [record as Payload];
      for (const codec of [...codecs].reverse()) decoded = await codec.decode(decoded);
      texts.push(Buffer.from(decoded[0]!.data ?? []).toString('utf8'));
      return;
    }
    for (const value of Object.values(record)) await visit(value);
  };
  await visit(history);
  expect(texts.length).toBeGreaterThan(1);
  return texts.join('\n');
}

it('lists the card’s records, reveals its details and reissues it, through the client package alone', async () => {
  const env = workerProcessEnv(h, { providerUrl: h.sandbox.url, taskQueue: h.taskQueue, codecKeys });
  worker = startWorkerProcess(env);
  await worker.polling(150_000);
  const customerRef = `window-${Date.now().toString(36)}`;
  await startOnboarding(
    client,
    { customerRef, cardTypeId: CARD_TYPES.noHolderNoDeposit, wait: FAST_WAIT },
    { taskQueue: h.taskQueue },
  );
  const onboarded = await awaitResult(client, customerRef);
  const cardNo = onboarded.card.cardNo;

  const revealDir = mkdtempSync(join(tmpdir(), 'cardflow-reveals-'));
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', join(__dirname, '../../../client/examples/backend/card-window.ts'), cardNo],
    {
      cwd: join(__dirname, '../../..'),
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        ...env,
        // A backend names the server as the Temporal CLI and SDK read it.
        TEMPORAL_ADDRESS: env.CARDFLOW_TEMPORAL_ADDRESS!,
        TEMPORAL_NAMESPACE: env.CARDFLOW_TEMPORAL_NAMESPACE!,
        CARDFLOW_REVEAL_LOG_DIR: revealDir,
      },
      timeout: 180_000,
    },
  );
  expect(stdout).toMatch(/^operation create success /m);
  expect(stdout).toMatch(/^details card ending \d{4}, expiry /m);
  // The whole number never reaches the output, only its last four digits.
  const pan = decryptSensitive(
    (await h.provider.getCardSensitiveData({ cardNo })).cardNumber!,
    h.sandbox.keys.merchant.privateKey,
  );
  expect(stdout).toContain(`details card ending ${pan.slice(-4)},`);
  expect(stdout).not.toContain(pan);
  // Nor any workflow history of the run, its payloads decoded, nor a line the worker wrote.
  const histories: string[] = [];
  for await (const execution of client.workflow.list({ query: `TaskQueue = '${h.taskQueue}'` })) {
    const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    histories.push(await decodedText(history));
  }
  expect(histories.length).toBeGreaterThan(2);
  // The payloads were opened (the inputs' wait settings are only in them), and none holds the
  // number.
  expect(histories.some((text) => text.includes('firstPollMs'))).toBe(true);
  for (const text of histories) expect(text).not.toContain(pan);
  expect(worker.output()).not.toContain(pan);
  const reissued = /^reissued as card (\d+) \(Normal\); old card frozen$/m.exec(stdout);
  expect(reissued).not.toBeNull();
  expect(reissued![1]).not.toBe(cardNo);
  expect((await h.provider.getCardInfo({ cardNo })).status).toBe('Freeze');
  expect(await createFileRevealLog(revealDir).list(cardNo)).toEqual([
    { cardNo, caller: 'card-window example', reason: 'customer asked', at: expect.any(Number) },
  ]);
});

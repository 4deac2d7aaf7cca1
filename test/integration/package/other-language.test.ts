/**
 * docs/other-languages.md driven with no TypeScript on the calling side: the real Temporal CLI
 * starts `customerOnboarding` with the documented type, queue, id, policies and search attributes,
 * its payloads encoded by cardflow's codec server (`--codec-endpoint`, behind a bearer token),
 * queries `progress` and awaits the result; a cardflow worker with the same keys serves it, and
 * the history holds encrypted payloads only.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { NativeConnection } from '@temporalio/worker';
import { createProviderClient, type ProviderClient } from '../../../provider/client';
import { createDataConverter } from '../../../platform/codec/data-converter';
import { parseKeyList } from '../../../platform/codec/keys';
import { AesGcmPayloadCodec, ENCODING_ENCRYPTED } from '../../../platform/codec/payload-codec';
import { startCodecServer, type CodecServer } from '../../../platform/codec/server';
import { CardflowCustomerRef, CardflowFlow, CardflowStage } from '../../../domain/search-attributes';
import { startSandbox, ZERO_DELAYS, type RunningSandbox } from '../../../tools/sandbox';
import { resolveTemporalCli } from '../../../tools/scripts/lib/temporal-cli';
import { createWorker } from '../../../workers/create-worker';
import type { CardflowWorker } from '../../../workers/cardflow-worker';
import { collectPayloads } from '../platform/codec/history-scan';
import { CARD_TYPES, FAST_WAIT, customerRef } from '../support/harness';
import {
  testCodecKeys,
  TEST_MAX_CACHED_WORKFLOWS,
  connectTestClient,
  connectTestNativeConnection,
  testTemporalServer,
  uniqueTaskQueue,
  type TestClient,
} from '../support/temporal-env';

jest.setTimeout(300_000);

const run = promisify(execFile);
const keyring = parseKeyList(testCodecKeys('k-other-language'));
const token = randomBytes(24).toString('hex');
const taskQueue = uniqueTaskQueue('other-language');

let cli: string;
let sandbox: RunningSandbox;
let provider: ProviderClient;
let codecServer: CodecServer;
let temporal: TestClient;
let connection: NativeConnection;
let worker: CardflowWorker;
let workerRun: Promise<void>;

/** Runs the Temporal CLI against the tier's dev server, through the codec server; stdout. */
async function temporalCli(args: string[]): Promise<string> {
  const { address, namespace } = testTemporalServer();
  const { stdout } = await run(cli, [
    ...args,
    '--address',
    address,
    '--namespace',
    namespace,
    '--codec-endpoint',
    codecServer.url,
    '--codec-auth',
    `Bearer ${token}`,
  ]);
  return stdout;
}

function runIdOf(startOutput: string): string {
  const runId = /RunId\s+(\S+)/.exec(startOutput)?.[1];
  if (!runId) throw new Error(`no RunId in:\n${startOutput}`);
  return runId;
}

beforeAll(async () => {
  cli = await resolveTemporalCli();
  sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'real' });
  provider = createProviderClient(sandbox.clientConfig());
  codecServer = await startCodecServer({ keyring, host: '127.0.0.1', port: 0, token, tokenlessAccess: 'never' });
  temporal = await connectTestClient();
  connection = await connectTestNativeConnection();
  worker = await createWorker({
    connection,
    namespace: testTemporalServer().namespace,
    taskQueue,
    activityDeps: { provider },
    workerOptions: { dataConverter: createDataConverter(keyring), maxCachedWorkflows: TEST_MAX_CACHED_WORKFLOWS },
  });
  workerRun = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await workerRun;
  await connection?.close();
  await codecServer?.stop();
  await provider?.close();
  await sandbox?.stop();
  await temporal?.close();
});

it('the Temporal CLI starts an onboarding through the codec server, reads its progress and its result', async () => {
  const ref = customerRef('other-language');
  const workflowId = `onboarding-${ref}`;
  const input = { customerRef: ref, cardTypeId: CARD_TYPES.noHolderNoDeposit, initialDeposit: '20', wait: FAST_WAIT };
  /** `temporal workflow start` of this onboarding, with `options` between the id and the input. */
  const start = (...options: string[]) =>
    temporalCli([
      'workflow',
      'start',
      '--type',
      'customerOnboarding',
      '--task-queue',
      taskQueue,
      '--workflow-id',
      workflowId,
      ...options,
      '--input',
      JSON.stringify(input),
    ]);
  const started = await start(
    '--id-conflict-policy',
    'Fail',
    '--id-reuse-policy',
    'RejectDuplicate',
    '--search-attribute',
    `CardflowCustomerRef=${JSON.stringify(ref)}`,
    '--search-attribute',
    'CardflowFlow="onboarding"',
    '--search-attribute',
    'CardflowStage="validating"',
  );

  // The `progress` query takes no argument: the CLI sends the codec server `{}` to encode.
  const progress = JSON.parse(
    await temporalCli(['workflow', 'query', '--workflow-id', workflowId, '--name', 'progress', '--output', 'json']),
  ) as { queryResult: Array<{ customerRef: string; stage: string }> };
  expect(progress.queryResult[0]).toMatchObject({ customerRef: ref });

  const result = JSON.parse(
    await temporalCli(['workflow', 'result', '--workflow-id', workflowId, '--output', 'json']),
  ) as {
    status: string;
    result: { customerRef: string; card: { cardNo: string } };
  };
  expect(result).toMatchObject({
    status: 'COMPLETED',
    result: { customerRef: ref, card: { cardNo: expect.stringMatching(/^\d+$/) } },
  });

  // A second start for the same customer is refused by the documented policies; the CLI (the Go
  // SDK underneath) then answers with the existing run instead of starting a second onboarding.
  const again = await start('--id-reuse-policy', 'RejectDuplicate');
  expect(runIdOf(again)).toBe(runIdOf(started));
  let executions = 0;
  for await (const execution of temporal.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    expect(execution.status.name).toBe('COMPLETED');
    executions += 1;
  }
  expect(executions).toBe(1);

  const handle = temporal.client.workflow.getHandle(workflowId);
  const described = await handle.describe();
  expect(described.typedSearchAttributes.get(CardflowCustomerRef)).toBe(ref);
  expect(described.typedSearchAttributes.get(CardflowFlow)).toBe('onboarding');
  expect(described.typedSearchAttributes.get(CardflowStage)).toBe('completed');

  // Only ciphertext reached Temporal; the first payload is the input the CLI was given.
  const payloads = collectPayloads(await handle.fetchHistory());
  expect(payloads.length).toBeGreaterThan(1);
  for (const payload of payloads) expect(Buffer.from(payload.metadata!.encoding!).toString()).toBe(ENCODING_ENCRYPTED);
  const [decodedInput] = await new AesGcmPayloadCodec(keyring).decode([payloads[0]!]);
  expect(JSON.parse(Buffer.from(decodedInput!.data!).toString())).toEqual(input);
});

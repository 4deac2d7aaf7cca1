/**
 * No card detail, PIN, activation code or identity document byte in any metric or span, with
 * telemetry on as production runs it: a worker process and a receiver process (`workers/main.ts`,
 * `webhooks/main.ts`) each serving Prometheus metrics and exporting every trace over OTLP to an
 * endpoint the test stands up, and the test as a traced backend using the client package. The
 * paths that touch those secrets run: a B2C onboarding from document bytes to an active card, a
 * gift card's onboarding, a reveal of both cards' details (a gift card has an activation link),
 * a physical card activated with its activation code and a PIN, and a PIN change. Then every
 * scraped metrics text, every exported span and resource, and both processes' log lines are
 * searched for each secret (support/telemetry-scan.ts).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as otel from '@opentelemetry/api';
import { awaitActivation, getActivationStatus, startActivation } from '../../../../client/activation';
import { openCardDetails } from '../../../../client/card-details';
import { updateCardPin } from '../../../../client/card-entity';
import { storeFile } from '../../../../client/files';
import { awaitResult, startOnboarding, type OnboardingRequest } from '../../../../client/onboarding';
import { readConfiguration } from '../../../../platform/config/schema';
import { connectTemporalClient, type TemporalClientHandle } from '../../../../platform/temporal/connection';
import { startTracing, type Tracing } from '../../../../platform/telemetry/tracing';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';
import { freePort } from '../../../../tools/scripts/lib/free-port';
import { startOtlpReceiver, type OtlpReceiver } from '../../../cluster/support/otlp-receiver';
import { b2cHolderWithoutDocuments } from '../../../fixtures/holders';
import {
  eventually,
  FAST_WAIT,
  physicalCard,
  startCardHarness,
  workerProcessEnv,
  type CardHarness,
} from '../../support/card-harness';
import { customerRef, harnessWorkerEnv } from '../../support/harness';
import { recordDocumentContents } from '../../support/issued-secrets';
import { sandboxReferenceData } from '../../support/reference-data';
import { startReceiverProcess, type ReceiverProcess } from '../../support/receiver-process';
import {
  documentSecrets,
  metricFields,
  type ScannedOutput,
  secretsIn,
  spanOutputs,
  type Secret,
} from '../../support/telemetry-scan';
import { testCodecKeys, testTemporalServer } from '../../support/temporal-env';
import { startWorkerProcess, type WorkerProcess } from '../../support/worker-process';

jest.setTimeout(300_000);

const codecKeys = testCodecKeys('telemetry-scan');
let h: CardHarness;
let otlp: OtlpReceiver;
let worker: WorkerProcess | undefined;
let receiver: ReceiverProcess | undefined;
let backend: { tracing: Tracing; temporal: TemporalClientHandle } | undefined;
let dir: string;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  // No receiver in the test's process: the receiver process takes the sandbox's deliveries.
  h = await startCardHarness({ webhooks: false });
  dir = await mkdtemp(join(tmpdir(), 'cardflow-telemetry-scan-'));
}, 180_000);

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await receiver?.stop('SIGKILL');
  await backend?.temporal.close();
  await backend?.tracing.shutdown();
  otel.trace.disable();
  otel.context.disable();
  otel.propagation.disable();
  await h?.stop();
  await otlp?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Tracing as production turns it on, every trace kept (the default keeps one in ten). */
const TRACING = () => ({
  ...otlp.env,
  OTEL_TRACES_SAMPLER: 'parentbased_always_on',
  OTEL_BSP_SCHEDULE_DELAY: '200',
});

const png = (text: string) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(text)]);

const pin = () => String(randomInt(100_000, 1_000_000));

it('no secret reaches a metric label, a span or a log line of the worker, the receiver or a traced backend', async () => {
  const [workerMetrics, receiverMetrics, receiverPort] = [await freePort(), await freePort(), await freePort()];
  const { address, namespace } = testTemporalServer();
  worker = startWorkerProcess({
    ...workerProcessEnv(h, { providerUrl: h.sandbox.url, taskQueue: h.taskQueue, codecKeys }),
    ...TRACING(),
    CARDFLOW_METRICS_ADDRESS: `127.0.0.1:${workerMetrics}`,
    CARDFLOW_METRICS_SAMPLE_SECONDS: '1',
    CARDFLOW_LOG_LEVEL: 'debug',
  });
  receiver = startReceiverProcess({
    ...harnessWorkerEnv(h, { taskQueue: h.taskQueue, codecKeys }),
    ...TRACING(),
    // The receiver names its server as the Temporal CLI and SDK read it.
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: namespace,
    CARDFLOW_WEBHOOK_PORT: String(receiverPort),
    CARDFLOW_WEBHOOK_DATA_DIR: join(dir, 'webhooks'),
    CARDFLOW_METRICS_ADDRESS: `127.0.0.1:${receiverMetrics}`,
    CARDFLOW_LOG_LEVEL: 'debug',
  });
  h.sandbox.setWebhookUrl(await receiver.listening());
  await worker.polling(150_000);

  // The backend: the client package, configured by environment, tracing as the processes do.
  const env = {
    ...h.sandbox.env,
    ...TRACING(),
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: namespace,
    CARDFLOW_CODEC_KEYS: codecKeys,
    CARDFLOW_FILE_STORE_DIR: h.fileStoreDir,
    CARDFLOW_REVEAL_LOG_DIR: join(dir, 'reveals'),
  };
  const config = readConfiguration(env);
  const tracing = startTracing('backend', config)!;
  backend = { tracing, temporal: await connectTemporalClient({ env, configuration: config }) };
  const { client } = backend.temporal;
  const traced = <T>(name: string, fn: () => Promise<T>) =>
    tracing.tracer.startActiveSpan(`backend ${name}`, (span) => fn().finally(() => span.end()));
  const opts = { taskQueue: h.taskQueue };
  const merchantPublicKey = h.sandbox.keys.merchant.publicKeyPem;

  // A B2C customer onboarded from the bytes of their documents to an active card.
  const unique = randomUUID().replace(/-/g, '').slice(0, 12);
  const documents = Object.fromEntries(
    ['front', 'back', 'selfie'].map((name) => {
      const marker = `${name} ${randomUUID().replace(/-/g, '')} ${unique}`;
      return [name, { marker, data: png(marker) }];
    }),
  );
  recordDocumentContents(Object.fromEntries(Object.entries(documents).map(([n, d]) => [`${n}.png`, d.marker])));
  const holder = b2cHolderWithoutDocuments({ email: `telemetry+${unique}@example.com`, idNumber: `P${unique}` });
  const ref = customerRef('telemetry');
  const card = await traced('onboarding', async () => {
    const stored = async (name: string) =>
      (await storeFile({ filename: `${name}.png`, data: documents[name]!.data }, { config })).ref;
    const request: OnboardingRequest = {
      customerRef: ref,
      cardTypeId: CARD_TYPE_IDS.b2cVirtual,
      holder: {
        ...holder,
        idFrontRef: await stored('front'),
        idBackRef: await stored('back'),
        idHoldRef: await stored('selfie'),
      },
      wait: FAST_WAIT,
    };
    // The start is checked against the reference data, read from the sandbox as a backend with
    // the provider settings reads it.
    await startOnboarding(client, request, { ...opts, referenceData: sandboxReferenceData(h.provider) });
    return (await awaitResult(client, ref)).card;
  });
  expect(card.cardStatus).toBe('Normal');

  // A gift card onboarded too; both cards' details revealed through the client.
  const giftRef = customerRef('telemetry-gift');
  const gift = await traced('gift onboarding', async () => {
    await startOnboarding(
      client,
      { customerRef: giftRef, cardTypeId: CARD_TYPE_IDS.gift, initialDeposit: '25', wait: FAST_WAIT },
      opts,
    );
    return (await awaitResult(client, giftRef)).card;
  });
  const reader = openCardDetails(config);
  const who = { caller: 'telemetry scan', reason: 'customer asked' };
  const [details, giftDetails] = await traced('reveal', () =>
    Promise.all([reader.reveal(card.cardNo, who), reader.reveal(gift.cardNo, who)]),
  ).finally(() => reader.close());
  expect(details).toMatchObject({
    cardNumber: expect.stringMatching(/^\d{15,19}$/),
    cvv: expect.stringMatching(/^\d{3,4}$/),
    expireDate: expect.any(String),
  });
  expect(giftDetails.activateUrl).toMatch(/^https:\/\//);

  // A physical card activated with its activation code and a PIN, then its PIN changed.
  const { cardNo: physical } = await physicalCard(h.provider);
  const [activationPin, newPin] = [pin(), pin()];
  const activationCode = await traced('activation', async () => {
    await startActivation(
      client,
      { cardNo: physical, route: 'activation_code', pin: activationPin, wait: FAST_WAIT },
      { ...opts, merchantPublicKey },
    );
    await eventually(
      () => getActivationStatus(client, physical),
      (s) => s.stage === 'awaiting_code',
      'awaiting_code',
    );
    const issued = await h.helper<{ activationCode: string }>('issueActivationCode', { cardNo: physical });
    expect(await awaitActivation(client, physical)).toMatchObject({ cardStatus: 'Normal' });
    return issued.activationCode;
  });
  const entity = { ...opts, wait: FAST_WAIT, merchantPublicKey };
  expect(
    await traced('pin', () => updateCardPin(client, physical, { requestId: 'pin-1', pin: newPin }, entity)),
  ).toMatchObject({ kind: 'updatePin', status: 'success' });

  // What operators see: both metrics endpoints scraped, then the processes stopped as an
  // orchestrator stops them, which exports the spans they still buffer.
  const scraped = {
    worker: await (await fetch(`http://127.0.0.1:${workerMetrics}/metrics`)).text(),
    receiver: await (await fetch(`http://127.0.0.1:${receiverMetrics}/metrics`)).text(),
  };
  await receiver.stop('SIGTERM');
  await worker.stop('SIGTERM');
  await tracing.shutdown();

  const outputs: ScannedOutput[] = [
    ...Object.entries(scraped).map(([process, text]) => ({
      where: `the ${process}'s metrics`,
      fields: metricFields(text),
    })),
    ...spanOutputs(otlp.requests),
    { where: "the worker's log", fields: [worker.output()] },
    { where: "the receiver's log", fields: [receiver.output()] },
  ];
  // The outputs hold what these paths did (so the scan reads real telemetry, not an empty one).
  expect(scraped.worker).toMatch(/cardflow_provider_calls_total\{[^}]*operation="uploadFile"/);
  expect(scraped.worker).toMatch(/cardflow_provider_calls_total\{[^}]*operation="activatePhysicalCard"/);
  expect(scraped.worker).toMatch(/cardflow_provider_calls_total\{[^}]*operation="updatePin"/);
  expect(scraped.receiver).toMatch(/cardflow_webhook_deliveries_total\{[^}]*category="card_holder"/);
  const spanNames = new Set(outputs.map((o) => o.where));
  for (const name of [
    'span "StartWorkflow:customerOnboarding" of cardflow-backend',
    'span "RunWorkflow:customerOnboarding" of cardflow-worker',
    'span "provider uploadFile" of cardflow-worker',
    'span "provider createCardholder" of cardflow-worker',
    'span "provider activatePhysicalCard" of cardflow-worker',
    'span "provider updatePin" of cardflow-worker',
    'span "backend reveal" of cardflow-backend',
  ])
    expect({ name, exported: spanNames.has(name) }).toEqual({ name, exported: true });
  expect(
    [...spanNames].some((name) => name.startsWith('span "webhook ') && name.endsWith('of cardflow-webhooks')),
  ).toBe(true);

  // A workflow span carries its run's identity, never the run's memo, search attributes, last
  // result or last failure (workers/workflow-span-sink.ts).
  const runSpan = otlp.spans.find((span) => span.name === 'RunWorkflow:customerOnboarding');
  expect(runSpan?.attributes).toMatchObject({ workflowType: 'customerOnboarding', workflowId: expect.any(String) });
  const workflowSpanKeys = new Set(
    otlp.spans.filter((span) => span.attributes.workflowId !== undefined).flatMap((s) => Object.keys(s.attributes)),
  );
  for (const key of ['memo', 'searchAttributes', 'lastResult', 'lastFailure', 'parent', 'root'])
    expect({ key, carried: workflowSpanKeys.has(key) }).toEqual({ key, carried: false });

  const secrets: Secret[] = [
    { what: 'the card number', value: details.cardNumber! },
    { what: 'the expiry', value: details.expireDate! },
    { what: "the gift card's activation link", value: giftDetails.activateUrl! },
    { what: 'the activation PIN', value: activationPin },
    { what: 'the new PIN', value: newPin },
    { what: 'the activation code', value: activationCode },
    ...Object.entries(documents).flatMap(([name, d]) => documentSecrets(`the ${name} document's`, d.data, d.marker)),
  ];
  const toFind = { values: secrets, cvv: { cvv: details.cvv!, expiry: details.expireDate! } };
  // Each secret is a value the scan finds where it is (none empty, each document's runs real).
  const planted = secretsIn(
    [{ where: 'a planted field', fields: [...secrets.map((s) => s.value), details.cvv!] }],
    toFind,
  );
  expect(planted).toHaveLength(secrets.length + 1);
  expect(secretsIn(outputs, toFind)).toEqual([]);
});

/**
 * `npm start`: the whole of cardflow on loopback, and one demo customer onboarded end to end. It
 * brings up the embedded codec server, the dev server with its Web UI, the receiver, the sandbox
 * (with a few seconds per review step, to follow along) and the worker; starts the demo, prints
 * each stage and its UI link, and stays up until Ctrl-C, stopping in reverse order. Machine logs
 * go to `.data/npm-start.log`, named in the output, so they do not interleave with the stages.
 * Configuration alone leaves loopback: TEMPORAL_ADDRESS (and its TLS or API key) for another
 * Temporal, CARDFLOW_PROVIDER_BASE_URL (and the keys) for the real provider, CARDFLOW_DEMO_FILE
 * or CARDFLOW_DEMO=0 for the demo (the README's configuration table).
 */
import { type Client, type Connection } from '@temporalio/client';
import { type DataConverter, type SearchAttributeType } from '@temporalio/common';
import { loadClientConnectConfig } from '@temporalio/envconfig';
import {
  NativeConnection,
  type NativeConnectionOptions,
  Runtime,
  type WorkerOptions,
  type WorkflowBundle,
} from '@temporalio/worker';
import { mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { type ProviderConfig, providerConfig } from '../../provider/config';
import { createProviderClient, type ProviderClient } from '../../provider/client';
import { connectTemporalClient, type TemporalClientHandle } from '../../platform/temporal/connection';
import { describeProgress, describeResult, workflowUiUrl } from '../../client/describe';
import { dataConverterFor } from '../../platform/codec/data-converter';
import { EnvironmentError } from '../../platform/config/environment';
import { startEmbeddedCodecServer } from '../../platform/codec/embedded';
import { awaitResult, startOnboarding } from '../../client/onboarding';
import { parseOnboardingInput } from '../../client/validation';
import { ensureReconcileSchedule, reconcileSettings } from '../../client/reconciliation';
import { watchProgress } from '../../client/progress';
import { cardflowSearchAttributes } from '../../domain/search-attributes';
import { type StructuredLogger, createLogger } from '../../platform/logging/logger';
import type { SandboxDelays } from '../sandbox/contract';
import { type RunningSandbox, ensureSandboxKeys, startSandbox } from '../sandbox/index';
import { receiverLogging } from '../../webhooks/main';
import { type WebhookReceiver, type WebhookReceiverOptions, startWebhookReceiver } from '../../webhooks/receiver';
import { fileStoreFor, referenceStoreFor, routeStoreFor } from '../../platform/storage/from-config';
import { referenceData } from '../../client/reference-data';
import { ensureReferenceSchedule } from '../../client/reference-schedule';
import { createWorker } from '../../workers/create-worker';
import type { CardflowWorker } from '../../workers/cardflow-worker';
import { startDevServer, stopDevServer } from './dev-server';
import { entryPointArgs } from '../../platform/config/command-line';
import {
  type Configuration,
  ConfigurationProblems,
  configured,
  readConfiguration,
  schemaDefault,
} from '../../platform/config/schema';
import { processEnv } from '../../platform/config/process-env';
import {
  bootstrapCurrentVersion,
  type BootstrapMode,
  versionString,
  versioningSettings,
} from '../../workers/versioning';

const repoRoot = path.resolve(__dirname, '..', '..');

/** Sandbox delays for people: a few seconds per review step and per card operation. */
export const DEMO_DELAYS: Partial<SandboxDelays> = {
  reviewAdminMs: 4_000,
  reviewChannelMs: 4_000,
  cardOperationMs: 2_000,
  webhookRetryScale: 1 / 60,
};

export interface StackOptions {
  /** Temporal connection (as `@temporalio/envconfig` gives it) and namespace. */
  connectionOptions: NativeConnectionOptions;
  namespace: string;
  /** The real provider; default: start the sandbox. */
  provider?: ProviderConfig;
  /** Sandbox settings when no real provider is given. */
  sandbox?: { port?: number; keysDir?: string; delays?: Partial<SandboxDelays>; seed?: number };
  receiver?: Pick<WebhookReceiverOptions, 'host' | 'port' | 'dataDir' | 'onHandled' | 'log'>;
  taskQueue?: string;
  workflowBundle?: WorkflowBundle;
  workerOptions?: Omit<
    WorkerOptions,
    'connection' | 'namespace' | 'taskQueue' | 'activities' | 'workflowsPath' | 'workflowBundle' | 'dataConverter'
  >;
  /** The configuration `npm start` read once (platform/config/schema.ts). */
  configuration: Configuration;
  /**
   * The one data converter of the client, the receiver and the worker; default the configuration's
   * keys'.
   */
  dataConverter?: DataConverter;
  /** Where a failing stop step is reported; default a JSON logger on stderr. */
  logger?: StructuredLogger;
  /**
   * Run the worker as a version of this deployment (workers/versioning.ts) and make it current as
   * `bootstrap` says; unset: unversioned.
   */
  versioning?: { deploymentName: string; bootstrap: BootstrapMode } | undefined;
}

/** A running receiver + sandbox + worker on one Temporal namespace. */
export interface Stack {
  client: Client;
  temporal: TemporalClientHandle;
  receiver: WebhookReceiver;
  /** Undefined with a real provider. */
  sandbox?: RunningSandbox;
  /** The worker's provider client (the sandbox's or the real provider's). */
  provider: ProviderClient;
  worker: CardflowWorker;
  /** Resolves when the worker has stopped. */
  workerRun: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the webhook receiver, the sandbox (unless a real provider is configured) and the worker.
 * The receiver comes first because the sandbox needs its URL; both share the platform key pair.
 */
export async function startStack(opts: StackOptions): Promise<Stack> {
  const logger = opts.logger ?? createLogger({ base: { service: 'cardflow-start' } });
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse())
      await stop().catch((error: unknown) => logger.error('stack: a stop step failed', { error }));
  };
  try {
    // Resolved before anything starts: a bad or missing key fails here, with the codec's message.
    const dataConverter = opts.dataConverter ?? dataConverterFor(opts.configuration).dataConverter;
    const address = opts.connectionOptions.address ?? schemaDefault('TEMPORAL_ADDRESS');
    const temporal = await connectTemporalClient({
      env: { ...processEnv(), TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: opts.namespace },
      configuration: opts.configuration,
      dataConverter,
    });
    stops.push(() => temporal.close());

    const keys = opts.provider
      ? undefined
      : ensureSandboxKeys(opts.sandbox?.keysDir ?? path.join(repoRoot, '.data', 'sandbox'));
    // The worker records routes where the receiver reads them (platform/storage/route-store.ts).
    const routes = routeStoreFor(opts.configuration);
    stops.push(() => routes.close());
    const receiver = await startWebhookReceiver({
      ...opts.receiver,
      platformPublicKey: opts.provider?.platformPublicKey ?? keys!.platform.publicKey,
      client: temporal.client,
      routes,
    });
    stops.push(() => receiver.stop());

    let sandbox: RunningSandbox | undefined;
    if (keys) {
      sandbox = await startSandbox({
        keys,
        port: opts.sandbox?.port ?? 0,
        delays: opts.sandbox?.delays ?? DEMO_DELAYS,
        webhookUrl: receiver.url,
        // The sandbox keeps its state in memory while Temporal keeps workflows: a new seed per run
        // keeps this run's holder and card ids apart from those of workflows left running by an
        // earlier run.
        seed: opts.sandbox?.seed ?? Date.now() % 2_147_483_647,
      });
      stops.push(() => sandbox!.stop());
    }
    const providerConfig = opts.provider ?? sandbox!.clientConfig();
    const provider = createProviderClient(providerConfig);
    stops.push(() => provider.close());

    const connection = await NativeConnection.connect(opts.connectionOptions);
    stops.push(() => connection.close());
    const worker = await createWorker({
      connection,
      namespace: opts.namespace,
      ...(opts.taskQueue ? { taskQueue: opts.taskQueue } : {}),
      // The merchant key opens sealed PINs and activation codes inside the activities that need
      // them.
      activityDeps: {
        provider,
        merchantPrivateKey: providerConfig.merchantPrivateKey,
        fileStore: fileStoreFor(opts.configuration),
        routes,
        referenceStore: referenceStoreFor(opts.configuration),
      },
      ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : {}),
      workerOptions: { shutdownGraceTime: '10s', ...opts.workerOptions, dataConverter },
      ...(opts.versioning ? { versioning: { deploymentName: opts.versioning.deploymentName } } : {}),
    });
    const workerRun = worker.run();
    const version = worker.workflows.options.workerDeploymentOptions?.version;
    if (version && opts.versioning && opts.versioning.bootstrap !== 'off') {
      const { outcome, current } = await bootstrapCurrentVersion(connection, {
        namespace: opts.namespace,
        version,
        identity: worker.workflows.options.identity,
        mode: opts.versioning.bootstrap,
      });
      logger.info('stack: worker deployment checked', { version: versionString(version), outcome, current });
    }
    stops.push(async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await workerRun;
    });
    return {
      client: temporal.client,
      temporal,
      receiver,
      ...(sandbox ? { sandbox } : {}),
      provider,
      worker,
      workerRun,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

function demoInput(config: Configuration): Record<string, unknown> {
  const file = config.CARDFLOW_DEMO_FILE ?? path.join(repoRoot, 'client', 'examples', 'customer.json');
  const input = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  // One customer reference is one execution ever (REJECT_DUPLICATE): a fresh one per run shows a
  // fresh onboarding.
  const runTag = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  input.customerRef = config.CARDFLOW_DEMO_CUSTOMER_REF ?? `${String(input.customerRef)}-${runTag}`;
  // The provider refuses a second cardholder with the same email under one card type: tag it per
  // run.
  const holder = input.holder as { email?: unknown } | undefined;
  if (config.CARDFLOW_DEMO_CUSTOMER_REF === undefined && typeof holder?.email === 'string')
    holder.email = holder.email.replace('@', `+${runTag}@`);
  return input;
}

/** temporal.api.enums.v1.IndexedValueType numbers of the search attribute types cardflow uses. */
const INDEXED_VALUE_TYPE: Partial<Record<SearchAttributeType, number>> = {
  KEYWORD: 2,
  INT: 3,
  BOOL: 5,
  DATETIME: 6,
  KEYWORD_LIST: 7,
};

/**
 * Registers the project's search attributes the namespace lacks. `temporal server start-dev
 * --search-attribute` only registers them when it creates its database: a `.data/temporal` made by
 * an older checkout misses attributes added since (e.g. CardflowOrderNos), and workflows setting
 * them would fail their tasks. Local dev server only (Temporal Cloud registers them in its
 * console).
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = cardflowSearchAttributes.filter((key) => !(key.name in (customAttributes ?? {})));
  if (missing.length === 0) return [];
  const searchAttributes = Object.fromEntries(missing.map((key) => [key.name, INDEXED_VALUE_TYPE[key.type] ?? 2]));
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
  return missing.map((key) => key.name);
}

const clock = () => new Date().toISOString().slice(11, 19);

/** Where this run's JSON log lines go (see the header). */
const LOG_FILE = path.join(__dirname, '..', '..', '.data', 'npm-start.log');

/**
 * A logger's `write` into {@link LOG_FILE}, emptied first; error lines also to stderr, so a failure
 * shows where the person looks. Synchronous writes: nothing is lost when the process exits.
 */
function logFileWriter(): (line: string) => void {
  mkdirSync(path.dirname(LOG_FILE), { recursive: true });
  const fd = openSync(LOG_FILE, 'w');
  return (line) => {
    writeSync(fd, `${line}\n`);
    // formatRecord writes `level` first.
    if (line.startsWith('{"level":"error"')) process.stderr.write(`${line}\n`);
  };
}

/**
 * `npm start`'s worker is a version like every worker; on a developer's own dev server each start
 * makes its build current (CARDFLOW_DEPLOYMENT_BOOTSTRAP defaults to `always` here), so edited
 * workflow code serves new starts at once. Runs pinned to an earlier build wait for that build
 * (docs/versioning.md, "On the dev server").
 */
function startVersioning(config: Configuration): StackOptions['versioning'] {
  const settings = versioningSettings({
    ...config,
    CARDFLOW_DEPLOYMENT_BOOTSTRAP: config.CARDFLOW_DEPLOYMENT_BOOTSTRAP ?? 'always',
  });
  return settings.enabled ? { deploymentName: settings.deploymentName, bootstrap: settings.bootstrap } : undefined;
}

/**
 * The developer's own Temporal dev server when TEMPORAL_ADDRESS names none: started (or found
 * running), its Web UI decoding through the embedded codec server, cardflow's search attributes
 * registered. Sets TEMPORAL_ADDRESS in `env` for what starts next.
 */
async function startLocalTemporal(
  configuration: Configuration,
  env: NodeJS.ProcessEnv,
  codecUrl: string,
): Promise<{ startedDevServer: boolean; uiBase: string | undefined }> {
  if (configuration.TEMPORAL_ADDRESS !== undefined) {
    return { startedDevServer: false, uiBase: configuration.CARDFLOW_TEMPORAL_UI_URL };
  }
  const dev = await startDevServer({ uiCodecEndpoint: codecUrl, configuration });
  env.TEMPORAL_ADDRESS = dev.address;
  console.log(
    `${clock()}  Temporal dev server ${dev.reused ? 'already running' : 'started'} at ${dev.address}, Web UI ${dev.uiUrl} (${dev.uiCodecEndpoint ? `decodes payloads through ${dev.uiCodecEndpoint}` : 'no codec endpoint'})`,
  );
  if (dev.uiCodecEndpoint !== codecUrl) {
    console.log(
      `${clock()}  NOTE: the running dev server was started ${dev.uiCodecEndpoint ? `with the codec endpoint ${dev.uiCodecEndpoint}` : 'without a codec endpoint'}, ` +
        `so its Web UI shows payloads encrypted. Restart it (workflows are kept): Ctrl-C, npm run dev-server -- stop, npm start.`,
    );
  }
  const local = await connectTemporalClient({ env: { TEMPORAL_ADDRESS: dev.address } });
  try {
    const added = await ensureSearchAttributes(local.connection, local.namespace);
    if (added.length) console.log(`${clock()}  registered search attributes ${added.join(', ')}`);
  } finally {
    await local.close();
  }
  return { startedDevServer: !dev.reused, uiBase: configuration.CARDFLOW_TEMPORAL_UI_URL ?? dev.uiUrl };
}

async function main(): Promise<void> {
  const env = processEnv();
  // Without a provider URL this starts its own sandbox: production must name the real provider.
  const configuration = readConfiguration(env, { embedsSandbox: true });
  const write = logFileWriter();
  console.log(
    `${clock()}  logs: JSON lines of the receiver, worker, codec server and SDK in ${path.relative(process.cwd(), LOG_FILE)}`,
  );
  const logger = createLogger({ base: { service: 'cardflow-start' }, write });
  // One ordered shutdown on Ctrl-C instead of the SDK's own signal handling. The SDK's messages,
  // core's included (forwarded), come out as our JSON lines; below WARN only when
  // CARDFLOW_LOG_LEVEL asks (they would drown the progress lines).
  const sdkLevel = configuration.CARDFLOW_LOG_LEVEL ?? 'WARN';
  Runtime.install({
    shutdownSignals: [],
    logger: createLogger({ level: sdkLevel, base: { service: 'cardflow-worker' }, write }),
    telemetryOptions: { logging: { filter: { core: sdkLevel, other: 'ERROR' }, forward: {} } },
  });

  const codec = dataConverterFor(configuration);
  console.log(
    `${clock()}  payloads encrypted with key ${codec.currentKeyId} (${codec.keySource === 'env' ? 'CARDFLOW_CODEC_KEYS' : 'dev key file .data/codec/dev-keys.json'})`,
  );
  // One line per decode request (the Web UI sends many per page): only at CARDFLOW_LOG_LEVEL=info
  // or below.
  const codecLogger = createLogger({
    level: sdkLevel,
    base: { service: 'cardflow-start', component: 'codec-server' },
    write,
  });
  const codecServer = await startEmbeddedCodecServer(configuration, { logger: codecLogger });
  console.log(`${clock()}  codec server ${codecServer.reused ? 'already running' : 'started'} at ${codecServer.url}`);

  const local = await startLocalTemporal(configuration, env, codecServer.url);
  const startedDevServer = local.startedDevServer;
  let uiBase = local.uiBase;
  uiBase ??= schemaDefault('CARDFLOW_TEMPORAL_UI_URL');
  const config = loadClientConnectConfig({
    overrideEnvVars: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
  });
  const namespace = config.namespace ?? 'default';
  const provider = configuration.CARDFLOW_PROVIDER_BASE_URL ? providerConfig(configuration) : undefined;

  const stack = await startStack({
    connectionOptions: config.connectionOptions,
    namespace,
    ...(provider ? { provider } : {}),
    sandbox: { port: configuration.CARDFLOW_SANDBOX_PORT ?? 0 },
    receiver: {
      host: configuration.CARDFLOW_WEBHOOK_HOST ?? '127.0.0.1',
      port: configuration.CARDFLOW_WEBHOOK_PORT ?? 0,
      ...receiverLogging(logger.child({ component: 'webhooks' })),
    },
    configuration,
    dataConverter: codec.dataConverter,
    logger,
    versioning: startVersioning(configuration),
  });
  const version = stack.worker.workflows.options.workerDeploymentOptions?.version;
  if (version) console.log(`${clock()}  worker version ${versionString(version)} (docs/versioning.md)`);
  console.log(
    `${clock()}  provider: ${stack.sandbox ? `sandbox at ${stack.sandbox.url}` : configuration.CARDFLOW_PROVIDER_BASE_URL}`,
  );
  console.log(`${clock()}  webhook receiver at ${stack.receiver.url}`);
  console.log(`${clock()}  worker polling task queue cardflow (namespace ${namespace})`);
  const reconcile = reconcileSettings(configuration);
  if (reconcile.schedule) {
    const { scheduleId, created } = await ensureReconcileSchedule(stack.client, reconcile);
    // One run now, so this session shows a report without waiting for the first interval.
    await stack.client.schedule.getHandle(scheduleId).trigger();
    console.log(
      `${clock()}  reconciliation schedule ${scheduleId} ${created ? 'created' : 'updated'} (every ${reconcile.intervalMs / 60_000} min), one run started now; cardflow reconcile runs one on demand`,
    );
  }
  const refreshMs = configured(configuration, 'CARDFLOW_REFERENCE_REFRESH_INTERVAL');
  const reference = await ensureReferenceSchedule(stack.client, { intervalMs: refreshMs });
  console.log(
    `${clock()}  reference data refresh schedule ${reference.scheduleId} ${reference.created ? 'created' : 'updated'} (every ${refreshMs / 3_600_000} h); cardflow reference <list> prints a list`,
  );

  const abort = new AbortController();
  let stopping: Promise<void> | undefined;
  const shutdown = (signal: string) => {
    if (stopping) return;
    console.log(`\n${clock()}  ${signal}: shutting down`);
    abort.abort();
    stopping = (async () => {
      await stack.stop();
      if (startedDevServer) await stopDevServer();
      await codecServer.stop();
      console.log(`${clock()}  stopped`);
    })();
  };
  // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by npm/tsx),
  // and a second signal without a handler would kill it halfway through the ordered stop.
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  if (configuration.CARDFLOW_DEMO !== '0')
    await runDemo(stack, configuration, uiBase, codecServer.url, namespace, abort.signal);
  if (!abort.signal.aborted)
    console.log(
      `${clock()}  cardflow is up; Temporal UI ${uiBase} (payloads decoded by the codec server ${codecServer.url}). Ctrl-C to stop.`,
    );
  await stack.workerRun;
  await stopping;
}

/**
 * Starts the demo onboarding and prints its stages until it closes; a failure is reported, the
 * stack stays up.
 */
async function runDemo(
  { client, provider }: Pick<Stack, 'client' | 'provider'>,
  config: Configuration,
  uiBase: string,
  codecUrl: string,
  namespace: string,
  signal: AbortSignal,
): Promise<void> {
  try {
    // The demo file is checked as any input (naming the field), then started.
    // Checked against the reference data as a backend's start is; a list not cached yet is read
    // from this stack's provider.
    const store = referenceStoreFor(config);
    const reference = referenceData({ store, provider }, () => store.close());
    const started = await startOnboarding(client, parseOnboardingInput(demoInput(config)), {
      referenceData: reference,
    }).finally(() => reference.close());
    console.log(`${clock()}  demo onboarding ${started.started ? 'started' : 'found'}: ${started.workflowId}`);
    console.log(
      `${clock()}  watch it in the Temporal UI: ${workflowUiUrl(uiBase, namespace, started.workflowId)} (decoded through ${codecUrl})`,
    );
    const customerRef = started.workflowId.replace(/^onboarding-/, '');
    const watched = await watchProgress(
      client,
      customerRef,
      (p) => console.log(`${clock()}  stage: ${describeProgress(p)}`),
      { signal },
    );
    if (watched.status === 'COMPLETED') console.log(describeResult(await awaitResult(client, customerRef)));
    else if (watched.status !== 'RUNNING') console.log(`${clock()}  demo onboarding ended ${watched.status}`);
  } catch (error) {
    console.error(`${clock()}  demo onboarding: ${error instanceof Error ? error.message : String(error)}`);
  }
}

if (require.main === module) {
  entryPointArgs({
    name: 'npm start',
    summary:
      'the whole of cardflow on loopback (codec server, Temporal dev server, webhook receiver, sandbox, worker) and one demo customer onboarded; Ctrl-C stops it',
    details: [
      'Exit codes: 2 a refused configuration (nothing started), 1 a failure.',
      'CARDFLOW_DEMO=0 skips the demo onboarding; CARDFLOW_DEMO_FILE, CARDFLOW_DEMO_CUSTOMER_REF choose its input.',
    ],
  });
  main().catch((error: unknown) => {
    // A refused configuration is the operator's to fix (exit 2, as the CLI): its message, not a
    // stack.
    if (error instanceof EnvironmentError || error instanceof ConfigurationProblems) {
      console.error(`npm start: ${error.message}\nnothing was started`);
      process.exit(2);
    }
    console.error(`npm start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  });
}

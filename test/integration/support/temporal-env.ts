/**
 * What an integration test needs to talk to the tier's one dev server (started by
 * `global-setup.ts`): a Client, a NativeConnection, and a Worker running for the duration of one
 * test on a task queue of its own, so tests never steal each other's tasks.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { tracedStarts } from './traced-starts';

/** `host:port` of the integration tier's Temporal frontend, set by the global setup. */
export const addressEnv = 'CARDFLOW_TEST_TEMPORAL_ADDRESS';
/** Namespace on that server, set by the global setup. */
export const namespaceEnv = 'CARDFLOW_TEST_TEMPORAL_NAMESPACE';
/**
 * File the tests append their codec keys to, so the teardown's replay can open what they encrypted.
 */
export const codecKeysFileEnv = 'CARDFLOW_TEST_CODEC_KEYS_FILE';

/**
 * Workers of the integration tier keep no workflow in their cache: every workflow task replays
 * the run's whole history (Updates, signals, cancellation, continue-as-new, children) before it
 * adds commands, so a run whose replay differs from its first execution fails here, not in
 * production after a worker restart.
 */
export const TEST_MAX_CACHED_WORKFLOWS = 0;

/**
 * Fresh payload-encryption keys for a test's processes (`<label>:<32 random bytes>`, the
 * CARDFLOW_CODEC_KEYS form), registered for the teardown's replay of the tier's histories.
 */
export function testCodecKeys(label: string): string {
  const keys = `${label}:${randomBytes(32).toString('base64')}`;
  const file = process.env[codecKeysFileEnv];
  if (file) appendFileSync(file, `${keys}\n`);
  return keys;
}

/** The server's address and namespace; throws if the tier's global setup did not run. */
export function testTemporalServer(): { address: string; namespace: string } {
  const address = process.env[addressEnv];
  if (!address) {
    throw new Error(
      `${addressEnv} is not set: run integration tests through jest (--selectProjects integration) so the global setup starts the dev server`,
    );
  }
  return { address, namespace: process.env[namespaceEnv] || 'default' };
}

/** A task queue no other test uses, e.g. `smoke-3f2a...`. */
export function uniqueTaskQueue(label: string): string {
  return `${label}-${randomUUID()}`;
}

export interface TestClient {
  client: Client;
  connection: Connection;
  close(): Promise<void>;
}

/**
 * A Client on the test server; call `close()` in `afterAll`. It traces half of the workflows it
 * calls, as a traced backend would (traced-starts.ts).
 */
export async function connectTestClient(): Promise<TestClient> {
  const { address, namespace } = testTemporalServer();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace, interceptors: { workflow: [tracedStarts] } });
  return { client, connection, close: () => connection.close() };
}

/**
 * Worker logs at WARN: INFO lines (bundle stats, every state change) would bury test output.
 * Only when nothing in this test file created the SDK runtime yet (it is a per-process singleton).
 */
export function quietRuntime(): void {
  if (Runtime.instantiator === undefined) Runtime.install({ logger: new DefaultLogger('WARN') });
}

/** A NativeConnection (what a Worker needs) on the test server; close it when done. */
export async function connectTestNativeConnection(): Promise<NativeConnection> {
  quietRuntime();
  return NativeConnection.connect({ address: testTemporalServer().address });
}

/** Worker options without the parts this module supplies; `taskQueue` defaults to a unique one. */
export type TestWorkerOptions = Omit<WorkerOptions, 'connection' | 'namespace' | 'taskQueue'> & { taskQueue?: string };

/**
 * Runs `fn` while a Worker polls the test server, then shuts the Worker down (also when `fn`
 * throws). `fn` receives the task queue to start workflows on.
 */
export async function runWithWorker<T>(
  options: TestWorkerOptions,
  fn: (ctx: { taskQueue: string }) => Promise<T>,
): Promise<T> {
  const { namespace } = testTemporalServer();
  const taskQueue = options.taskQueue ?? uniqueTaskQueue('test');
  const connection = await connectTestNativeConnection();
  try {
    const worker = await Worker.create({
      maxCachedWorkflows: TEST_MAX_CACHED_WORKFLOWS,
      ...options,
      connection,
      namespace,
      taskQueue,
    });
    return await worker.runUntil(() => fn({ taskQueue }));
  } finally {
    await connection.close();
  }
}

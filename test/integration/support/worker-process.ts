/**
 * The real worker process (`workers/main.ts` under tsx's loader) as a child of a test, with the
 * environment a deployed worker gets and nothing inherited from jest. Its stdout and stderr are
 * always read (a piped child whose output is never drained blocks once the pipe buffer fills) and
 * kept, so a failing test can show what the worker said. Also {@link startProviderGate}: the
 * worker's way to the provider, able to hold answers so a kill lands after a mutation was
 * committed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { TEST_MAX_CACHED_WORKFLOWS } from './temporal-env';

const ROOT = join(__dirname, '../../..');

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr interleaved). */
  output(): string;
  /**
   * Resolves once the worker logged that it polls; rejects if it exits first or after `timeoutMs`.
   */
  polling(timeoutMs?: number): Promise<void>;
  /** Sends `signal` and resolves when the process has exited (at once when it already has). */
  stop(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `workers/main.ts` (or its compiled form) with `env` (PATH and HOME are added; nothing else
 * of this process's environment). The worker does not create the reconciliation schedule unless
 * `env` asks: on the tier's shared server it would start runs on this test's queue after the test.
 */
/**
 * A Worker Deployment of the test's task queue: the tier shares one server, and processes of
 * different builds (sources, compiled) in one deployment would leave all but the current one idle.
 * Every process of one queue is one deployment, so a restarted worker takes over its queue's runs.
 */
export function testDeploymentName(taskQueue: string): string {
  return `test-${createHash('sha256').update(taskQueue).digest('hex').slice(0, 16)}`;
}

export function startWorkerProcess(env: Record<string, string>, opts: { compiled?: string } = {}): WorkerProcess {
  // `node --import tsx`, not the tsx CLI: the CLI runs the script in a second node process, so a
  // SIGKILL sent to it leaves that worker running as an orphan (still polling, still holding this
  // test's stdout pipe open, which keeps jest from exiting). `compiled`: dist/workers/main.js,
  // which loads the prebuilt workflow bundle instead of bundling at start.
  const args = opts.compiled ? [opts.compiled] : ['--import', 'tsx', join(ROOT, 'workers/main.ts')];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      CARDFLOW_RECONCILE_SCHEDULE: '0',
      CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS: String(TEST_MAX_CACHED_WORKFLOWS),
      CARDFLOW_DEPLOYMENT_NAME: testDeploymentName(env.CARDFLOW_TASK_QUEUE ?? 'cardflow'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (process.env.CARDFLOW_TEST_DEBUG) process.stderr.write(chunk);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;

  return {
    child,
    output: () => text,
    async polling(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!text.includes('cardflow worker: polling')) {
        if (hasExited()) throw new Error(`worker process exited before polling:\n${text}`);
        if (Date.now() > deadline) throw new Error(`worker process not polling after ${timeoutMs} ms:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop(signal) {
      if (!hasExited()) child.kill(signal);
      await exited;
    },
  };
}

/**
 * A pass-through HTTP proxy between a worker process and the provider sandbox that can hold the
 * answers of chosen operations: the request is forwarded, the provider acts (the change is
 * committed), and the answer is kept from the worker. A worker killed while answers are held
 * dies exactly where a mutation was sent but its outcome not recorded, which a timer cannot
 * arrange reliably. Point the worker's `CARDFLOW_PROVIDER_BASE_URL` at {@link ProviderGate.url}.
 */
export interface ProviderGate {
  /** The proxy's base URL (same path as the upstream base URL). */
  url: string;
  /** Holds the answers of requests to these paths from now on (replaces the set held). */
  hold(paths: string[]): void;
  /** Answers pass through again (answers already held stay unanswered). */
  release(): void;
  /**
   * Delays the answers of requests to these paths by `ms` from now on (the provider acted at once).
   */
  delay(paths: string[], ms: number): void;
  /** How many answers of `path` were held so far (the provider had handled each request). */
  heldCount(path: string): number;
  /** Resolves once `counts[path]` answers of each path were held; rejects after `timeoutMs`. */
  waitForHeld(counts: Record<string, number>, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startProviderGate(upstreamBaseUrl: string): Promise<ProviderGate> {
  const upstream = new URL(upstreamBaseUrl);
  let holding = new Set<string>();
  let delaying = { paths: new Set<string>(), ms: 0 };
  const held = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            if (holding.has(path)) {
              held.set(path, (held.get(path) ?? 0) + 1);
              return; // committed upstream; the caller never hears of it
            }
            const send = () => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(body));
            };
            if (delaying.paths.has(path)) setTimeout(send, delaying.ms);
            else send();
          });
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const heldCount = (path: string) => held.get(path) ?? 0;

  return {
    url: upstreamBaseUrl.replace(upstream.host, `127.0.0.1:${port}`),
    hold: (paths) => {
      holding = new Set(paths);
    },
    release: () => {
      holding = new Set();
    },
    delay: (paths, ms) => {
      delaying = { paths: new Set(paths), ms };
    },
    heldCount,
    async waitForHeld(counts, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      const missing = () => Object.entries(counts).filter(([path, n]) => heldCount(path) < n);
      while (missing().length > 0) {
        if (Date.now() > deadline) {
          throw new Error(
            `answers not held in time: ${missing()
              .map(([path, n]) => `${path} ${heldCount(path)}/${n}`)
              .join(', ')}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

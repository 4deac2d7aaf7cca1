/**
 * The real worker process (`workers/main.ts` under tsx's loader) as a child of a test, with the environment a
 * deployed worker gets and nothing inherited from jest. Its stdout and stderr are always read
 * (a piped child whose output is never drained blocks once the pipe buffer fills) and kept, so a
 * failing test can show what the worker said.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr interleaved). */
  output(): string;
  /** Resolves once the worker logged that it polls; rejects if it exits first or after `timeoutMs`. */
  polling(timeoutMs?: number): Promise<void>;
  /** Sends `signal` and resolves when the process has exited (at once when it already has). */
  stop(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `workers/main.ts` with `env` (PATH and HOME are added; nothing else of this process's environment). */
export function startWorkerProcess(env: Record<string, string>): WorkerProcess {
  // `node --import tsx`, not the tsx CLI: the CLI runs the script in a second node process, so a
  // SIGKILL sent to it leaves that worker running as an orphan (still polling, still holding this
  // test's stdout pipe open, which keeps jest from exiting).
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'workers/main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
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

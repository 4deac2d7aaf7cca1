/**
 * The real webhook receiver process (`webhooks/main.ts` under tsx's loader) as a child of a test,
 * with the environment a deployed receiver gets and nothing inherited from jest; its output is
 * always drained and kept, as a worker process's is (worker-process.ts).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../..');

export interface ReceiverProcess {
  /** Everything the process wrote so far (stdout and stderr interleaved). */
  output(): string;
  /**
   * The URL deliveries go to, once the receiver logged that it listens; rejects if it exits first
   * or after `timeoutMs`.
   */
  listening(timeoutMs?: number): Promise<string>;
  /** Sends `signal` and resolves when the process has exited (at once when it already has). */
  stop(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `webhooks/main.ts` with `env` (PATH and HOME are added; nothing else of jest's). */
export function startReceiverProcess(env: Record<string, string>): ReceiverProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'webhooks/main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (process.env.CARDFLOW_TEST_DEBUG) process.stderr.write(chunk);
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    output: () => text,
    async listening(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = text.split('\n').find((l) => l.includes('"webhook receiver listening"'));
        if (line) return (JSON.parse(line) as { url: string }).url;
        if (hasExited()) throw new Error(`receiver process exited before listening:\n${text}`);
        if (Date.now() > deadline) throw new Error(`receiver process not listening after ${timeoutMs} ms:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop(signal) {
      if (!hasExited()) child.kill(signal);
      await exited;
    },
  };
}

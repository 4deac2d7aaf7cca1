/**
 * The child processes of a topology, owned by the one process that started them: each is spawned
 * with its output appended to a log file (never an undrained pipe, which would block it), and
 * `stopAll` stops every one still running, newest first (clients before the servers they use).
 * `killAll` is also installed on `exit`, so a crash of the owner leaves no orphan behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** True until the process has exited. */
  running(): boolean;
  /** Resolves with the exit once the process has ended (at once when it already has). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (SIGTERM by default) and waits for the exit; SIGKILL after `graceMs`. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
  /** The last lines of the log, for an error message. */
  tail(lines?: number): string;
}

export interface SpawnSpec {
  name: string;
  command: string;
  args: readonly string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Run as this unprivileged user (PostgreSQL refuses to run as root). */
  user?: string;
}

export class ProcessGroup {
  private readonly processes: ManagedProcess[] = [];
  private readonly killOnExit = () => this.killAll();

  constructor(readonly logDir: string) {
    process.on('exit', this.killOnExit);
  }

  spawn(spec: SpawnSpec): ManagedProcess {
    const logFile = join(this.logDir, `${spec.name}.log`);
    const fd = openSync(logFile, 'a');
    const [command, args] = spec.user
      ? ['runuser', ['-u', spec.user, '--', spec.command, ...spec.args]]
      : [spec.command, [...spec.args]];
    const child = spawn(command, args, {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stdio: ['ignore', fd, fd],
      // Its own process group: Ctrl-C in the terminal reaches the owner only, which stops the
      // children in order instead of all of them at once.
      detached: true,
    });
    closeSync(fd);
    let done = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('exit', (code, signal) => {
        done = true;
        resolve({ code, signal });
      });
      child.once('error', () => {
        done = true;
        resolve({ code: null, signal: null });
      });
    });
    const managed: ManagedProcess = {
      name: spec.name,
      child,
      logFile,
      running: () => !done,
      exited,
      async stop(signal = 'SIGTERM', graceMs = 15_000) {
        if (done) return;
        signalGroup(child, signal);
        const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      },
      tail(lines = 30) {
        try {
          return readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
        } catch {
          return '';
        }
      },
    };
    this.processes.push(managed);
    return managed;
  }

  /** Stops every running process, newest first. */
  async stopAll(): Promise<void> {
    for (const p of [...this.processes].reverse()) await p.stop();
    process.off('exit', this.killOnExit);
  }

  /** SIGKILLs every running process at once (synchronous, for `exit`). */
  killAll(): void {
    for (const p of this.processes) if (p.running()) signalGroup(p.child, 'SIGKILL');
  }
}

/** Signals the child's whole process group (runuser and the program it runs, tsx and node). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Polls `check` every 200 ms until it resolves true; throws `describe()` after `timeoutMs` or when
 * `p` exits.
 */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  opts: { timeoutMs?: number; process?: ManagedProcess } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (opts.process && !opts.process.running())
      throw new Error(`${opts.process.name} exited before ${what}:\n${opts.process.tail()}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached in time${opts.process ? `\n${opts.process.tail()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

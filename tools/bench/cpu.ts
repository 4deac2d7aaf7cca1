/**
 * Where the bench's CPU goes, so a figure read on a shared machine can be told from what a run
 * costs: this process's CPU by thread group (from /proc, Linux only: the main thread, core's
 * tokio threads, the workflow threads a worker starts ({@link markNewThreads}), and the rest:
 * GC, compiler, libuv), and that of the sandbox, the receiver and the Temporal server, read by pid.
 * cardflow's share is everything but the sandbox and the server. For where inside a thread: run
 * under `node --cpu-prof` and read the profiles with tools/bench/profile-summary.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface CpuSample {
  /** ms of CPU (user + system) by thread group. */
  main: number;
  core: number;
  /** The workflow threads of the workers created under {@link markNewThreads}. */
  workflow: number;
  otherThreads: number;
  /** The webhook receiver's process, when it runs apart (0 otherwise: then it is in `main`). */
  receiver: number;
  /** The sandbox's process, when it runs apart: the provider's cost, not cardflow's. */
  sandbox: number;
  /**
   * ms of CPU of the Temporal server process(es) this process started (with the cluster's
   * PostgreSQL).
   */
  server: number;
}

const TICKS_PER_MS = 100 / 1000;

/** utime + stime of a /proc stat line, in ms (fields after the parenthesised name). */
function statMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The commands of a Temporal server this process started: the CLI's dev server, the cluster's
 * services and its PostgreSQL.
 */
const SERVER_COMMANDS = new Set(['temporal', 'temporal-server', 'postgres']);

/**
 * Server processes below this one: the dev server (a child), or the cluster's services (children)
 * and PostgreSQL (the postmaster is a child, its backends are grandchildren).
 */
function serverPids(): number[] {
  const parentOf = new Map<number, number>();
  const commandOf = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    parentOf.set(Number(entry), Number(fields[1]));
    commandOf.set(Number(entry), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
  }
  const below = (pid: number): boolean => {
    for (let parent = parentOf.get(pid); parent !== undefined && parent > 1; parent = parentOf.get(parent)) {
      if (parent === process.pid) return true;
    }
    return false;
  };
  return [...commandOf].filter(([pid, command]) => SERVER_COMMANDS.has(command) && below(pid)).map(([pid]) => pid);
}

/** Processes of the bench read apart from this one. */
export interface ProcessIds {
  sandbox?: number;
  receiver?: number;
}

const threadIds = (): Set<string> =>
  new Set(process.platform === 'linux' ? readdirSync('/proc/self/task') : ([] as string[]));

/** Threads a worker's creation started (its workflow threads), counted as `workflow`. */
const workflowThreads = new Set<string>();

/**
 * Runs `create` (a worker's creation) and counts the threads it started, other than the SDK
 * core's, as workflow threads: the SDK starts the worker's workflow thread pool there, and
 * Node names every thread `node`, so they are told apart by when they appear.
 */
export async function markNewThreads<T>(create: () => Promise<T>): Promise<T> {
  const before = threadIds();
  const created = await create();
  for (const tid of threadIds()) {
    if (before.has(tid)) continue;
    if (!read(`/proc/self/task/${tid}/stat`)?.includes('(tokio-')) workflowThreads.add(tid);
  }
  return created;
}

/** CPU used so far, or undefined where /proc is not there. */
export function cpuNow(pids: ProcessIds = {}): CpuSample | undefined {
  if (process.platform !== 'linux') return undefined;
  const sample: CpuSample = { main: 0, core: 0, workflow: 0, otherThreads: 0, receiver: 0, sandbox: 0, server: 0 };
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = read(`/proc/self/task/${tid}/stat`);
    if (!stat) continue;
    const ms = statMs(stat);
    if (Number(tid) === process.pid) sample.main += ms;
    else if (stat.includes('(tokio-')) sample.core += ms;
    else if (workflowThreads.has(tid)) sample.workflow += ms;
    else sample.otherThreads += ms;
  }
  for (const name of ['sandbox', 'receiver'] as const) {
    const stat = pids[name] === undefined ? undefined : read(`/proc/${pids[name]}/stat`);
    if (stat) sample[name] = statMs(stat);
  }
  for (const pid of serverPids()) {
    const stat = read(`/proc/${pid}/stat`);
    // The server's own threads are summed by the kernel in its process line.
    if (stat) sample.server += statMs(stat);
  }
  return sample;
}

const GROUPS = ['main', 'core', 'workflow', 'otherThreads', 'receiver', 'sandbox', 'server'] as const;

/** after - before, divided by `per` (e.g. per onboarding). */
export function cpuDelta(before: CpuSample | undefined, after: CpuSample | undefined, per = 1): CpuSample | undefined {
  if (!before || !after) return undefined;
  const delta = {} as CpuSample;
  for (const group of GROUPS) delta[group] = (after[group] - before[group]) / per;
  return delta;
}

export function cpuTotal(s: CpuSample): number {
  return GROUPS.reduce((sum, group) => sum + s[group], 0);
}

/**
 * cardflow's own share: everything but the sandbox (the provider's cost) and the Temporal server.
 */
export function cardflowShare(s: CpuSample): number {
  return s.main + s.core + s.workflow + s.otherThreads + s.receiver;
}

/** The median of each group over samples. */
export function cpuMedian(samples: readonly CpuSample[], median: (xs: number[]) => number): CpuSample | undefined {
  if (!samples.length) return undefined;
  const out = {} as CpuSample;
  for (const group of GROUPS) out[group] = median(samples.map((c) => c[group]));
  return out;
}

/**
 * "main 41 + core 9 + workflow 20 + other threads 10 + receiver 5 = cardflow 85; sandbox 30, server
 * 52 ms"
 */
export function formatCpu(s: CpuSample | undefined): string {
  if (!s) return 'n/a (no /proc)';
  const r = (n: number) => n.toFixed(0);
  return (
    `main ${r(s.main)} + workflow ${r(s.workflow)} + other threads ${r(s.otherThreads)} + core ${r(s.core)} + receiver ${r(s.receiver)} = ` +
    `cardflow ${r(cardflowShare(s))} ms; sandbox ${r(s.sandbox)}, server ${r(s.server)} ms`
  );
}

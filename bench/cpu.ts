/**
 * Where the bench's CPU goes while it measures, so a throughput figure read on a shared machine
 * can be told apart from what a run costs: CPU time of this process by thread (read from
 * /proc, Linux only) and of the Temporal server it started (the dev server, or the cluster's
 * services and PostgreSQL, whose connections live as long as the run). For where inside a thread, run
 * the bench under `node --cpu-prof` (every thread, the workflow thread included, writes a
 * profile) and read the profiles with `bench/profile-summary.ts`; an inspector session opened
 * from inside the process would add its own async-hook costs to what it measures.
 *
 * Threads are grouped by what can be told from outside: the main thread (tid = pid), the SDK
 * core's tokio threads, and every other thread of the process (the workflow thread, V8's GC and
 * compiler threads, libuv's pool for crypto and fs).
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface CpuSample {
  /** ms of CPU (user + system) by thread group. */
  main: number;
  core: number;
  otherThreads: number;
  /** ms of CPU of the Temporal server process(es) this process started (with the cluster's PostgreSQL). */
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

/** The commands of a Temporal server this process started: the CLI's dev server, the cluster's services and its PostgreSQL. */
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

/** CPU used so far, or undefined where /proc is not there. */
export function cpuNow(): CpuSample | undefined {
  if (process.platform !== 'linux') return undefined;
  const sample: CpuSample = { main: 0, core: 0, otherThreads: 0, server: 0 };
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = read(`/proc/self/task/${tid}/stat`);
    if (!stat) continue;
    const ms = statMs(stat);
    if (Number(tid) === process.pid) sample.main += ms;
    else if (stat.includes('(tokio-')) sample.core += ms;
    else sample.otherThreads += ms;
  }
  for (const pid of serverPids()) {
    const stat = read(`/proc/${pid}/stat`);
    // The server's own threads are summed by the kernel in its process line.
    if (stat) sample.server += statMs(stat);
  }
  return sample;
}

/** after - before, divided by `per` (e.g. per onboarding). */
export function cpuDelta(before: CpuSample | undefined, after: CpuSample | undefined, per = 1): CpuSample | undefined {
  if (!before || !after) return undefined;
  return {
    main: (after.main - before.main) / per,
    core: (after.core - before.core) / per,
    otherThreads: (after.otherThreads - before.otherThreads) / per,
    server: (after.server - before.server) / per,
  };
}

export function cpuTotal(s: CpuSample): number {
  return s.main + s.core + s.otherThreads + s.server;
}

/** "main 41 + core 9 + other threads 30 + server 52 = 132 ms" */
export function formatCpu(s: CpuSample | undefined): string {
  if (!s) return 'n/a (no /proc)';
  const r = (n: number) => n.toFixed(0);
  return `main ${r(s.main)} + core ${r(s.core)} + other threads ${r(s.otherThreads)} + server ${r(s.server)} = ${r(cpuTotal(s))} ms`;
}

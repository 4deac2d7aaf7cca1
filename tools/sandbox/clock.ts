/**
 * The sandbox clock (`SandboxClock` in contract.ts). Every asynchronous step of the sandbox
 * (reviews, card operations, confirmations, work orders, webhook retries) is scheduled here,
 * so tests can run on a manual clock that only moves when told to, and a server can run on
 * real time with the same code.
 */
import type { SandboxClock } from './contract';

export interface ClockOptions {
  /** `manual`: time moves only through advance(); `real`: wall-clock time and setTimeout. */
  mode: 'real' | 'manual';
  /** Epoch ms the clock starts at (default: Date.now() at creation). */
  start?: number;
}

interface Task {
  due: number;
  seq: number;
  fn: () => void;
}

export function createClock(options: ClockOptions): SandboxClock {
  return options.mode === 'manual' ? manualClock(options.start ?? Date.now()) : realClock(options.start);
}

/** Runs tasks strictly in (due time, scheduling order); a task may schedule further tasks. */
function manualClock(start: number): SandboxClock {
  let now = start;
  let seq = 0;
  const tasks: Task[] = [];

  function nextDue(limit: number): Task | undefined {
    let best: Task | undefined;
    for (const t of tasks) {
      if (t.due <= limit && (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq))) best = t;
    }
    return best;
  }

  function runUntil(limit: number): void {
    for (let task = nextDue(limit); task; task = nextDue(limit)) {
      tasks.splice(tasks.indexOf(task), 1);
      now = Math.max(now, task.due);
      task.fn();
    }
  }

  return {
    now: () => now,
    schedule(delayMs, fn) {
      const task: Task = { due: now + Math.max(0, delayMs), seq: seq++, fn };
      tasks.push(task);
      return () => {
        const i = tasks.indexOf(task);
        if (i >= 0) tasks.splice(i, 1);
      };
    },
    async advance(ms) {
      const target = now + Math.max(0, ms);
      runUntil(target);
      now = target;
    },
    async settle() {
      runUntil(now);
    },
  };
}

/**
 * Wall-clock time (optionally offset to `start`); zero-delay work is tracked so settle() can wait
 * for it.
 */
function realClock(start?: number): SandboxClock {
  const offset = start === undefined ? 0 : start - Date.now();
  let pendingImmediate = 0;
  return {
    now: () => Date.now() + offset,
    schedule(delayMs, fn) {
      const immediate = delayMs <= 0;
      if (immediate) pendingImmediate++;
      let done = false;
      const timer = setTimeout(
        () => {
          done = true;
          if (immediate) pendingImmediate--;
          fn();
        },
        Math.max(0, delayMs),
      );
      timer.unref?.();
      return () => {
        if (done) return;
        done = true;
        if (immediate) pendingImmediate--;
        clearTimeout(timer);
      };
    },
    async advance() {
      // Real time cannot be moved; delays are configured instead.
    },
    async settle() {
      while (pendingImmediate > 0) await new Promise<void>((resolve) => setTimeout(resolve, 0));
    },
  };
}

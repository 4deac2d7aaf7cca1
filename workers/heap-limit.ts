/**
 * The workflow threads' heap limit. The SDK runs workflows in worker threads it creates itself,
 * without resource limits, so their V8 heap takes the process's default: sized from the machine's
 * memory, and collected lazily, which lets memory grow with the number of workflows a worker has
 * ever replayed rather than with the ones it caches. V8 reads its heap flags when an isolate is
 * created, so a limit set before the worker is created bounds the workflow threads (the main
 * thread keeps the limit it started with).
 */
import { setFlagsFromString } from 'node:v8';

const HEAP_FLAG = /--max-old-space-size(=|\s|$)/;

/**
 * Whether the operator chose a heap limit for the process (`node --max-old-space-size`,
 * NODE_OPTIONS).
 */
export function heapLimitChosen(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return execArgv.some((arg) => HEAP_FLAG.test(arg)) || HEAP_FLAG.test(nodeOptions ?? '');
}

/**
 * Sets the heap limit of threads created from now on to `mib`, unless the operator chose one for
 * the whole process. Returns the limit in force for the workflow threads, or undefined for the
 * operator's.
 */
export function limitWorkflowThreadHeap(
  mib: number,
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): number | undefined {
  if (heapLimitChosen(execArgv, nodeOptions)) return undefined;
  setFlagsFromString(`--max-old-space-size=${mib}`);
  return mib;
}

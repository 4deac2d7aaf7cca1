/**
 * What every `cardflow` command shares (main.ts dispatches to the commands of the other files of
 * this folder): the command shape, the exit codes, the process's I/O, the parsed options, a lazily
 * connected client (so input is validated before anything is contacted), `--json` output, and the
 * follow-to-the-end watcher.
 */
import type { Configuration } from '../../platform/config/schema';
import { type Client, WorkflowFailedError } from '@temporalio/client';
import { readFile } from 'node:fs/promises';
import type { TemporalClientHandle } from '../../platform/temporal/connection';
import type { UnavailableRetry } from '../../platform/temporal/unavailable-retry';
import { workflowUiUrl } from '../describe';
import { watchWorkflow } from '../progress';
import { statusViewFor, watchTargetFor } from '../workflow-status';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Record<string, string | undefined>;
  /** Supplies the Temporal client; default connects from `env`. */
  connect?: () => Promise<Pick<TemporalClientHandle, 'client' | 'namespace' | 'close'>>;
  /** Stops a --watch (Ctrl-C). */
  signal?: AbortSignal;
  /**
   * Standard input as text, for --pin-stdin (a PIN never goes on the command line, where `ps` and
   * shell history keep it).
   */
  readStdin?: () => Promise<string>;
  /**
   * Standard output is a terminal (a person reads it, not a pipe or a file): card details are shown
   * only then.
   */
  stdoutIsTerminal?: boolean;
}

/**
 * The options `cardflow` understands (node:util parseArgs); each command says which of them it
 * takes.
 */
export const CLI_OPTIONS = {
  file: { type: 'string', short: 'f' },
  watch: { type: 'boolean', short: 'w' },
  json: { type: 'boolean' },
  'task-queue': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  request: { type: 'string' },
  amount: { type: 'string' },
  'card-type': { type: 'string' },
  'card-number': { type: 'string' },
  'freeze-old': { type: 'string' },
  show: { type: 'boolean' },
  reveals: { type: 'boolean' },
  caller: { type: 'string' },
  account: { type: 'string' },
  reason: { type: 'string' },
  remark: { type: 'string' },
  'pin-stdin': { type: 'boolean' },
  refresh: { type: 'boolean' },
  force: { type: 'boolean' },
  stage: { type: 'string' },
  card: { type: 'string' },
  holder: { type: 'string' },
  customer: { type: 'string' },
  flow: { type: 'string' },
  limit: { type: 'string' },
  approve: { type: 'boolean' },
  reject: { type: 'string' },
  coin: { type: 'string' },
  merchant: { type: 'string' },
  type: { type: 'string' },
  operation: { type: 'string' },
  reset: { type: 'boolean' },
  faults: { type: 'string' },
  since: { type: 'string' },
  schedule: { type: 'boolean' },
  deployment: { type: 'string' },
  'build-id': { type: 'string' },
  percent: { type: 'string' },
  out: { type: 'string' },
  by: { type: 'string' },
  note: { type: 'string' },
  all: { type: 'boolean' },
  'forward-to': { type: 'string' },
  port: { type: 'string' },
  region: { type: 'string' },
  v2: { type: 'boolean' },
} as const;

export type CliValues = {
  [K in keyof typeof CLI_OPTIONS]?: (typeof CLI_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string;
};
export type CliOption = keyof typeof CLI_OPTIONS;

/** What `cardflow` exits with (README, CLI). */
export const ExitCodes = {
  /** Done: the command did what it says, or the workflow completed. */
  done: 0,
  /** Failed: the workflow failed or was refused, or something could not be reached. */
  failed: 1,
  /** Bad usage or input: nothing was started or sent. */
  usage: 2,
  /** Reconciliation found drift (findings that ask for an operator). */
  drift: 3,
  /**
   * Temporal stayed unavailable for the whole ride-out (CARDFLOW_TEMPORAL_RIDE_OUT_MS,
   * platform/temporal/unavailable-retry.ts).
   */
  unavailable: 4,
} as const;

/** One `cardflow` command: its usage lines, a summary, the options it takes, and what it runs. */
export interface Command {
  name: string;
  /** Usage lines, without the leading `cardflow `. */
  usage: readonly string[];
  summary: string;
  /** More to say in `cardflow <command> --help`. */
  details?: readonly string[];
  /** The options it takes besides --help (others are refused as bad usage). */
  options: readonly CliOption[];
  /** Runs with the positionals after the command name; resolves with the exit code. */
  run(ctx: CliContext, args: readonly (string | undefined)[]): Promise<number>;
}

/** Bad usage or input: exit 2, nothing started. */
export class UsageError extends Error {}

export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'read error'})`);
  }
  // Our own input file, not a provider body: ids and amounts in it are strings by the schema.
  return parseJsonText(text, path);
}

/**
 * JSON.parse, with a syntax error reported by line and column only: the parser's own message
 * quotes the text around the error, which in an input file is personal data (an ID number).
 */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${what} is not JSON: ${syntaxErrorPlace(text, error)}`);
  }
}

/**
 * Where a JSON.parse error is, as `line L, column C` (1-based), read from the position V8 reports.
 */
export function syntaxErrorPlace(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return `syntax error at line ${lineColumn[1]}, column ${lineColumn[2]}`;
  const reported = /at position (\d+)/.exec(message)?.[1];
  const position = reported === undefined ? firstBadPosition(text) : Number(reported);
  if (position !== undefined) {
    const before = text.slice(0, position);
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return `syntax error at line ${line}, column ${column}`;
  }
  if (/end of JSON input/.test(message)) return 'it ends before the JSON does';
  return 'syntax error (an unexpected character or a missing quote)';
}

/**
 * Where the text stops being JSON, when V8's message gives no position ("Unexpected token ..."):
 * the longest prefix that still reads as unfinished JSON ends there (binary search).
 */
function firstBadPosition(text: string): number | undefined {
  const unfinished = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return true;
    } catch (error) {
      // Ran out of text rather than met a wrong character: the end, an open string, or an error
      // placed at the very end of the prefix.
      const message = error instanceof Error ? error.message : '';
      const at = /at position (\d+)/.exec(message)?.[1];
      return /end of JSON input|Unterminated string/.test(message) || (at !== undefined && Number(at) >= length);
    }
  };
  if (unfinished(text.length)) return undefined;
  let good = 0;
  let bad = text.length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (unfinished(middle)) good = middle;
    else bad = middle;
  }
  return bad - 1;
}

export interface CliContext {
  io: CliIo;
  values: CliValues;
  /** Connects on first use. */
  client(): Promise<Client>;
  /** The connected namespace (after `client()`). */
  namespace(): string;
  /** What every start takes: the task queue, and the retry window through a Temporal restart. */
  startOptions: { taskQueue?: string; whileUnavailable?: UnavailableRetry };
  uiBase: string;
  /**
   * The configuration, read and checked once before the command runs (platform/config/schema.ts).
   */
  config: Configuration;
}

/**
 * Prints `value` as JSON with --json, else `text` (read commands, for scripts and people alike).
 */
export function printResult(ctx: CliContext, value: unknown, text: () => string): void {
  ctx.io.out(ctx.values.json ? JSON.stringify(value, null, 2) : text());
}

export function timestamped(line: string): string {
  return `${new Date().toISOString().slice(11, 19)}  ${line}`;
}

/** Prints `started`/`already exists` and the Web UI link of a start. */
export function reportStart(ctx: CliContext, started: { workflowId: string; started: boolean }): void {
  ctx.io.out(`${started.started ? 'started' : 'already exists (this input was not used)'}: ${started.workflowId}`);
  ctx.io.out(`watch it in the Temporal UI: ${workflowUiUrl(ctx.uiBase, ctx.namespace(), started.workflowId)}`);
}

/**
 * Prints each new stage of `workflowId` until it closes, then its result (exit 0) or failure
 * (exit 1). Interrupted (Ctrl-C) while it runs: exit 0, the workflow goes on.
 */
export async function follow(ctx: CliContext, workflowId: string): Promise<number> {
  const handle = (await ctx.client()).workflow.getHandle(workflowId);
  const view = statusViewFor((await handle.describe()).type);
  const watched = await watchWorkflow(
    watchTargetFor(handle, view),
    (s) => {
      const line = view.query ? view.line(s) : '';
      if (line) ctx.io.out(timestamped(line));
    },
    ctx.io.signal ? { signal: ctx.io.signal } : {},
  );
  if (watched.status === 'RUNNING') return 0;
  return printOutcome(ctx, workflowId);
}

/**
 * Prints a closed workflow's result (0) or its failure type and message (1); with --json, `{
 * status, result | failure }`.
 */
export async function printOutcome(ctx: CliContext, workflowId: string): Promise<number> {
  const handle = (await ctx.client()).workflow.getHandle(workflowId);
  const view = statusViewFor((await handle.describe()).type);
  return printSettled(
    ctx,
    { workflowId },
    workflowId,
    () => handle.result() as Promise<unknown>,
    (result) => view.result(result),
  );
}

/**
 * Prints what `result` settles to: the result (0), or the workflow's failure type and message
 * (1), the failure line naming the workflow as `label`; with --json, `{ ...key, status, result |
 * failure }`. An error other than the workflow's failure is thrown on.
 */
export async function printSettled<T>(
  ctx: CliContext,
  key: Record<string, string>,
  label: string,
  result: () => Promise<T>,
  text: (result: T) => string,
): Promise<number> {
  try {
    const value = await result();
    printResult(ctx, { ...key, status: 'COMPLETED', result: value }, () => text(value));
    return ExitCodes.done;
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) throw error;
    const cause = error.cause as { type?: string; message?: string } | undefined;
    const failure = { type: cause?.type ?? 'Error', message: cause?.message ?? error.message };
    if (ctx.values.json) ctx.io.out(JSON.stringify({ ...key, status: 'FAILED', failure }, null, 2));
    else ctx.io.err(`${label} failed: ${cause?.type ? `${cause.type}: ` : ''}${failure.message}`);
    return ExitCodes.failed;
  }
}

/**
 * What every `cardflow` command shares (client/cli.ts dispatches, client/cli-lifecycle.ts holds
 * the lifecycle commands): the process's I/O, the parsed options, a lazily connected client (so
 * input is validated before anything is contacted), and the follow-to-the-end watcher.
 */
import { type Client, WorkflowFailedError } from '@temporalio/client';
import { readFile } from 'node:fs/promises';
import type { TemporalClientHandle } from '../connection';
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
  /** Standard input as text, for --pin-stdin (a PIN never goes on the command line, where `ps` and shell history keep it). */
  readStdin?: () => Promise<string>;
}

/** The options `cardflow` understands (node:util parseArgs). */
export const CLI_OPTIONS = {
  file: { type: 'string', short: 'f' },
  watch: { type: 'boolean', short: 'w' },
  'task-queue': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  request: { type: 'string' },
  amount: { type: 'string' },
  'card-type': { type: 'string' },
  remark: { type: 'string' },
  'pin-stdin': { type: 'boolean' },
  refresh: { type: 'boolean' },
} as const;

export interface CliValues {
  file?: string;
  watch?: boolean;
  'task-queue'?: string;
  help?: boolean;
  request?: string;
  amount?: string;
  'card-type'?: string;
  remark?: string;
  'pin-stdin'?: boolean;
  refresh?: boolean;
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
  try {
    // Our own input file, not a provider body: ids and amounts in it are strings by the schema.
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export interface CliContext {
  io: CliIo;
  values: CliValues;
  /** Connects on first use. */
  client(): Promise<Client>;
  /** The connected namespace (after `client()`). */
  namespace(): string;
  taskQueue: { taskQueue?: string };
  uiBase: string;
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

/** Prints a closed workflow's result (0) or its failure type and message (1). */
export async function printOutcome(ctx: CliContext, workflowId: string): Promise<number> {
  const handle = (await ctx.client()).workflow.getHandle(workflowId);
  const view = statusViewFor((await handle.describe()).type);
  try {
    ctx.io.out(view.result(await handle.result()));
    return 0;
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) throw error;
    const cause = error.cause as { type?: string; message?: string } | undefined;
    ctx.io.err(`${workflowId} failed: ${cause?.type ? `${cause.type}: ` : ''}${cause?.message ?? error.message}`);
    return 1;
  }
}

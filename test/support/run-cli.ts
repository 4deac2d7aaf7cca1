/**
 * Runs the `cardflow` CLI in-process on a Temporal client the test already holds (the CLI's
 * "connection" is that client, and closing it is left to the test): exit code and output captured.
 */
import type { Client } from '@temporalio/client';
import { runCli } from '../../client/cli/main';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function runCliOn(
  temporal: { client: Client; namespace: string },
  args: readonly string[],
  opts: { env?: Record<string, string>; stdin?: string; out?: string[]; err?: string[] } = {},
): Promise<CliRun> {
  // A caller's own `out` (and `err`) arrays fill while the command runs, for a test that watches
  // them; one array given as both reads the two streams interleaved, as a terminal shows them.
  const out = opts.out ?? [];
  const err = opts.err ?? [];
  const { stdin } = opts;
  const code = await runCli(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: opts.env ?? {},
    connect: async () => ({ client: temporal.client, namespace: temporal.namespace, close: async () => undefined }),
    ...(stdin === undefined ? {} : { readStdin: async () => stdin }),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

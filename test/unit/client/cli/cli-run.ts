/**
 * Runs the `cardflow` CLI in-process for unit tests: output captured, Temporal never reached (the
 * connection is refused), so a test sees whether a command validated its input before connecting.
 */
import { runCli } from '../../../../client/cli/main';

export interface OfflineRun {
  code: number;
  out: string;
  err: string;
  /** True when the command went on to connect to Temporal (its input passed every check). */
  connected: boolean;
}

export async function runOffline(
  args: string[],
  opts: { env?: Record<string, string>; stdin?: string } = {},
): Promise<OfflineRun> {
  const out: string[] = [];
  const err: string[] = [];
  const connect = jest.fn(() => Promise.reject(new Error('connection refused (test)')));
  const code = await runCli(args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: opts.env ?? {},
    connect,
    ...(opts.stdin === undefined ? {} : { readStdin: async () => opts.stdin as string }),
  });
  return { code, out: out.join('\n'), err: err.join('\n'), connected: connect.mock.calls.length > 0 };
}

/**
 * Runs the `cardflow` CLI in-process for unit tests: output captured, Temporal never reached (the
 * connection is refused), so a test sees whether a command validated its input before connecting.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../../client/cli/main';

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

/** A temporary directory for input files, removed after the file's tests; `file` writes JSON (or text) into it, `pathOf` names a file without writing it. */
export function inputFiles(prefix: string): {
  file: (name: string, content: unknown) => string;
  pathOf: (name: string) => string;
} {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    pathOf: (name) => path.join(dir, name),
    file(name, content) {
      const p = path.join(dir, name);
      writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
      return p;
    },
  };
}

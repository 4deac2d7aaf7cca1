/**
 * `npm run sandbox`: starts, prints its URL and env, serves signed requests, reuses its keys, stops
 * on SIGINT.
 */
import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createProviderClient } from '../../../../provider/client';
import { providerConfig } from '../../../../provider/config';
import { configured } from '../../../support/configured';

const ROOT = resolve(__dirname, '../../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

interface Started {
  child: ChildProcess;
  output: () => string;
  env: Record<string, string>;
}

// Spawning tsx is slow on a loaded machine.
jest.setTimeout(60_000);

/** Every child started, so a failing test cannot leave a sandbox running. */
const children: ChildProcess[] = [];

function spawnCli(args: string[]): ChildProcessByStdio<null, Readable, Readable> {
  const child = spawn(TSX, ['tools/sandbox/cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

function startCli(args: string[]): Promise<Started> {
  const child = spawnCli(args);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolvePromise, reject) => {
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)));
    const poll = setInterval(() => {
      if (!/environment for cardflow:\n(\s+export .*\n){4}/.test(out)) return;
      clearInterval(poll);
      child.removeAllListeners('exit');
      const env = Object.fromEntries([...out.matchAll(/export (\w+)=(.*)/g)].map((m) => [m[1]!, m[2]!]));
      resolvePromise({ child, output: () => out, env });
    }, 50);
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolvePromise) => child.on('exit', (code) => resolvePromise(code)));
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

it('prints its base URL and env, answers signed requests, reuses its keys, and exits 0 on SIGINT', async () => {
  const keysDir = join(dir, 'keys');
  const first = await startCli(['--port', '0', '--keys-dir', keysDir, '--delay-scale', '0', '--seed', '3']);
  expect(first.output()).toMatch(/^cardflow provider sandbox listening on http:\/\/127\.0\.0\.1:\d+$/m);
  const client = createProviderClient(providerConfig(configured(first.env)));
  try {
    expect((await client.listCardTypes({})).length).toBeGreaterThan(0);
  } finally {
    await client.close();
  }
  const firstExit = exitCode(first.child);
  first.child.kill('SIGINT');
  expect(await firstExit).toBe(0);

  const second = await startCli(['--port', '0', '--keys-dir', keysDir]);
  expect(second.env.CARDFLOW_PROVIDER_API_KEY).toBe(first.env.CARDFLOW_PROVIDER_API_KEY);
  const secondExit = exitCode(second.child);
  second.child.kill('SIGTERM');
  expect(await secondExit).toBe(0);
});

it('refuses an unknown option with exit code 2 and the usage', async () => {
  const child = spawnCli(['--prot', '1']);
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  expect(await exitCode(child)).toBe(2);
  expect(err).toMatch(/Unknown option '--prot'/);
  expect(err).toMatch(/Usage: npm run sandbox/);
});

it('takes --faults as POST /sandbox/faults takes them, fractional rates included; a bad field is named', async () => {
  const started = await startCli([
    '--port',
    '0',
    '--keys-dir',
    join(dir, 'faults-keys'),
    '--faults',
    '{"errorRate":0.1,"latencyMs":200}',
  ]);
  const response = await fetch(`${started.env.CARDFLOW_PROVIDER_BASE_URL}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-WSB-API-KEY': started.env.CARDFLOW_PROVIDER_API_KEY! },
    body: '{}',
  });
  const body = (await response.json()) as { data: { errorRate: number; latencyMs: number } };
  expect(body.data).toMatchObject({ errorRate: 0.1, latencyMs: 200 });
  const exited = exitCode(started.child);
  started.child.kill('SIGINT');
  expect(await exited).toBe(0);

  const bad = spawnCli(['--port', '0', '--keys-dir', join(dir, 'faults-keys'), '--faults', '{"errorRate":2}']);
  let err = '';
  bad.stderr.on('data', (c: Buffer) => (err += c.toString()));
  expect(await exitCode(bad)).toBe(2);
  expect(err).toMatch(/--faults: errorRate: must be 0 to 1/);
});

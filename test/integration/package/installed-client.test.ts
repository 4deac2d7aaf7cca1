/**
 * cardflow as another project gets it: `npm run package:client` builds and cuts `@cardflow/client`;
 * a backend project outside the repository installs the tarball, type-checks against it (a
 * wrong call must fail), and runs the README's "Using it from a backend" snippet exactly as
 * printed against the dev server and the sandbox, served by the compiled worker started from a
 * production-only install of `cardflow` (`npm pack` of this repository, `--omit=dev`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startSandbox, ZERO_DELAYS, sandboxEnv, type RunningSandbox } from '../../../tools/sandbox';
import { CARD_TYPES, FAST_WAIT, customerRef } from '../support/harness';
import {
  connectTestClient,
  TEST_MAX_CACHED_WORKFLOWS,
  testCodecKeys,
  testTemporalServer,
  type TestClient,
} from '../support/temporal-env';
import { collectPayloads } from '../platform/codec/history-scan';
import { ENCODING_ENCRYPTED } from '../../../platform/codec/payload-codec';

jest.setTimeout(600_000);

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const NPM_INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** The first ```ts block under "## Using it from a backend" in README.md, as printed. */
function readmeBackendSnippet(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## Using it from a backend\n')[1]?.split('\n## ')[0];
  const snippet = section?.match(/```ts\n([\s\S]*?)```/)?.[1];
  if (!snippet) throw new Error('README.md has no ```ts block under "## Using it from a backend"');
  return snippet;
}

/** stdout + stderr of a finished process and its exit code, never throwing on a non-zero exit. */
async function exec(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

async function ok(file: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await exec(file, args, cwd, env);
  if (result.code !== 0) throw new Error(`${file} ${args.join(' ')} (in ${cwd}) exited ${result.code}:\n${result.out}`);
  return result.out;
}

function duBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += duBytes(full);
    else if (entry.isFile()) total += readFileSync(full).length;
  }
  return total;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

let scratch: string;
let backend: string;
let production: string;
let sandbox: RunningSandbox;
let worker: ChildProcess | undefined;
let workerOutput = '';
let temporal: TestClient;
const codecKeys = testCodecKeys('k1');

/** Only what a deployed process gets: no jest, no repository environment. */
function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { address, namespace } = testTemporalServer();
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: namespace,
    ...extra,
  };
}

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'cardflow-installed-'));
  backend = path.join(scratch, 'backend');
  production = path.join(scratch, 'production');

  const packed = await ok('npm', ['run', '--silent', 'package:client'], ROOT);
  const clientTarball = packed.trim().split('\n').pop()!;
  expect(existsSync(clientTarball)).toBe(true);
  // The build is fresh (package:client ran it); prepare need not run again.
  const cardflowTarball = path.join(
    scratch,
    (await ok('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', scratch], ROOT))
      .trim()
      .split('\n')
      .pop()!,
  );
  process.stderr.write(
    `tarballs: @cardflow/client ${mb(readFileSync(clientTarball).length)}, cardflow ${mb(readFileSync(cardflowTarball).length)}\n`,
  );

  const typesNode = (
    JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@types/node/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  for (const [dir, manifest] of [
    [
      backend,
      {
        name: 'backend',
        private: true,
        type: 'module',
        dependencies: { '@cardflow/client': `file:${clientTarball}` },
        devDependencies: { '@types/node': typesNode },
      },
    ],
    [production, { name: 'services', private: true, dependencies: { cardflow: `file:${cardflowTarball}` } }],
  ] as const) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  }
  writeFileSync(
    path.join(backend, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        // As `tsc --init` writes it: the SDK's own declarations name packages it does not install
        // (ms, source-map).
        skipLibCheck: true,
        types: ['node'],
        outDir: 'out',
      },
      files: ['backend.ts', 'subpaths.ts'],
    }),
  );
  await Promise.all([ok('npm', NPM_INSTALL, backend), ok('npm', [...NPM_INSTALL, '--omit=dev'], production)]);

  sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'real', keysDir: path.join(scratch, 'sandbox-keys') });
  temporal = await connectTestClient();
});

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker!.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  }
  await sandbox?.stop();
  await temporal?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

it('the production-only tree holds the compiled services and no development tools', () => {
  const modules = path.join(production, 'node_modules');
  expect(existsSync(path.join(modules, 'cardflow/dist/workers/main.js'))).toBe(true);
  expect(existsSync(path.join(modules, 'cardflow/dist/workflow-bundle.js'))).toBe(true);
  for (const devTool of ['tsx', 'typescript', 'jest', 'esbuild'])
    expect(existsSync(path.join(modules, devTool))).toBe(false);
  expect(existsSync(path.join(modules, 'cardflow/client/index.ts'))).toBe(false);
  process.stderr.write(`production node_modules: ${mb(duBytes(modules))}\n`);
});

it('the services import cardflow by its subpaths', async () => {
  const subpaths = ['client', 'worker', 'webhooks', 'codec', 'domain', 'sandbox'];
  const script = `for (const s of ${JSON.stringify(subpaths)}) console.log(s, Object.keys(require('cardflow/' + s)).length)`;
  const out = await ok(process.execPath, ['-e', script], production);
  for (const subpath of subpaths) expect(out).toMatch(new RegExp(`^${subpath} [1-9]\\d*$`, 'm'));
  // Only the exported subpaths: the package's inside stays private.
  expect((await exec(process.execPath, ['-e', "require('cardflow/dist/provider/client.js')"], production)).out).toMatch(
    /ERR_PACKAGE_PATH_NOT_EXPORTED/,
  );
});

it('the client package holds no worker: no @temporalio/worker, no workflows, no sandbox', () => {
  const modules = path.join(backend, 'node_modules');
  expect(existsSync(path.join(modules, '@cardflow/client/client/index.js'))).toBe(true);
  expect(existsSync(path.join(modules, '@temporalio/worker'))).toBe(false);
  expect(existsSync(path.join(modules, '@temporalio/core-bridge'))).toBe(false);
  for (const folder of ['workers', 'workflows', 'activities', 'webhooks', 'tools'])
    expect(existsSync(path.join(modules, '@cardflow/client', folder))).toBe(false);
  process.stderr.write(`backend node_modules: ${mb(duBytes(modules))}\n`);
});

it('the compiled worker starts from the production tree on the prebuilt workflow bundle', async () => {
  const started = Date.now();
  worker = spawn(process.execPath, [path.join(production, 'node_modules/cardflow/dist/workers/main.js')], {
    cwd: production,
    env: baseEnv({
      ...sandboxEnv(sandbox.keys, sandbox.url),
      CARDFLOW_CODEC_KEYS: codecKeys,
      CARDFLOW_WORKER_MAX_CACHED_WORKFLOWS: String(TEST_MAX_CACHED_WORKFLOWS),
      NODE_ENV: 'production',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const append = (chunk: Buffer) => (workerOutput += chunk.toString('utf8'));
  worker.stdout!.on('data', append);
  worker.stderr!.on('data', append);
  while (!workerOutput.includes('cardflow worker: polling')) {
    if (worker.exitCode !== null) throw new Error(`worker exited ${worker.exitCode}:\n${workerOutput}`);
    if (Date.now() - started > 60_000) throw new Error(`worker not polling after 60 s:\n${workerOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  process.stderr.write(`compiled worker: start to polling ${Date.now() - started} ms\n`);
  // The SDK logs "Workflow bundle created" only when it runs webpack itself.
  expect(workerOutput).not.toContain('Workflow bundle created');
});

it('a backend file type-checks against the installed package, and a wrong call does not', async () => {
  writeFileSync(path.join(backend, 'backend.ts'), readmeBackendSnippet());
  // The package's other subpaths: the input schema and types, and the data converter.
  writeFileSync(
    path.join(backend, 'subpaths.ts'),
    [
      "import { createDataConverter, createKeyring } from '@cardflow/client/codec';",
      "import { OnboardingInputSchema, type OnboardingInput } from '@cardflow/client/domain';",
      "const input: OnboardingInput = OnboardingInputSchema.parse({ customerRef: 'a-1', cardTypeId: '1' });",
      "export const converter = createDataConverter(createKeyring([{ id: 'k', key: 'AAAA' }]));",
      'export const ref: string = input.customerRef;',
      '',
    ].join('\n'),
  );
  const good = await exec(process.execPath, [TSC, '-p', '.', '--noEmit'], backend);
  expect(good).toEqual({ code: 0, out: '' });

  writeFileSync(
    path.join(backend, 'wrong.ts'),
    [
      "import { connectTemporalClient, getProgress } from '@cardflow/client';",
      'const { client } = await connectTemporalClient();',
      'await getProgress(client, 42);',
      '',
    ].join('\n'),
  );
  const compilerOptions = [
    '--strict',
    '--skipLibCheck',
    '--module',
    'nodenext',
    '--target',
    'ES2022',
    '--types',
    'node',
  ];
  const wrong = await exec(process.execPath, [TSC, '--noEmit', ...compilerOptions, 'wrong.ts'], backend);
  expect(wrong.code).not.toBe(0);
  expect(wrong.out).toMatch(
    /wrong\.ts\(3,27\): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'/,
  );

  // A start's input is typed from its request schema: each wrong request below must fail to
  // compile (an `@ts-expect-error` over a call that compiles is itself an error, TS2578).
  writeFileSync(
    path.join(backend, 'typed-inputs.ts'),
    [
      "import { connectTemporalClient, startOnboarding, startTransfer, startWalletFunding } from '@cardflow/client';",
      "import type { OnboardingRequest, TransferRequest } from '@cardflow/client';",
      'const { client } = await connectTemporalClient();',
      '// @ts-expect-error customerRef is a string',
      "await startOnboarding(client, { customerRef: 42, cardTypeId: '1' });",
      "const transfer: TransferRequest = { transferRef: 't-1', type: 'TRANSFER', amount: '10.00', payerAccountId: '1', payeeAccountId: '2' };",
      '// @ts-expect-error an amount is a decimal string, never a number',
      'await startTransfer(client, { ...transfer, amount: 10 });',
      '// @ts-expect-error the type is TRANSFER or COLLECTION',
      "await startTransfer(client, { ...transfer, type: 'SEND' });",
      '// @ts-expect-error fundingRef is required',
      "await startWalletFunding(client, { coinKey: 'USDT_TRC20' });",
      "const onboarding: OnboardingRequest = { customerRef: 'a-1', cardTypeId: '1', initialDeposit: '20.00' };",
      'await startOnboarding(client, onboarding);',
      'await startTransfer(client, transfer);',
      '',
    ].join('\n'),
  );
  const typed = await exec(process.execPath, [TSC, '--noEmit', ...compilerOptions, 'typed-inputs.ts'], backend);
  expect(typed).toEqual({ code: 0, out: '' });
  // The same file without its expectations fails at each wrong call, naming the field.
  writeFileSync(
    path.join(backend, 'typed-inputs.ts'),
    readFileSync(path.join(backend, 'typed-inputs.ts'), 'utf8').replace(/^\/\/ @ts-expect-error.*\n/gm, ''),
  );
  const untyped = await exec(process.execPath, [TSC, '--noEmit', ...compilerOptions, 'typed-inputs.ts'], backend);
  expect(untyped.code).not.toBe(0);
  expect(untyped.out.match(/typed-inputs\.ts\(\d+,\d+\): error TS2\d+/g)).toHaveLength(4);
  expect(untyped.out).toMatch(/customerRef/);
  expect(untyped.out).toMatch(/amount/);
  expect(untyped.out).toMatch(/"SEND"/);
  expect(untyped.out).toMatch(/fundingRef/);
});

it("runs the README's snippet as printed: an onboarding through the installed client, encrypted end to end", async () => {
  await ok(process.execPath, [TSC, '-p', '.'], backend);
  const ref = customerRef('installed');
  const inputFile = path.join(backend, 'customer.json');
  writeFileSync(
    inputFile,
    JSON.stringify({
      customerRef: ref,
      cardTypeId: CARD_TYPES.noHolderNoDeposit,
      initialDeposit: '20',
      wait: FAST_WAIT,
    }),
  );
  const script = path.join(backend, 'out/backend.js');

  // Without the worker's keys the installed client refuses, naming what to set, and starts nothing.
  const refused = await exec(process.execPath, [script, inputFile], backend, baseEnv({}));
  expect(refused.code).not.toBe(0);
  expect(refused.out).toMatch(/no payload-encryption key configured: set CARDFLOW_CODEC_KEYS=/);
  await expect(temporal.client.workflow.getHandle(`onboarding-${ref}`).describe()).rejects.toThrow(/not found/i);

  const out = await ok(process.execPath, [script, inputFile], backend, baseEnv({ CARDFLOW_CODEC_KEYS: codecKeys }));
  expect(out).toContain(`onboarding-${ref}`);
  expect(out).toMatch(/card \d+/);

  // Input, result and everything between reached Temporal encrypted with the key the backend was
  // given.
  const history = await temporal.client.workflow.getHandle(`onboarding-${ref}`).fetchHistory();
  const payloads = collectPayloads(history);
  expect(payloads.length).toBeGreaterThan(1);
  for (const payload of payloads) {
    expect(Buffer.from(payload.metadata!.encoding!).toString()).toBe(ENCODING_ENCRYPTED);
    expect(Buffer.from(payload.metadata!['encryption-key-id']!).toString()).toBe('k1');
  }
});

it('the installed CLI runs compiled', async () => {
  const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  expect((await ok(path.join(backend, 'node_modules/.bin/cardflow'), ['--version'], backend)).trim()).toBe(version);
});

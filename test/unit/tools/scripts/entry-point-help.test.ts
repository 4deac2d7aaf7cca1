/**
 * Every process's command line (platform/config/command-line.ts): `--help` prints the usage and
 * exits 0 before the process does anything (`npm run schemas -- --help` leaves its file alone), and
 * an option or argument it does not take exits 2 naming it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { readEntryPointArgs } from '../../../../platform/config/command-line';
import { ONBOARDING_INPUT_SCHEMA_FILE } from '../../../../tools/scripts/write-schemas';

const root = path.join(__dirname, '../../../..');
const entry = { name: 'npm run thing', summary: 'does a thing' };

function read(argv: string[], define?: Parameters<typeof readEntryPointArgs>[1]['define']) {
  const out: string[] = [];
  const err: string[] = [];
  const result = readEntryPointArgs(
    argv,
    { ...entry, ...(define ? { define } : {}) },
    {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    },
  );
  return { result, out: out.join(''), err: err.join('') };
}

it('--help prints the usage and the configuration pointer, exit 0', () => {
  for (const flag of ['--help', '-h']) {
    const { result, out } = read([flag]);
    expect(result).toEqual({ exit: 0 });
    expect(out).toMatch(/^Usage: npm run thing \[options\]\n\ndoes a thing\n/);
    expect(out).toContain('README.md, "Configuration"');
  }
});

it('an unknown option or an argument is bad usage: exit 2, named', () => {
  const option = read(['--verbose']);
  expect(option.result).toEqual({ exit: 2 });
  expect(option.err).toContain("unknown option '--verbose'");
  const argument = read(['extra']);
  expect(argument.result).toEqual({ exit: 2 });
  expect(argument.err).toMatch(/too many arguments/);
});

it('declared options are read', () => {
  const { result } = read(['--generate-key', 'k1'], (c) => c.option('--generate-key [id]'));
  expect(result).toEqual({ options: { generateKey: 'k1' }, args: [] });
  expect(read([]).result).toEqual({ options: {}, args: [] });
});

it.each([
  'tools/scripts/start.ts',
  'workers/main.ts',
  'webhooks/main.ts',
  'platform/codec/main.ts',
  'tools/scripts/cluster/main.ts',
  'tools/bench/main.ts',
  'tools/scripts/write-schemas.ts',
])('%s reads its command line through entryPointArgs', (file) => {
  expect(readFileSync(path.join(root, file), 'utf8')).toMatch(/entryPointArgs\(\{\n\s+name: '(npm|node)/);
});

it('npm run schemas -- --help prints its usage and leaves the schema file as it was', () => {
  const before = statSync(ONBOARDING_INPUT_SCHEMA_FILE).mtimeMs;
  const out = execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['tools/scripts/write-schemas.ts', '--help'], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(out).toMatch(/^Usage: npm run schemas/);
  expect(statSync(ONBOARDING_INPUT_SCHEMA_FILE).mtimeMs).toBe(before);
});

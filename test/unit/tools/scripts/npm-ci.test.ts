/**
 * tools/deploy/npm-ci.sh, the image build's `npm ci`: it falls back to `npm install --no-save` only
 * when npm refused the lock for other platforms' builds of per-platform optional packages (the same
 * families as .ci/run's npm_install), and fails the build on any other refusal. Run with a stand-in
 * `npm` on PATH that answers `ci` with a given log and records every call.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '../../../../tools/deploy/npm-ci.sh');
const OUT_OF_SYNC =
  'npm error `npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync.';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cardflow-npm-ci-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the script with an `npm` that fails `ci` printing `log`, and returns the npm calls it made.
 */
function run(log: string[]) {
  writeFileSync(path.join(dir, 'ci.log'), `${log.join('\n')}\n`);
  const npm = path.join(dir, 'npm');
  writeFileSync(
    npm,
    `#!/bin/sh\necho "$*" >>"${dir}/calls"\nif [ "$1" = ci ]; then cat "${dir}/ci.log" >&2; exit 1; fi\nexit 0\n`,
  );
  chmodSync(npm, 0o755);
  const result = spawnSync('sh', [SCRIPT, '--omit=dev', '--ignore-scripts'], {
    env: { PATH: `${dir}:${process.env.PATH ?? ''}` },
    encoding: 'utf8',
  });
  const calls = readFileSync(path.join(dir, 'calls'), 'utf8').trim().split('\n');
  return { status: result.status, calls };
}

describe('tools/deploy/npm-ci.sh', () => {
  it.each([
    '@swc/core-darwin-arm64@1.15.3',
    '@unrs/resolver-binding-win32-x64-msvc@1.11.1',
    '@oxc-resolver/binding-darwin-arm64@11.9.0',
  ])('installs from the lock when npm ci refused it only for %s', (missing) => {
    const { status, calls } = run([OUT_OF_SYNC, `npm error Missing: ${missing} from lock file`]);
    expect(calls).toEqual(['ci --omit=dev --ignore-scripts', 'install --no-save --omit=dev --ignore-scripts']);
    expect(status).toBe(0);
  });

  it('fails the build when any other package is missing from the lock', () => {
    const { status, calls } = run([
      OUT_OF_SYNC,
      'npm error Missing: @swc/core-darwin-arm64@1.15.3 from lock file',
      'npm error Missing: left-pad@1.3.0 from lock file',
    ]);
    expect(calls).toEqual(['ci --omit=dev --ignore-scripts']);
    expect(status).toBe(1);
  });
});

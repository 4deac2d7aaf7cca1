import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ClientCutError, clientManifest, cutClient } from '../../../../tools/scripts/package-client';
import { thrownBy } from '../../../support/thrown';

/**
 * A dist/ of a few files: `files` maps paths to their text; the four entry points are filled in.
 */
function fakeDist(files: Record<string, string>): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'cardflow-cut-'));
  const all: Record<string, string> = {
    'client/index.js': '',
    'client/index.d.ts': '',
    'client/cli/main.js': '',
    'client/cli/main.d.ts': '',
    'platform/codec/index.js': '',
    'platform/codec/index.d.ts': '',
    'domain/index.js': '',
    'domain/index.d.ts': '',
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    writeFileSync(path.join(dist, file), text);
  }
  return dist;
}

const cutError = (dist: string): string => thrownBy(() => cutClient(dist), ClientCutError).message;

describe('the client cut', () => {
  it('copies exactly the files reached, with their declarations, and lists the packages they name', () => {
    const dist = fakeDist({
      'client/index.js':
        'const a = require("./start");\nconst z = require("zod");\nrequire("node:fs");\nrequire("path");',
      'client/index.d.ts': 'export { x } from "./start";\nexport type Y = import("@temporalio/client").Client;',
      'client/start.js': 'require("../platform/codec/keys.js"); require.resolve("./converter");',
      'client/start.d.ts': 'export declare const x: 1;',
      'client/converter.js': 'require("@temporalio/common/lib/converter");',
      'platform/codec/keys.js': '',
      'client/unused.js': 'require("../workers/main");',
    });
    expect(cutClient(dist)).toEqual({
      files: [
        'client/cli/main.d.ts',
        'client/cli/main.js',
        'client/converter.js',
        'client/index.d.ts',
        'client/index.js',
        'client/start.d.ts',
        'client/start.js',
        'domain/index.d.ts',
        'domain/index.js',
        'platform/codec/index.d.ts',
        'platform/codec/index.js',
        'platform/codec/keys.js',
      ],
      packages: ['@temporalio/client', '@temporalio/common', 'zod'],
    });
  });

  it('fails naming the chain when the client reaches worker-side code, in code or in types', () => {
    expect(
      cutError(
        fakeDist({
          'client/index.js': 'require("./start");',
          'client/start.js': 'require("../tools/sandbox/keys");',
          'tools/sandbox/keys.js': '',
        }),
      ),
    ).toBe('the client reaches tools/: client/index.js -> client/start.js -> tools/sandbox/keys.js');
    expect(
      cutError(
        fakeDist({
          'domain/index.d.ts': 'export type A = import("../activities/deps").Deps;',
          'activities/deps.d.ts': '',
        }),
      ),
    ).toMatch(/^the client reaches activities\/: domain\/index\.d\.ts -> activities\/deps\.d\.ts$/);
  });

  it('fails naming the chain when the client reaches @temporalio/worker', () => {
    expect(cutError(fakeDist({ 'platform/codec/index.js': 'require("@temporalio/worker");' }))).toBe(
      'the client reaches @temporalio/worker: platform/codec/index.js -> @temporalio/worker',
    );
  });

  it('lists each package at cardflow range, and refuses one cardflow does not depend on', () => {
    const rootPackage = { version: '1.2.3', dependencies: { zod: '^4.6.7', '@temporalio/client': '^1.24.0' } };
    expect(clientManifest({ files: [], packages: ['zod'] }, rootPackage)).toMatchObject({
      name: '@cardflow/client',
      version: '1.2.3',
      dependencies: { zod: '^4.6.7' },
    });
    expect(() => clientManifest({ files: [], packages: ['left-pad'] }, rootPackage)).toThrow(
      'the client imports left-pad, which is not a dependency of cardflow',
    );
  });
});

/**
 * `npm run package:client`: cuts `@cardflow/client`, what a backend installs, out of `dist/`
 * (docs/packaging.md says why it is a second package). From the entry points below it follows
 * every `require` of the compiled JavaScript and every import of the declarations, copies exactly
 * the files reached and lists exactly the npm packages they name, at cardflow's own ranges; then
 * `npm pack` writes the tarball to `.artifacts/client-package/`.
 *
 * The cut fails, naming the chain of files, when the client reaches the worker side: the worker,
 * activities, workflows, webhook receiver or sandbox folders, or `@temporalio/worker` (its native
 * module alone is about 148 MB, with webpack and swc behind it).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const distDir = path.join(root, 'dist');
export const CLIENT_PACKAGE_DIR = path.join(root, '.artifacts', 'client-package');

/** What the package exports (`.`, `./codec`, `./domain`) and the CLI, as paths under dist/. */
const ENTRY_POINTS = ['client/index.js', 'client/cli/main.js', 'platform/codec/index.js', 'domain/index.js'];
const FORBIDDEN_FOLDERS = ['workers', 'activities', 'workflows', 'webhooks', 'tools'];
const FORBIDDEN_PACKAGES = ['@temporalio/worker'];

export class ClientCutError extends Error {
  override readonly name = 'ClientCutError';
}

interface Cut {
  /** Paths under dist/, sorted. */
  files: string[];
  /** npm package names, sorted. */
  packages: string[];
}

function specifiers(file: string, text: string): string[] {
  const patterns = file.endsWith('.d.ts')
    ? [/\bfrom\s+["']([^"']+)["']/g, /\bimport\(\s*["']([^"']+)["']\s*\)/g, /^\s*import\s+["']([^"']+)["']/gm]
    : [/\brequire(?:\.resolve)?\(\s*["']([^"']+)["']\s*\)/g];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!));
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!);
}

/**
 * The file a relative specifier names, as tsc's output lays it out (`x.js`, `x/index.js`, their
 * `.d.ts`).
 */
function resolveRelative(dist: string, from: string, specifier: string, declaration: boolean): string | undefined {
  const base = path.join(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|d\.ts)$/, '');
  const candidates = declaration
    ? [`${stem}.d.ts`, path.join(stem, 'index.d.ts')]
    : [base, `${stem}.js`, path.join(stem, 'index.js'), `${base}.json`];
  return candidates.find(
    (candidate) => candidate.startsWith(dist) && statSync(candidate, { throwIfNoEntry: false })?.isFile(),
  );
}

/** Follows the entry points through `dist`; throws {@link ClientCutError} on a forbidden reach. */
export function cutClient(dist: string = distDir): Cut {
  const files = new Set<string>();
  const packages = new Set<string>();
  const reachedFrom = new Map<string, string | undefined>();
  const chain = (file: string): string => {
    const names: string[] = [];
    for (let at: string | undefined = file; at !== undefined; at = reachedFrom.get(at))
      names.unshift(path.relative(dist, at));
    return names.join(' -> ');
  };
  const queue: string[] = [];
  const visit = (file: string, from: string | undefined) => {
    if (reachedFrom.has(file)) return;
    reachedFrom.set(file, from);
    const relative = path.relative(dist, file);
    const folder = relative.split(path.sep)[0]!;
    if (FORBIDDEN_FOLDERS.includes(folder)) throw new ClientCutError(`the client reaches ${folder}/: ${chain(file)}`);
    queue.push(file);
  };
  for (const entry of ENTRY_POINTS) {
    const js = path.join(dist, entry);
    if (!existsSync(js)) throw new ClientCutError(`${path.relative(root, js)} is missing: run npm run build first`);
    visit(js, undefined);
    visit(js.replace(/\.js$/, '.d.ts'), undefined);
  }
  while (queue.length > 0) {
    const file = queue.shift()!;
    files.add(path.relative(dist, file));
    if (file.endsWith('.json')) continue;
    const declaration = file.endsWith('.d.ts');
    for (const specifier of specifiers(file, readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(dist, file, specifier, declaration);
        if (target === undefined)
          throw new ClientCutError(`${path.relative(dist, file)}: cannot resolve ${specifier} in dist/`);
        visit(target, file);
        if (!declaration && target.endsWith('.js') && existsSync(target.replace(/\.js$/, '.d.ts')))
          visit(target.replace(/\.js$/, '.d.ts'), file);
      } else if (!isBuiltin(specifier)) {
        const name = packageName(specifier);
        if (FORBIDDEN_PACKAGES.includes(name))
          throw new ClientCutError(`the client reaches ${name}: ${chain(file)} -> ${specifier}`);
        packages.add(name);
      }
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

interface RootPackage {
  version: string;
  description?: string;
  license?: string;
  engines?: Record<string, string>;
  dependencies: Record<string, string>;
}

/** The package.json of `@cardflow/client`: every package the cut names, at cardflow's range. */
export function clientManifest(cut: Cut, rootPackage: RootPackage): Record<string, unknown> {
  const dependencies: Record<string, string> = {};
  for (const name of cut.packages) {
    const range = rootPackage.dependencies[name];
    if (range === undefined)
      throw new ClientCutError(`the client imports ${name}, which is not a dependency of cardflow`);
    dependencies[name] = range;
  }
  return {
    name: '@cardflow/client',
    version: rootPackage.version,
    description: 'Start, follow and correct cardflow workflows from a backend service, and the cardflow CLI',
    license: rootPackage.license,
    type: 'commonjs',
    engines: rootPackage.engines,
    main: './client/index.js',
    types: './client/index.d.ts',
    exports: {
      '.': './client/index.js',
      './codec': './platform/codec/index.js',
      './domain': './domain/index.js',
      './package.json': './package.json',
    },
    bin: { cardflow: 'bin/cardflow.js' },
    dependencies,
  };
}

const BIN = `#!/usr/bin/env node
'use strict';
require('../client/cli/main.js').main(process.argv.slice(2));
`;

const README = `# @cardflow/client

Starts, follows and corrects cardflow workflows from a backend service, and the \`cardflow\` CLI.
Cut from cardflow's build by \`npm run package:client\`: the client side only, no worker.
Connection and keys come from the environment: \`TEMPORAL_ADDRESS\`, \`TEMPORAL_NAMESPACE\`, ...,
and \`CARDFLOW_CODEC_KEYS\` or \`CARDFLOW_CODEC_KEYS_FILE\` (the worker's payload keys; required).
`;

/** Writes the package folder and packs it; returns the tarball's path. */
export function packClient(): { tarball: string; cut: Cut } {
  const cut = cutClient();
  const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as RootPackage;
  const staging = path.join(CLIENT_PACKAGE_DIR, 'package');
  rmSync(CLIENT_PACKAGE_DIR, { recursive: true, force: true });
  for (const file of cut.files) {
    mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
    copyFileSync(path.join(distDir, file), path.join(staging, file));
  }
  mkdirSync(path.join(staging, 'bin'), { recursive: true });
  writeFileSync(path.join(staging, 'bin', 'cardflow.js'), BIN, { mode: 0o755 });
  writeFileSync(path.join(staging, 'README.md'), README);
  writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(clientManifest(cut, rootPackage), null, 2)}\n`);
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', CLIENT_PACKAGE_DIR], {
    cwd: staging,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop()!;
  return { tarball: path.join(CLIENT_PACKAGE_DIR, name), cut };
}

if (require.main === module) {
  try {
    const { tarball, cut } = packClient();
    console.log(`@cardflow/client: ${cut.files.length} files, dependencies ${cut.packages.join(', ')}`);
    console.log(tarball);
  } catch (error) {
    console.error(`package:client: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

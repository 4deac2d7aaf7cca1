/**
 * The cardflow files the workflow bundle holds, followed through the value imports of the
 * workflows' entry module as the bundler follows them (type-only imports are erased and load
 * nothing); each with whether it imports zod's values (builds schemas).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.join(__dirname, '../..');
/** A value or type import, an `import x = require(...)` among them. */
export const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+(?:from|=\s*require\()\s*)?'([^']+)'/gm;

const ENTRY = path.join(ROOT, 'workflows/index.ts');
const CONTEXT = /\.context\(\s*'\.',\s*false,\s*\/(.+)\/,?\s*\)/;

/**
 * The files of its own folder that `source` (the text of `file`) loads through webpack's
 * `require.context`, as the bundler reads them; none when it calls no context.
 */
function contextModules(file: string, source: string): string[] {
  const written = CONTEXT.exec(source)?.[1];
  if (written === undefined) return [];
  const pattern = new RegExp(written);
  return readdirSync(path.dirname(file))
    .filter((name) => pattern.test(`./${name}`))
    .map((name) => path.join(path.dirname(file), name));
}

/**
 * The modules the workflow bundle's entry loads by reading its folder: the files of workflows/ its
 * `require.context` pattern matches, the pattern read from the entry itself.
 */
export function entryModules(): string[] {
  const found = contextModules(ENTRY, readFileSync(ENTRY, 'utf8'));
  if (found.length === 0) throw new Error('workflows/index.ts: no module found through require.context');
  return found;
}

/** What each of {@link entryModules} exports. */
export function entryModuleExports(): object[] {
  return entryModules().map((file) => jest.requireActual<object>(file));
}

export function resolveModule(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/**
 * Files reached from `entry` (default the workflows' entry), and whether each imports zod's values.
 */
export function bundleReach(entry = ENTRY): Map<string, boolean> {
  const reached = new Map<string, boolean>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    let buildsSchemas = false;
    const source = readFileSync(file, 'utf8');
    queue.push(...contextModules(file, source));
    for (const [, typeOnly, specifier] of source.matchAll(IMPORT)) {
      if (typeOnly || !specifier) continue;
      if (specifier === 'zod') buildsSchemas = true;
      if (!specifier.startsWith('.')) continue;
      const target = resolveModule(file, specifier);
      if (target) queue.push(target);
    }
    reached.set(file, buildsSchemas);
  }
  return reached;
}

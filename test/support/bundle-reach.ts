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

/**
 * The modules the workflow bundle's entry loads by reading its folder: the files of workflows/ its
 * `require.context` pattern matches, the pattern read from the entry itself.
 */
export function entryModules(): string[] {
  const written = /\.context\(\s*'\.',\s*false,\s*\/(.+)\/,?\s*\)/.exec(readFileSync(ENTRY, 'utf8'))?.[1];
  if (written === undefined) throw new Error('workflows/index.ts: no require.context pattern found');
  const pattern = new RegExp(written);
  return readdirSync(path.dirname(ENTRY))
    .filter((file) => pattern.test(`./${file}`))
    .map((file) => path.join(path.dirname(ENTRY), file));
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
  const queue = entry === ENTRY ? [entry, ...entryModules()] : [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (reached.has(file)) continue;
    let buildsSchemas = false;
    for (const [, typeOnly, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
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

/**
 * The cardflow files the workflow bundle holds, followed through the value imports of the
 * workflows' entry module as the bundler follows them (type-only imports are erased and load
 * nothing); each with whether it imports zod's values (builds schemas).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.join(__dirname, '../..');
export const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/gm;

export function resolveModule(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/**
 * Files reached from `entry` (default the workflows' entry), and whether each imports zod's values.
 */
export function bundleReach(entry = path.join(ROOT, 'workflows/index.ts')): Map<string, boolean> {
  const reached = new Map<string, boolean>();
  const queue = [entry];
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

/**
 * Every module the workflow bundle reaches that builds zod schemas is in the preloaded
 * `sharedSchemaModules` (workflows/preload/shared-schemas.ts); one left out is rebuilt on every
 * workflow run and replay, which bench (a) showed as most of the workflow thread's CPU. The
 * bundle's reach is followed here through the value imports of the workflows' entry module, as
 * the bundler follows them (type-only imports are erased and load nothing).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../../..');
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/gm;

function resolveModule(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** Files reached from `entry` through value imports, and whether each imports zod's values. */
function bundleReach(entry: string): Map<string, boolean> {
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

it('every module of the workflow bundle that builds zod schemas is preloaded and shared', () => {
  const sharedSchemas = path.join(ROOT, 'workflows/preload/shared-schemas.ts');
  const preloaded = new Set(
    [...readFileSync(sharedSchemas, 'utf8').matchAll(IMPORT)]
      .map(([, , specifier]) => (specifier?.startsWith('.') ? resolveModule(sharedSchemas, specifier) : undefined))
      .filter((file): file is string => file !== undefined),
  );
  const reach = bundleReach(path.join(ROOT, 'workflows/index.ts'));
  const building = [...reach].filter(([, builds]) => builds).map(([file]) => path.relative(ROOT, file));
  // The sanity check that the walk sees the bundle: the onboarding's input schema is in it.
  expect(building).toContain('domain/customer-onboarding.ts');
  const rebuiltPerRun = building.filter(
    (file) => !preloaded.has(path.join(ROOT, file)) && !file.startsWith('workflows/preload/'),
  );
  expect(rebuiltPerRun).toEqual([]);
});

/**
 * The worker evaluates the workflow bundle's modules once and shares them, deep-frozen, with every
 * workflow run (workers/create-worker.ts, `preloadModules`). What a module exports is frozen; what
 * it keeps unexported is not, and would carry one run's state into the next: so no module the
 * bundle reaches declares a module-level variable or a mutable container of its own. A workflow's
 * state lives in its function's scope (or an object it creates per run).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, bundleReach } from '../../support/bundle-reach';

/** A top-level `let` / `var`, or a top-level `const` holding a new Map, Set, array or object. */
const MODULE_STATE =
  /^(?:export\s+)?(?:(?:let|var)\s+\w+|const\s+\w+(?:\s*:[^=]+)?\s*=\s*(?:new\s+(?:Map|Set|WeakMap|WeakSet|Array)\b|\[\s*\]|\{\s*\}))/gm;

it('no module of the workflow bundle keeps state of its own between runs', () => {
  const reach = [...bundleReach().keys()];
  // The sanity check that the walk sees the bundle.
  expect(reach.map((file) => path.relative(ROOT, file))).toContain('workflows/customer-onboarding.ts');
  const found = reach.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(MODULE_STATE)].map(([text]) => `${path.relative(ROOT, file)}: ${text}`),
  );
  expect(found).toEqual([]);
});

it('the check finds what it looks for', () => {
  const sample =
    'let counter = 0;\nconst seen = new Map<string, number>();\nconst queue: string[] = [];\nconst ok = 1;\n';
  expect([...sample.matchAll(MODULE_STATE)].map(([text]) => text)).toEqual([
    'let counter',
    'const seen = new Map',
    'const queue: string[] = []',
  ]);
});

/**
 * Every module the workflow bundle reaches that builds zod schemas is in the preloaded
 * `sharedSchemaModules` (workflows/preload/shared-schemas.ts): imported there, or a registered
 * workflow's own module (domain/workflows.ts `WORKFLOW_MODULES`). So its schemas are settled
 * before the worker freezes the shared modules (one left out would be frozen half-built).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WORKFLOW_MODULES } from '../../../domain/workflows';
import { IMPORT, ROOT, bundleReach, resolveModule } from '../../support/bundle-reach';

/** Whether `file` is one of the registered workflows' own modules (the same module object). */
const registered = (file: string): boolean => WORKFLOW_MODULES.includes(jest.requireActual<object>(file));

it('every module of the workflow bundle that builds zod schemas is preloaded and shared', () => {
  const sharedSchemas = path.join(ROOT, 'workflows/preload/shared-schemas.ts');
  const preloaded = new Set(
    [...readFileSync(sharedSchemas, 'utf8').matchAll(IMPORT)]
      .map(([, , specifier]) => (specifier?.startsWith('.') ? resolveModule(sharedSchemas, specifier) : undefined))
      .filter((file): file is string => file !== undefined),
  );
  const reach = bundleReach();
  const building = [...reach].filter(([, builds]) => builds).map(([file]) => path.relative(ROOT, file));
  // The sanity check that the walk sees the bundle: the onboarding's input schema is in it.
  expect(building).toContain('domain/customer-onboarding.ts');
  const rebuiltPerRun = building.filter(
    (file) =>
      !preloaded.has(path.join(ROOT, file)) &&
      !file.startsWith('workflows/preload/') &&
      !registered(path.join(ROOT, file)),
  );
  expect(rebuiltPerRun).toEqual([]);
  // The registry's part of the list is seen: the transfer's request schema comes through it.
  expect(preloaded.has(path.join(ROOT, 'domain/fund-transfer.ts'))).toBe(false);
  expect(registered(path.join(ROOT, 'domain/fund-transfer.ts'))).toBe(true);
});

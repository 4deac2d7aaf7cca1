/**
 * workflows/registry.ts: the bundle's entry registers each workflow type's function found among
 * the exports of workflows/'s top-level modules, and refuses a type found in none or in two.
 */
import { WorkflowTypes } from '../../../domain/workflows';
import { registerWorkflows } from '../../../workflows/registry';
import { entryModuleExports as modules } from '../../support/bundle-reach';

it('finds every workflow type, and only those, among the modules the entry loads', () => {
  const registered = registerWorkflows(modules());
  expect(Object.keys(registered).sort()).toEqual(Object.keys(WorkflowTypes).sort());
  // A helper a workflow module exports beside its workflows is not registered.
  expect(modules().some((module) => 'runCardOperation' in module)).toBe(true);
  expect(registered).not.toHaveProperty('runCardOperation');
});

it('refuses a type that no module exports, naming it', () => {
  const withoutTransfer = modules().map((module) =>
    Object.fromEntries(Object.entries(module).filter(([name]) => name !== WorkflowTypes.fundTransfer)),
  );
  expect(() => registerWorkflows(withoutTransfer)).toThrow(
    'workflow type fundTransfer is exported by 0 modules of workflows/, not one',
  );
});

it('refuses a type that two modules export', () => {
  const twice = [...modules(), { cardDeposit: async () => undefined }];
  expect(() => registerWorkflows(twice)).toThrow('workflow type cardDeposit is exported by 2 modules of workflows/');
});

/**
 * The worker's activities are every factory the activities folder exports under the conventional
 * name (activities/index.ts `activityFactories`): a module is registered by being there, and no two
 * factories name one activity, so none hides another in `createActivities`.
 */
import { activityFactories, createActivities } from '../../../activities';
import { createAccountActivities } from '../../../activities/accounts';
import { createCardActivities } from '../../../activities/cards';
import type { ActivityDeps } from '../../../activities/deps';
import { createReconciliationActivities } from '../../../activities/reconciliation';

const deps = { provider: {} } as ActivityDeps;

it('finds the factory of every activity module, a folder index included', () => {
  const found = activityFactories();
  expect(found.get('createCardActivities')).toBe(createCardActivities);
  expect(found.get('createAccountActivities')).toBe(createAccountActivities);
  expect(found.get('createReconciliationActivities')).toBe(createReconciliationActivities);
  expect([...found.keys()].every((name) => /^create\w+Activities$/.test(name))).toBe(true);
});

it('makes each activity of each factory once, and no two factories name one activity', () => {
  const named = [...activityFactories().values()].flatMap((create) => Object.keys(create(deps)));
  expect(named).toEqual(expect.arrayContaining(Object.keys(createCardActivities(deps))));
  expect(named.filter((name, i) => named.indexOf(name) !== i)).toEqual([]);
  expect(Object.keys(createActivities(deps)).sort()).toEqual([...named].sort());
});

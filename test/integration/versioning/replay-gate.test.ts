/**
 * The replay gate (workers/replay-gate.ts): the saved histories replay on the build's own bundle;
 * on a bundle whose onboarding changed commands they fail as PINNED findings (the runs finish on
 * their own build), and on one whose card entity changed they block the release. No server: the
 * replayer runs the bundles in this process.
 */
import path from 'node:path';
import { loadHistories, runReplayGate, type SavedHistory } from '../../../workers/replay-gate';
import { writeIncompatibleBuild } from '../../support/incompatible-build';
import { workflowBundle } from '../support/harness';

jest.setTimeout(240_000);

const SAVED = path.join(__dirname, '../../fixtures/histories');
let histories: SavedHistory[];
/** The onboarding and card-entity parents of the saved set: enough to tell the two cases apart. */
let subset: SavedHistory[];

beforeAll(async () => {
  histories = await loadHistories([SAVED]);
  subset = histories.filter((h) => ['customerOnboarding', 'cardEntity'].includes(h.workflowType));
});

it('loads every saved history with its workflow type', () => {
  expect(histories.length).toBeGreaterThan(20);
  expect(histories.every((h) => h.workflowType !== 'unknown')).toBe(true);
  expect(subset.some((h) => h.workflowType === 'cardEntity')).toBe(true);
});

it('passes the build’s own bundle', async () => {
  const result = await runReplayGate(await workflowBundle(), subset);
  expect(result).toEqual({ replayed: subset.length, failures: [], blocking: [] });
});

it('lists a changed onboarding as pinned findings, not blocking', async () => {
  const { code } = await writeIncompatibleBuild('customerOnboarding');
  const result = await runReplayGate({ code }, subset);
  const onboardings = subset.filter((h) => h.workflowType === 'customerOnboarding');
  expect(result.failures.map((f) => f.file).sort()).toEqual(onboardings.map((h) => h.file).sort());
  expect(result.failures.every((f) => f.versioning === 'PINNED' && /nondetermin/i.test(f.error))).toBe(true);
  expect(result.blocking).toEqual([]);
});

it('blocks on a changed card entity', async () => {
  const { code } = await writeIncompatibleBuild('cardEntity');
  const result = await runReplayGate({ code }, subset);
  expect(result.blocking.length).toBeGreaterThan(0);
  expect(result.blocking.every((f) => f.workflowType === 'cardEntity' && f.versioning === 'AUTO_UPGRADE')).toBe(true);
});

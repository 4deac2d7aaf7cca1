/**
 * The replay gate (workers/replay-gate.ts): the saved histories replay on the build's own bundle.
 * On a bundle whose onboarding changed commands, the onboardings block the release when the build
 * will meet them (written by no versioned worker, or by this very build), and are listed without
 * being counted when another build wrote them (they finish there). A changed card entity blocks
 * whoever wrote it. No server: the replayer runs the bundles in this process.
 */
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { buildIdOfHistory, loadHistories, runReplayGate, type SavedHistory } from '../../../workers/replay-gate';
import { buildIdOf } from '../../../platform/telemetry/build-id';
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

/** `histories` as a Worker Deployment version of build `buildId` would have written them. */
function writtenBy(buildId: string, histories: SavedHistory[]): SavedHistory[] {
  return histories.map((h) => {
    const history = temporal.api.history.v1.History.fromObject(temporal.api.history.v1.History.toObject(h.history));
    for (const e of history.events)
      if (e.workflowTaskCompletedEventAttributes)
        e.workflowTaskCompletedEventAttributes.deploymentVersion = { deploymentName: 'cardflow', buildId };
    return { ...h, history };
  });
}

const onboardingsOf = (hs: SavedHistory[]) => hs.filter((h) => h.workflowType === 'customerOnboarding');

it('passes the build’s own bundle', async () => {
  const bundle = await workflowBundle();
  const result = await runReplayGate(bundle, subset);
  expect(result).toEqual({
    buildId: buildIdOf(bundle.code),
    replayed: subset.length,
    failures: [],
    pinnedElsewhere: [],
  });
  expect(buildIdOfHistory(subset[0]!.history)).toBeUndefined();
});

it('a changed onboarding blocks when it meets histories no versioned worker wrote (they move to the current build)', async () => {
  const { code } = await writeIncompatibleBuild('customerOnboarding');
  const result = await runReplayGate({ code }, subset);
  expect(result.failures.map((f) => f.file).sort()).toEqual(
    onboardingsOf(subset)
      .map((h) => h.file)
      .sort(),
  );
  expect(result.failures.every((f) => f.versioning === 'PINNED' && /nondetermin/i.test(f.error))).toBe(true);
  expect(result.pinnedElsewhere).toEqual([]);
});

it('lists onboardings pinned to another build without replaying or counting them', async () => {
  const released = buildIdOf((await workflowBundle()).code);
  const { code } = await writeIncompatibleBuild('customerOnboarding');
  const result = await runReplayGate({ code }, writtenBy(released, subset));
  expect(result.pinnedElsewhere.map((p) => [p.file, p.buildId]).sort()).toEqual(
    onboardingsOf(subset)
      .map((h) => [h.file, released])
      .sort(),
  );
  expect(result.failures).toEqual([]);
  // The card entity is AUTO_UPGRADE: it moves to the new build, so it is replayed there.
  expect(result.replayed).toBe(subset.length - onboardingsOf(subset).length);
});

it('blocks a pinned history of the build under test that does not replay', async () => {
  const { code } = await writeIncompatibleBuild('customerOnboarding');
  const result = await runReplayGate({ code }, writtenBy(buildIdOf(code), subset));
  expect(result.pinnedElsewhere).toEqual([]);
  expect(result.failures.map((f) => f.file).sort()).toEqual(
    onboardingsOf(subset)
      .map((h) => h.file)
      .sort(),
  );
});

it('blocks on a changed card entity, whatever build wrote it', async () => {
  const { code } = await writeIncompatibleBuild('cardEntity');
  const result = await runReplayGate({ code }, writtenBy('0123456789abcdef', subset));
  expect(result.failures.length).toBeGreaterThan(0);
  expect(result.failures.every((f) => f.workflowType === 'cardEntity' && f.versioning === 'AUTO_UPGRADE')).toBe(true);
});

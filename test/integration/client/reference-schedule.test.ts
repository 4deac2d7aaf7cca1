/**
 * The reference data's refresh on its Temporal Schedule, on the dev server against the sandbox:
 * the schedule is ensured idempotently, a run reads every list and replaces what the shared cache
 * held (a cold list is filled, a stale one replaced), and a backend without the provider settings
 * then reads the lists from that cache.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureReferenceSchedule } from '../../../client/reference-schedule';
import { referenceData } from '../../../client/reference-data';
import type { ReferenceRefreshResult } from '../../../domain/reference-refresh';
import { createFileReferenceStore } from '../../../platform/storage/reference-store';
import { REFERENCE_LIST_NAMES } from '../../../provider/reference-lists';
import { CITIES } from '../../../tools/sandbox/data/cities';
import { OCCUPATIONS } from '../../../tools/sandbox/data/occupations';
import { eventually } from '../support/card-harness';
import { harnessPerFile, runCardflowWorker, startHarness } from '../support/harness';

jest.setTimeout(120_000);

const h = harnessPerFile(startHarness);

it('a scheduled run reads every list from the provider and replaces the cached copies', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-reference-'));
  const store = createFileReferenceStore(dir);
  await store.put('occupations', { records: [{ occupationCode: 'stale', description: 'Stale' }], fetchedAt: 1_000 });

  const scheduleId = `reference-refresh-${Date.now().toString(36)}`;
  const settings = { scheduleId, intervalMs: 3_600_000, taskQueue: h.taskQueue };
  expect(await ensureReferenceSchedule(h.client, settings)).toEqual({ scheduleId, created: true });
  expect(await ensureReferenceSchedule(h.client, { ...settings, intervalMs: 86_400_000 })).toEqual({
    scheduleId,
    created: false,
  });
  const schedule = h.client.schedule.getHandle(scheduleId);
  try {
    const described = await schedule.describe();
    expect(described.spec.intervals?.map((i) => i.every)).toEqual([86_400_000]);
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'referenceRefresh' });
    const result = await runCardflowWorker(
      { taskQueue: h.taskQueue, activityDeps: { provider: h.provider, referenceStore: store } },
      async () => {
        await schedule.trigger();
        const [started] = await eventually(
          async () => (await schedule.describe()).info.recentActions,
          (actions) => actions.length === 1,
          'the triggered run',
          60_000,
        );
        const run = started!.action.workflow;
        return (await h.client.workflow
          .getHandle(run.workflowId, run.firstExecutionRunId)
          .result()) as ReferenceRefreshResult;
      },
    );
    expect(Object.keys(result.lists).sort()).toEqual([...REFERENCE_LIST_NAMES].sort());
    expect(result.lists.cities).toBe(CITIES.length);

    // A backend without the provider settings reads what the run stored: the stale copy is gone.
    const backend = referenceData({ store, noProvider: 'a backend without the provider settings' });
    const occupations = await backend.list('occupations');
    expect(occupations).toMatchObject({ source: 'cache', records: OCCUPATIONS, fetchedAt: result.fetchedAt });
    expect((await backend.cities({ region: 'GB' })).map((c) => c.code)).toEqual(
      CITIES.filter((c) => c.country === 'GB').map((c) => c.code),
    );
    for (const name of REFERENCE_LIST_NAMES) expect(await store.get(name)).toBeDefined();
  } finally {
    await schedule.delete();
  }
});

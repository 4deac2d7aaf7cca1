/**
 * The undelivered store, both kinds alike: the JSON-lines file of one machine and the PostgreSQL
 * table of a cluster. An entry recorded is listed and found by id; a resend marks it (it leaves
 * the pending list, stays in the full one); recorded again, it is pending again; a second process
 * opening the same store sees what the first wrote (the worker records, the CLI resends).
 */
import { appendFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresUndeliveredStore } from '../../../../platform/notifications/postgres-store';
import {
  openFileUndeliveredStore,
  UNDELIVERED_LOG,
  type UndeliveredEntry,
  type UndeliveredStore,
} from '../../../../platform/notifications/store';
import { startTestPostgres, type TestPostgres } from '../../support/postgres';

const entry = (id: string, extra: Partial<UndeliveredEntry> = {}): UndeliveredEntry => ({
  id,
  type: 'transfer.completed',
  workflowId: `transfer-${id}`,
  recordedAt: new Date(Date.UTC(2026, 10, 28, 12, Number(id.slice(-1)))).toISOString(),
  reason: 'http://backend answered 500',
  body: `{"id":"${id}"}`,
  ...extra,
});

let pg: TestPostgres;
const opened: UndeliveredStore[] = [];
beforeAll(async () => {
  pg = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  for (const s of opened) await s.close();
  await pg?.stop();
});

async function pair(kind: 'file' | 'postgres'): Promise<[UndeliveredStore, UndeliveredStore, string]> {
  if (kind === 'file') {
    const dir = await mkdtemp(join(tmpdir(), 'cardflow-undelivered-'));
    const stores = [await openFileUndeliveredStore(dir), await openFileUndeliveredStore(dir)] as const;
    return [stores[0], stores[1], dir];
  }
  const url = await pg.database();
  const stores = [await openPostgresUndeliveredStore(url), await openPostgresUndeliveredStore(url)];
  opened.push(...stores);
  return [stores[0]!, stores[1]!, url];
}

it.each(['file', 'postgres'] as const)('%s: records, lists, marks resent, and records again', async (kind) => {
  const [worker, cli] = await pair(kind);
  await worker.record(entry('evt_a_1'));
  // A 3DS code past expiry is recorded without its body.
  const { body: _withheld, ...withoutBody } = entry('evt_a_2');
  await worker.record(withoutBody);
  expect((await cli.list({ pending: true })).map((e) => e.id)).toEqual(['evt_a_1', 'evt_a_2']);
  expect(await cli.get('evt_a_1')).toEqual(entry('evt_a_1'));
  expect(await cli.get('evt_a_9')).toBeUndefined();

  await cli.markResent('evt_a_1', '2026-11-28T13:00:00.000Z');
  expect((await worker.list({ pending: true })).map((e) => e.id)).toEqual(['evt_a_2']);
  expect(await worker.get('evt_a_1')).toMatchObject({ resentAt: '2026-11-28T13:00:00.000Z' });
  expect(await worker.list()).toHaveLength(2);

  await worker.record(entry('evt_a_1', { recordedAt: '2026-11-28T14:00:00.000Z', reason: 'again' }));
  const again = await cli.get('evt_a_1');
  expect(again).toMatchObject({ reason: 'again' });
  expect(again?.resentAt).toBeUndefined();
});

it('file: a line torn by a crash is skipped, the entries around it are kept', async () => {
  const [store, , dir] = await pair('file');
  await store.record(entry('evt_t_1'));
  await appendFile(join(dir, UNDELIVERED_LOG), '{"id":"evt_t_2","ty');
  await appendFile(join(dir, UNDELIVERED_LOG), '\n');
  await store.record(entry('evt_t_3'));
  expect((await store.list()).map((e) => e.id)).toEqual(['evt_t_1', 'evt_t_3']);
});

/**
 * Routes in PostgreSQL: shared by every worker and receiver, several owners per key, closing
 * compares the version seen.
 */
import { createPostgresRouteStore } from '../../../../platform/storage/postgres-route-store';
import type { RouteStore } from '../../../../platform/storage/route-store';
import { type TestPostgres, startTestPostgres } from '../../support/postgres';

let pg: TestPostgres;
const opened: RouteStore[] = [];
beforeAll(async () => {
  pg = await startTestPostgres();
}, 60_000);
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});
afterAll(async () => pg?.stop());

function store(url: string): RouteStore {
  const s = createPostgresRouteStore(url);
  opened.push(s);
  return s;
}

it("lets every receiver read at once the routes any worker recorded, each key's owners in order", async () => {
  const url = await pg.database();
  const [worker, receiverA, receiverB] = [store(url), store(url), store(url)];
  await worker.record('order:CF1', 'onboarding-a/cardholder');
  await worker.record('address:T1', 'onboarding-a');
  await store(url).record('address:T1', 'onboarding-a/funding');
  await worker.record('address:T1', 'onboarding-a'); // again: one row, refreshed
  expect((await receiverA.owners('order:CF1')).map((o) => o.workflowId)).toEqual(['onboarding-a/cardholder']);
  expect((await receiverB.owners('address:T1')).map((o) => o.workflowId)).toEqual([
    'onboarding-a/funding',
    'onboarding-a',
  ]);
  expect(await receiverB.owners('order:nobody')).toEqual([]);
});

it('marks a route closed only as it was seen: one recorded again since stays open', async () => {
  const url = await pg.database();
  const [worker, receiver] = [store(url), store(url)];
  await worker.record('order:CF2', 'w1');
  const [seen] = await receiver.owners('order:CF2');
  await worker.record('order:CF2', 'w1');
  await receiver.markClosed('order:CF2', seen!);
  const [fresh] = await receiver.owners('order:CF2');
  expect(fresh).toMatchObject({ workflowId: 'w1', closed: false });
  await receiver.markClosed('order:CF2', fresh!);
  expect(await receiver.owners('order:CF2')).toEqual([{ ...fresh, closed: true }]);
  await worker.record('order:CF2', 'w1');
  expect((await receiver.owners('order:CF2')).map((o) => o.closed)).toEqual([false]);
});

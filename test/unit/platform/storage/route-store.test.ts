/**
 * The file route store: what one process (a worker) records, another (the receiver) reads at its
 * next lookup; several owners per key; marking one closed closes only the route it saw.
 */
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROUTE_LOG, createFileRouteStore, routeKey } from '../../../../platform/storage/route-store';
import { routeStoreFor } from '../../../../platform/storage/from-config';
import { configured } from '../../../support/configured';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'route-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ids = async (store: ReturnType<typeof createFileRouteStore>, key: string) =>
  (await store.owners(key)).map((o) => o.workflowId);

it('keys routes by kind, so an order and an address with the same text never meet', () => {
  expect(routeKey('order', 'X1')).toBe('order:X1');
  expect(routeKey('address', 'X1')).toBe('address:X1');
  expect(routeKey('holder', '1989887271659823105')).toBe('holder:1989887271659823105');
});

it("reads at each lookup what another store on the same file recorded before, as a receiver reads a worker's", async () => {
  const worker = createFileRouteStore({ dir });
  const receiver = createFileRouteStore({ dir });
  expect(await receiver.owners('order:CF1')).toEqual([]);
  await worker.record('order:CF1', 'onboarding-a/cardholder');
  expect(await ids(receiver, 'order:CF1')).toEqual(['onboarding-a/cardholder']);
  await worker.record('address:T1', 'onboarding-a');
  await worker.record('address:T1', 'onboarding-a/funding');
  await createFileRouteStore({ dir }).record('address:T1', 'onboarding-b/funding');
  expect(await ids(receiver, 'address:T1')).toEqual(['onboarding-a', 'onboarding-a/funding', 'onboarding-b/funding']);
  expect(await ids(createFileRouteStore({ dir }), 'address:T1')).toHaveLength(3);
});

it('marks a route closed only as it was seen: one recorded again since stays open', async () => {
  const worker = createFileRouteStore({ dir });
  const receiver = createFileRouteStore({ dir });
  await worker.record('order:CF2', 'w1');
  await worker.record('order:CF3', 'w1');
  const [seen] = await receiver.owners('order:CF2');
  expect(seen?.closed).toBe(false);
  await receiver.markClosed('order:CF2', seen!);
  expect(await receiver.owners('order:CF2')).toEqual([{ ...seen, closed: true }]);
  const [stale] = await receiver.owners('order:CF3');
  await new Promise((resolve) => setTimeout(resolve, 5));
  await worker.record('order:CF3', 'w1'); // a new run under the same id, calling again
  await receiver.markClosed('order:CF3', stale!);
  expect((await receiver.owners('order:CF3')).map((o) => o.closed)).toEqual([false]);
  expect((await createFileRouteStore({ dir }).owners('order:CF2')).map((o) => o.closed)).toEqual([true]);
});

it('waits for the rest of a line being written, and skips a torn one', async () => {
  const receiver = createFileRouteStore({ dir });
  await createFileRouteStore({ dir }).record('order:CF4', 'w4');
  await appendFile(path.join(dir, ROUTE_LOG), '{"k":"order:CF5","w":"w5",');
  expect(await receiver.owners('order:CF5')).toEqual([]);
  await appendFile(path.join(dir, ROUTE_LOG), '"t":"2026-01-01T00:00:00.000Z"}\n{torn\n');
  expect(await ids(receiver, 'order:CF5')).toEqual(['w5']);
  expect(await ids(receiver, 'order:CF4')).toEqual(['w4']);
});

it('from the environment: CARDFLOW_ROUTE_DIR, else .data/routes under the working directory', async () => {
  await routeStoreFor(configured({ CARDFLOW_ROUTE_DIR: dir })).record('order:CF6', 'w6');
  expect(await ids(createFileRouteStore({ dir }), 'order:CF6')).toEqual(['w6']);
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    await routeStoreFor(configured({})).record('order:CF7', 'w7');
    expect(await ids(createFileRouteStore({ dir: path.join(dir, '.data', 'routes') }), 'order:CF7')).toEqual(['w7']);
  } finally {
    process.chdir(cwd);
  }
});

it('reads a file longer than one read, with a character split across two reads', async () => {
  // A first line of about 80 KiB whose two-byte characters start at odd offsets, so one of them
  // straddles the end of the first 64 KiB read; then lines after it.
  const long = `order:x${'é'.repeat(40_000)}`;
  const line = (k: string, w: string) => `${JSON.stringify({ k, w, t: '2026-01-01T00:00:00.000Z' })}\n`;
  await appendFile(
    path.join(dir, ROUTE_LOG),
    line(long, 'w-long') + Array.from({ length: 500 }, (_, i) => line(`order:${i}`, `w${i}`)).join(''),
  );
  const receiver = createFileRouteStore({ dir });
  expect(await ids(receiver, long)).toEqual(['w-long']);
  expect(await ids(receiver, 'order:499')).toEqual(['w499']);
  await receiver.close();
});

import { mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DELIVERY_LOG, bodyRequestId, openFileWebhookStore, type WebhookEntry } from '../../../webhooks/store';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'cardflow-store-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = (requestId: string, recordedAt: string): WebhookEntry => ({
  requestId,
  category: 'card_transaction',
  outcome: 'signalled',
  workflowIds: ['w'],
  recordedAt,
});

it('remembers request ids across reopening, drops those past the retention, and survives a torn last line', async () => {
  const day = 24 * 3600 * 1000;
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  const store = await openFileWebhookStore({ dir, now: () => t0 });
  await store.append(entry('old', new Date(t0 - 8 * day).toISOString()));
  await store.append(entry('recent', new Date(t0 - day).toISOString()));
  await store.close();
  appendFileSync(path.join(dir, DELIVERY_LOG), '{"requestId":"torn","categ');

  const reopened = await openFileWebhookStore({ dir, now: () => t0 });
  expect((await reopened.get('recent'))?.outcome).toBe('signalled');
  expect(reopened.get('old')).toBeUndefined();
  expect(reopened.get('torn')).toBeUndefined();
  await reopened.close();
  expect(
    readFileSync(path.join(dir, DELIVERY_LOG), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as WebhookEntry).requestId),
  ).toEqual(['recent']);
});

it('derives the same dedupe key from the same body when the request id header is missing', () => {
  expect(bodyRequestId(Buffer.from('{"a":1}'))).toBe(bodyRequestId(Buffer.from('{"a":1}')));
  expect(bodyRequestId(Buffer.from('{"a":1}'))).not.toBe(bodyRequestId(Buffer.from('{"a":2}')));
});

it('does not let a torn last line swallow the next entry', async () => {
  const store = await openFileWebhookStore({ dir });
  await store.append(entry('first', new Date().toISOString()));
  await store.close();
  appendFileSync(path.join(dir, DELIVERY_LOG), '{"requestId":"torn"');
  const reopened = await openFileWebhookStore({ dir });
  await reopened.append(entry('after', new Date().toISOString()));
  await reopened.close();
  const again = await openFileWebhookStore({ dir });
  expect(again.get('first')).toBeDefined();
  expect(again.get('after')).toBeDefined();
  await again.close();
});

it('appends a burst together, each resolved once on disk, in the order appended', async () => {
  const store = await openFileWebhookStore({ dir });
  const now = new Date().toISOString();
  const ids = Array.from({ length: 50 }, (_, i) => `burst-${i}`);
  // Each append resolves only after its line was synced: then it is also what a reader finds.
  await Promise.all(
    ids.map(async (id) => {
      await store.append(entry(id, now));
      expect(readFileSync(path.join(dir, DELIVERY_LOG), 'utf8')).toContain(`"requestId":"${id}"`);
    }),
  );
  // Closing right after a burst waits for its last batch.
  const last = store.append(entry('last', now));
  await store.close();
  await last;
  const lines = readFileSync(path.join(dir, DELIVERY_LOG), 'utf8').split('\n').filter(Boolean);
  expect(lines.map((l) => (JSON.parse(l) as WebhookEntry).requestId)).toEqual([...ids, 'last']);
  const reopened = await openFileWebhookStore({ dir });
  expect(ids.every((id) => reopened.get(id) !== undefined)).toBe(true);
  await reopened.close();
});

it('syncs what the log is the only record of, and only writes a batch of not-forwarded statuses', async () => {
  const store = await openFileWebhookStore({ dir });
  // The store's open file is a FileHandle: its class's datasync is what a sync costs.
  const probe = await open(path.join(dir, 'probe'), 'w');
  const syncs = jest.spyOn(Object.getPrototypeOf(probe) as FileHandle, 'datasync');
  await probe.close();
  try {
    const now = new Date().toISOString();
    await store.append({ ...entry('processing', now), outcome: 'not_forwarded', workflowIds: [] });
    expect(syncs).not.toHaveBeenCalled();
    // Written all the same: a crash of the receiver keeps it, and a repeat is still a duplicate.
    expect(readFileSync(path.join(dir, DELIVERY_LOG), 'utf8')).toContain('"requestId":"processing"');
    expect(store.get('processing')).toBeDefined();
    for (const outcome of ['signalled', 'no_owner', 'unknown_category', 'unparseable'] as const) {
      syncs.mockClear();
      await store.append({ ...entry(outcome, now), outcome });
      expect(syncs).toHaveBeenCalledTimes(1);
    }
  } finally {
    syncs.mockRestore();
    await store.close();
  }
});

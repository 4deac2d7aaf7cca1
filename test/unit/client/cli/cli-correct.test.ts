/**
 * `cardflow correct` reports what the correction led to: resubmitted (exit 0), or the cardholder
 * step failed meanwhile (exit 1, with the failure), never "sent" for a correction that did not
 * apply.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { runCli } from '../../../../client/cli/main';
import { b2bHolder } from '../../../fixtures/holders';
import { inputFiles } from '../../../support/input-files';
import { createFileReferenceStore } from '../../../../platform/storage/reference-store';

const files = inputFiles('cli-correct-');

/** The lists a correction's holder is checked against, as the workers' refresh leaves them. */
const referenceDir = mkdtempSync(join(tmpdir(), 'cli-correct-reference-'));
beforeAll(async () => {
  const store = createFileReferenceStore(referenceDir);
  const fetchedAt = Date.now();
  await store.put('cities', { records: [{ code: 'US0102', name: 'San Francisco', country: 'US' }], fetchedAt });
  const plusOne = { code: '+1', name: 'United States', areaCode: 'US', language: 'en_US', enableGlobalTransfer: true };
  await store.put('mobile-area-codes', { records: [plusOne], fetchedAt });
});

async function correctWith(answer: object, holder: object = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const handle = {
    query: () => Promise.reject(new Error('no worker (test)')),
    executeUpdate: jest.fn(() => Promise.resolve(answer)),
  };
  const client = { workflow: { getHandle: () => handle } } as unknown as Client;
  const { shape: _shape, ...fields } = b2bHolder('fixed@example.com');
  const code = await runCli(
    ['correct', 'acme-1', '--file', files.file('fix.json', { holder: { shape: 'B2B', ...fields, ...holder } })],
    {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env: { CARDFLOW_REFERENCE_DIR: referenceDir },
      connect: () => Promise.resolve({ client, namespace: 'default', close: () => Promise.resolve() }),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n'), sent: handle.executeUpdate.mock.calls.length };
}

it('a correction whose town is not in the reference data: exit 2, nothing sent', async () => {
  const run = await correctWith({ stage: 'in_review', resubmissions: 1 }, { town: 'XYZ' });
  expect(run.code).toBe(2);
  expect(run.err).toContain('holder.town: is not a city code of region US (reference data: cities)');
  expect(run.sent).toBe(0);
});

it('a resubmitted correction: exit 0, the holder and its review stage', async () => {
  const run = await correctWith({
    stage: 'in_review',
    holderId: '1989887271659823105',
    status: 'wait_audit',
    resubmissions: 1,
  });
  expect(run).toMatchObject({ code: 0, err: '' });
  expect(run.out).toBe('correction sent: cardholder 1989887271659823105 is in_review (wait_audit)');
});

it('a cardholder step that failed instead: exit 1, the failure named, nothing claimed sent', async () => {
  const run = await correctWith({
    stage: 'failed',
    resubmissions: 0,
    failure: { type: 'ProviderServerError', message: 'updateCardholder: provider answered HTTP 500' },
  });
  expect(run.code).toBe(1);
  expect(run.out).toBe('');
  expect(run.err).toBe(
    'correction not applied: the cardholder step of acme-1 failed: ProviderServerError: updateCardholder: provider answered HTTP 500',
  );
});

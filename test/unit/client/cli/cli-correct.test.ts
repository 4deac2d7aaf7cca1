/**
 * `cardflow correct` reports what the correction led to: resubmitted (exit 0), or the cardholder
 * step failed meanwhile (exit 1, with the failure), never "sent" for a correction that did not
 * apply.
 */
import type { Client } from '@temporalio/client';
import { runCli } from '../../../../client/cli/main';
import { b2bHolder } from '../../../fixtures/holders';
import { inputFiles } from '../../../support/input-files';

const files = inputFiles('cli-correct-');

async function correctWith(answer: object) {
  const out: string[] = [];
  const err: string[] = [];
  const handle = {
    query: () => Promise.reject(new Error('no worker (test)')),
    executeUpdate: () => Promise.resolve(answer),
  };
  const client = { workflow: { getHandle: () => handle } } as unknown as Client;
  const { shape: _shape, ...fields } = b2bHolder('fixed@example.com');
  const code = await runCli(
    ['correct', 'acme-1', '--file', files.file('fix.json', { holder: { shape: 'B2B', ...fields } })],
    {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env: {},
      connect: () => Promise.resolve({ client, namespace: 'default', close: () => Promise.resolve() }),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

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

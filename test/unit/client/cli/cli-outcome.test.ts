/**
 * How the CLI prints a workflow's end (client/cli/context.ts printSettled, behind `result`,
 * `status --watch` and the onboarding commands): the result (exit 0) or the failure's type and
 * message naming the workflow (exit 1), as a line or with --json as `{ ...key, status, ... }`.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, RetryState } from '@temporalio/common';
import { type CliContext, ExitCodes, printSettled } from '../../../../client/cli/context';

function context(json: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const ctx = { values: { json }, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
  return { ctx: ctx as unknown as CliContext, out, err };
}

const failed = () =>
  Promise.reject(
    new WorkflowFailedError(
      'Workflow execution failed',
      ApplicationFailure.create({ type: 'OperationFailed', message: 'deposit CF1 failed: card frozen' }),
      RetryState.NON_RETRYABLE_FAILURE,
    ),
  );

it('prints the result as text, or as JSON after the key', async () => {
  const text = context(false);
  expect(
    await printSettled(
      text.ctx,
      { customerRef: 'acme-1' },
      'onboarding acme-1',
      async () => 7,
      (n) => `got ${n}`,
    ),
  ).toBe(ExitCodes.done);
  expect(text.out).toEqual(['got 7']);
  const json = context(true);
  await printSettled(json.ctx, { customerRef: 'acme-1' }, 'onboarding acme-1', async () => 7, String);
  expect(json.out.map((l) => JSON.parse(l) as unknown)).toEqual([
    { customerRef: 'acme-1', status: 'COMPLETED', result: 7 },
  ]);
});

it("prints the workflow's failure naming it, and exits 1; any other error is thrown on", async () => {
  const text = context(false);
  expect(await printSettled(text.ctx, { customerRef: 'acme-1' }, 'onboarding acme-1', failed, String)).toBe(
    ExitCodes.failed,
  );
  expect(text.err).toEqual(['onboarding acme-1 failed: OperationFailed: deposit CF1 failed: card frozen']);
  const json = context(true);
  await printSettled(json.ctx, { workflowId: 'w-1' }, 'w-1', failed, String);
  expect(JSON.parse(json.out[0]!)).toEqual({
    workflowId: 'w-1',
    status: 'FAILED',
    failure: { type: 'OperationFailed', message: 'deposit CF1 failed: card frozen' },
  });
  await expect(
    printSettled(text.ctx, { workflowId: 'w-1' }, 'w-1', () => Promise.reject(new Error('unavailable')), String),
  ).rejects.toThrow('unavailable');
});

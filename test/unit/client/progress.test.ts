/**
 * The one watcher for every workflow: it describes each poll, runs the (billable) status query
 * only when the history grew, reports each change once, and stops when the workflow closes or
 * the caller aborts.
 */
import { watchWorkflow } from '../../../client/progress';

type Described = { status: string; historyLength: number };

/** A fake execution following `script`, one describe per step (the last step repeats). */
function fake(script: Described[], stages: Record<number, string>) {
  let i = 0;
  const describe = jest.fn(async () => {
    const step = script[Math.min(i, script.length - 1)]!;
    i += 1;
    current = step.historyLength;
    return { status: { name: step.status }, historyLength: step.historyLength } as never;
  });
  let current = 0;
  const read = jest.fn(async () => ({ stage: stages[current] ?? 'unknown' }));
  return { handle: { describe }, read, key: (s: { stage: string }) => s.stage };
}

it('queries only when the history grew, reports each new stage once, and ends with the closed status and last stage', async () => {
  const target = fake(
    [
      { status: 'RUNNING', historyLength: 5 },
      { status: 'RUNNING', historyLength: 5 },
      { status: 'RUNNING', historyLength: 9 },
      { status: 'RUNNING', historyLength: 12 },
      { status: 'COMPLETED', historyLength: 15 },
    ],
    { 5: 'validating', 9: 'transferring', 12: 'transferring', 15: 'completed' },
  );
  const seen: string[] = [];
  const result = await watchWorkflow(target, (s) => seen.push(s.stage), { pollMs: 1 });
  expect(seen).toEqual(['validating', 'transferring', 'completed']);
  expect(target.read).toHaveBeenCalledTimes(4); // not for the unchanged second look
  expect(result).toEqual({ status: 'COMPLETED', progress: { stage: 'completed' } });
});

it('a failing query (no worker) is retried on the next look, not reported', async () => {
  const target = fake(
    [
      { status: 'RUNNING', historyLength: 3 },
      { status: 'RUNNING', historyLength: 3 },
      { status: 'FAILED', historyLength: 3 },
    ],
    { 3: 'awaiting_code' },
  );
  target.read.mockRejectedValueOnce(new Error('no poller'));
  const seen: string[] = [];
  const result = await watchWorkflow(target, (s) => seen.push(s.stage), { pollMs: 1 });
  expect(seen).toEqual(['awaiting_code']);
  expect(target.read).toHaveBeenCalledTimes(2);
  expect(result.status).toBe('FAILED');
});

it('stops on abort while the workflow runs, with the last stage seen', async () => {
  const abort = new AbortController();
  const target = fake([{ status: 'RUNNING', historyLength: 4 }], { 4: 'awaiting_deposit' });
  const result = await watchWorkflow(
    target,
    () => {
      abort.abort();
    },
    { pollMs: 60_000, signal: abort.signal },
  );
  expect(result).toEqual({ status: 'RUNNING', progress: { stage: 'awaiting_deposit' } });
});

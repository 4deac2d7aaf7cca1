import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { heapLimitChosen, limitWorkflowThreadHeap } from '../../../workers/heap-limit';

const threadHeapLimitMib = () =>
  new Promise<number>((resolve, reject) => {
    const thread = new Worker(
      "require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().heap_size_limit)",
      { eval: true },
    );
    thread.once('message', (bytes: number) => {
      resolve(bytes / 1024 / 1024);
      void thread.terminate();
    });
    thread.once('error', reject);
  });

describe('workflow thread heap limit', () => {
  // Threads this jest process creates later get V8's own sizing again (0: from the machine).
  afterAll(() => setFlagsFromString('--max-old-space-size=0'));

  it('recognises a limit the operator chose on the command line or in NODE_OPTIONS', () => {
    expect(heapLimitChosen(['--max-old-space-size=2048'], undefined)).toBe(true);
    expect(heapLimitChosen([], '--enable-source-maps --max-old-space-size=2048')).toBe(true);
    expect(heapLimitChosen(['--enable-source-maps'], '--max-semi-space-size=16')).toBe(false);
  });

  it('leaves the operator’s limit alone', () => {
    expect(limitWorkflowThreadHeap(300, ['--max-old-space-size=4096'], undefined)).toBeUndefined();
  });

  it('bounds the heap of threads created afterwards, not of the thread that set it', async () => {
    const mainBefore = getHeapStatistics().heap_size_limit;
    const unlimited = await threadHeapLimitMib();
    expect(limitWorkflowThreadHeap(300, [], undefined)).toBe(300);
    const limit = await threadHeapLimitMib();
    // V8 adds the young generation to the old-space limit it is given (about 50 MiB on Node 20, 190
    // on Node 24).
    expect(limit).toBeGreaterThanOrEqual(300);
    expect(limit).toBeLessThan(300 + 256);
    expect(limit).toBeLessThan(unlimited);
    expect(getHeapStatistics().heap_size_limit).toBe(mainBefore);
  });
});

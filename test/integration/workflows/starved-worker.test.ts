/**
 * A worker alive but starved of CPU misses the provider call's heartbeats: each attempt ends in a
 * heartbeat timeout, and the server retries it after the policy's initial interval every time,
 * where the doubling policy made the n-th retry wait 2^(n-1) times it (docs/timeouts.md). The
 * intervals are the server's own, read from its description of the pending activity, not measured
 * by the test.
 */
import { activityInfo } from '@temporalio/activity';
import { temporal as proto } from '@temporalio/proto';
import { msToNumber } from '@temporalio/common/lib/time';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROVIDER_CALL } from '../../../workflows/calls/profiles';
import { connectTestClient, runWithWorker, type TestClient } from '../support/temporal-env';
import type { AttemptSeen, StarvedCallActivities, starvedCall } from './starved-call.workflow';

jest.setTimeout(120_000);

let temporal: TestClient;
beforeAll(async () => {
  temporal = await connectTestClient();
});
afterAll(async () => temporal?.close());

const millis = (t: { seconds?: unknown; nanos?: number | null } | null | undefined): number | undefined =>
  t ? Number(t.seconds ?? 0) * 1000 + Math.round((t.nanos ?? 0) / 1e6) : undefined;

it('retries a provider call whose attempts missed their heartbeats after its initial interval each time, never a growing wait', async () => {
  const seen: AttemptSeen[] = [];
  const activities: StarvedCallActivities = {
    async starvedProviderCall({ starvedAttempts }) {
      const info = activityInfo();
      const workflowId = info.workflowExecution!.workflowId;
      const described = await temporal.client.workflow.getHandle(workflowId).describe();
      const pending = described.raw.pendingActivities?.[0];
      const timeout = pending?.lastFailure?.timeoutFailureInfo?.timeoutType;
      seen.push({
        attempt: info.attempt,
        scheduledMs: millis(pending?.scheduledTime) ?? Number.NaN,
        startedMs: millis(pending?.lastStartedTime) ?? Number.NaN,
        ...(timeout ? { lastFailure: proto.api.enums.v1.TimeoutType[timeout] } : {}),
      });
      // Starved: no heartbeat reaches the server within its 3 s (this override is not wrapped by
      // the pulse), so the attempt ends in a heartbeat timeout.
      if (info.attempt <= starvedAttempts) await sleep(4_000);
      return seen;
    },
  };
  const result = await runWithWorker(
    { workflowsPath: require.resolve('./starved-call.workflow'), activities },
    ({ taskQueue }) =>
      temporal.client.workflow.execute<typeof starvedCall>('starvedCall', {
        taskQueue,
        workflowId: `starved-call-${Date.now()}`,
        args: [{ starvedAttempts: 4 }],
      }),
  );
  expect(result.map((s) => s.attempt)).toEqual([1, 2, 3, 4, 5]);
  // Each retry was scheduled by the server when the attempt before it timed out (its start + the
  // heartbeat timeout) plus the retry interval: the initial interval every time, where a doubling
  // policy gives 1, 2, 4 and 8 times it.
  const heartbeatMs = msToNumber(PROVIDER_CALL.heartbeatTimeout);
  const initialMs = msToNumber(PROVIDER_CALL.retry!.initialInterval);
  const intervals = result.slice(1).map((later, i) => later.scheduledMs - result[i]!.startedMs - heartbeatMs);
  for (const [i, later] of result.slice(1).entries()) {
    expect(later.lastFailure).toBe('TIMEOUT_TYPE_HEARTBEAT');
    expect(intervals[i]).toBeGreaterThanOrEqual(initialMs);
    expect(intervals[i]).toBeLessThan(initialMs + 500);
  }
});

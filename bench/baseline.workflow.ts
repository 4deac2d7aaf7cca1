/** The baseline of the throughput figure: one workflow running `activities` no-op activities in sequence. */
import { proxyActivities } from '@temporalio/workflow';
import type * as baselineActivities from './baseline.activities';

const { noop } = proxyActivities<typeof baselineActivities>({ startToCloseTimeout: '10s' });

export async function baselineWorkflow(input: { activities: number }): Promise<number> {
  for (let i = 0; i < input.activities; i++) await noop({ step: i });
  return input.activities;
}

/**
 * Baselines of the throughput figure, no-op activities only:
 * - `baselineWorkflow`: the baseline, one workflow running `activities` activities in sequence;
 * - `baselineShapedWorkflow`: the same activities spread over the onboarding's shape (a parent and
 *   `children` child workflows in sequence), so the figure can separate what Temporal charges for
 *   that shape from what cardflow's own work (provider calls, webhooks, lookups) adds.
 */
import { executeChild, proxyActivities } from '@temporalio/workflow';
import type * as baselineActivities from './baseline.activities';

const { noop } = proxyActivities<typeof baselineActivities>({ startToCloseTimeout: '10s' });

export async function baselineWorkflow(input: { activities: number }): Promise<number> {
  for (let i = 0; i < input.activities; i++) await noop({ step: i });
  return input.activities;
}

/** `activities` no-ops: the parent runs what the children do not share evenly, each child the rest. */
export async function baselineShapedWorkflow(input: { activities: number; children: number }): Promise<number> {
  const perChild = input.children > 0 ? Math.floor(input.activities / (input.children + 1)) : 0;
  const inParent = input.activities - perChild * input.children;
  for (let i = 0; i < inParent; i++) await noop({ step: i });
  for (let c = 0; c < input.children; c++) await executeChild(baselineWorkflow, { args: [{ activities: perChild }] });
  return input.activities;
}

/**
 * Baselines of the throughput figure, no-op activities only: `baselineWorkflow` (the activities in
 * sequence), `baselineShapedWorkflow` (the same spread over the onboarding's parent and children,
 * Temporal's price for that shape) and `baselineFeaturedWorkflow` (the shaped one plus the other
 * features the onboarding uses: children started with a routing search attribute, the stage
 * upserts, each child's answer signalled after a route lookup, and the card's own workflow started
 * by the last activity and parked). What featured loses against shaped is Temporal's price for
 * those features, not cardflow's code.
 */
import {
  condition,
  executeChild,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { providerEventSignal } from '../../domain/provider-event';
import { CardflowOrderNos, CardflowStage } from '../../domain/search-attributes';
import type { BaselineActivities } from './baseline.activities';

const { noop, noopAnswered } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '10s' });

export async function baselineWorkflow(input: { activities: number }): Promise<number> {
  for (let i = 0; i < input.activities; i++) await noop({ step: i });
  return input.activities;
}

/** How `activities` no-ops spread: each child gets an even share, the parent the rest. */
function spread(input: { activities: number; children: number }): { inParent: number; perChild: number } {
  const perChild = input.children > 0 ? Math.floor(input.activities / (input.children + 1)) : 0;
  return { inParent: input.activities - perChild * input.children, perChild };
}

/**
 * `activities` no-ops: the parent runs what the children do not share evenly, each child the rest.
 */
export async function baselineShapedWorkflow(input: { activities: number; children: number }): Promise<number> {
  const { inParent, perChild } = spread(input);
  for (let i = 0; i < inParent; i++) await noop({ step: i });
  for (let c = 0; c < input.children; c++) await executeChild(baselineWorkflow, { args: [{ activities: perChild }] });
  return input.activities;
}

/** A child of the featured baseline: its no-ops, the last one answered by a signal it waits for. */
export async function baselineAnsweredChild(input: {
  activities: number;
  key: string;
  lookup: boolean;
  /** Its answering activity also starts a card's workflow (the card child's does). */
  startsCard?: boolean;
}): Promise<number> {
  let answers = 0;
  setHandler(providerEventSignal, () => {
    answers += 1;
  });
  for (let i = 0; i < input.activities - 1; i++) await noop({ step: i });
  if (input.activities > 0)
    await noopAnswered({ key: input.key, lookup: input.lookup, ...(input.startsCard ? { startsCard: true } : {}) });
  await condition(() => answers > 0);
  return input.activities;
}

/**
 * The shaped baseline with the onboarding's upserts, routed children and signalled answers; with
 * `lookups: false` the answers skip the route lookup, which tells its share of the features' price.
 */
export async function baselineFeaturedWorkflow(input: {
  activities: number;
  children: number;
  lookups?: boolean;
  /**
   * Stage upserts of the parent, as many as the onboarding makes: the last at the end, the others
   * before the first children. @default children + 1
   */
  upserts?: number;
  /**
   * The last child's answering activity starts a card's workflow ({@link baselineCardWorkflow}).
   */
  cardWorkflow?: boolean;
}): Promise<number> {
  const { inParent, perChild } = spread(input);
  const { workflowId } = workflowInfo();
  const upserts = input.upserts ?? input.children + 1;
  for (let i = 0; i < inParent; i++) await noop({ step: i });
  for (let c = 0; c < input.children; c++) {
    if (c < upserts - 1) upsertSearchAttributes([{ key: CardflowStage, value: `child-${c}` }]);
    const key = `${workflowId}-${c}`;
    const startsCard = input.cardWorkflow === true && c === input.children - 1;
    await executeChild(baselineAnsweredChild, {
      args: [{ activities: perChild, key, lookup: input.lookups ?? true, ...(startsCard ? { startsCard } : {}) }],
      typedSearchAttributes: [{ key: CardflowOrderNos, value: [key] }],
    });
  }
  if (upserts > 0) upsertSearchAttributes([{ key: CardflowStage, value: 'done' }]);
  return input.activities;
}

/**
 * A card's workflow in the featured baseline: started by an activity with its card's search
 * attribute set at start, it takes the card's first event (signalled by its derived id, as the
 * receiver sends a card's events to `cardEntity`) and stays parked, as a card nobody touches
 * does. It never ends by itself.
 */
export async function baselineCardWorkflow(): Promise<void> {
  setHandler(providerEventSignal, () => undefined);
  await condition(() => false);
}

/**
 * The card book's ceilings (bench (k)): no-op workflows doing the Temporal actions a card's start
 * and an authorization cost, counted from the card workflow's own history in the same run, so
 * their rate is what the dev server allows on this machine for that mix, with no cardflow code.
 */
import { condition, defineSignal, proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { CardflowStage } from '../../domain/search-attributes';
import type { BaselineActivities } from './baseline.activities';

const { noop } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '10s' });

/** What the ceiling's workflows are sent in place of a provider event. */
export const ceilingSignal = defineSignal<[number]>('ceilingEvent');

/**
 * A card start's actions: `upserts` search-attribute upserts, `activities` no-ops in sequence,
 * and `signals` signals received (the starter sends them).
 */
export async function ceilingCardStart(input: { upserts: number; activities: number; signals: number }): Promise<void> {
  let received = 0;
  setHandler(ceilingSignal, () => void (received += 1));
  for (let i = 0; i < input.upserts; i++) upsertSearchAttributes([{ key: CardflowStage, value: `start-${i}` }]);
  for (let i = 0; i < input.activities; i++) await noop({ step: i });
  await condition(() => received >= input.signals);
}

/**
 * An authorization's actions: a signal each, and the no-op activity its notification needs, one for
 * the signals that arrived while the one before ran (as a card's notifications batch).
 */
export async function ceilingAuthorizations(input: { count: number }): Promise<void> {
  let received = 0;
  let done = 0;
  setHandler(ceilingSignal, () => void (received += 1));
  while (done < input.count) {
    await condition(() => received > done);
    const upTo = received;
    await noop({ step: upTo });
    done = upTo;
  }
}

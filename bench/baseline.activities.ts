/**
 * The baselines' activities: a no-op, what a provider call costs Temporal without the provider,
 * and a no-op whose answer comes back later as a signal, the way a provider's webhook reaches a
 * workflow through the receiver (a visibility lookup of the running owner, then a signal).
 */
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { visibilityQuery } from '../webhooks/routing';

export async function noop(_input: { step: number }): Promise<void> {}

/** The signal an answered no-op's workflow waits for (baseline.workflow.ts). */
export const BASELINE_ANSWER_SIGNAL = 'baselineAnswer';

/** Pauses before looking again when visibility does not list the owner yet, as the receiver does. */
const NOT_LISTED_YET_MS = [100, 500, 1500];

/**
 * Lists the running workflow that holds `key` in CardflowOrderNos and signals it, retrying while
 * visibility does not list it yet. Only the Temporal calls the receiver makes for a webhook, none of
 * its own work (signature, parsing, delivery log).
 */
async function answer(client: Client, key: string): Promise<void> {
  const query = visibilityQuery('CardflowOrderNos', key);
  if (!query) throw new Error(`baseline key ${key} cannot be looked up`);
  for (const pause of [0, ...NOT_LISTED_YET_MS]) {
    if (pause) await sleep(pause);
    for await (const owner of client.workflow.list({ query, pageSize: 20 })) {
      await client.workflow.getHandle(owner.workflowId, owner.runId).signal(BASELINE_ANSWER_SIGNAL);
      return;
    }
  }
  throw new Error(`no running baseline workflow listed ${key}`);
}

/** The baseline worker's activities; `client` sends the answers. */
export function baselineActivities(client: Client) {
  return {
    noop,
    /**
     * Completes at once; its answer is signalled right after, as a webhook follows a provider call:
     * to the workflow visibility lists under `key`, or, with `lookup: false`, straight to the
     * workflow that called (as a receiver that knew each key's workflow would).
     */
    async noopAnswered(input: { key: string; lookup: boolean }): Promise<void> {
      const caller = Context.current().info.workflowExecution?.workflowId;
      setImmediate(() => {
        const sent =
          input.lookup || caller === undefined
            ? answer(client, input.key)
            : client.workflow.getHandle(caller).signal(BASELINE_ANSWER_SIGNAL);
        sent.catch((error: unknown) => console.error('baseline answer failed:', error));
      });
    },
  };
}

export type BaselineActivities = ReturnType<typeof baselineActivities>;

/**
 * Forwards a parsed event to its owners as `providerEventSignal` through Temporal.
 *
 * Owners are the workflows the route store names for the event's keys
 * (platform/storage/route-store.ts), in the priority order `routeEvent` builds: every open owner of
 * the first key that has any is signalled (a shared deposit address concerns each running funding
 * of its coin; each workflow keys its handling on the record's identity and status). Signals go by
 * workflow id, never by a visibility query, and a route whose workflow has closed is marked so. A
 * key with no route is not ours: nothing is signalled, nothing is asked again (a route is written
 * before the call that produces its events, so one not found now is not coming). Errors other than
 * "workflow not found" (it finished) propagate, so the receiver answers non-200 and the provider
 * retries later.
 */
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { type ProviderEvent, providerEventSignal } from '../domain/provider-event';
import { type RouteStore, createFileRouteStore } from '../platform/storage/route-store';
import type { RouteLookup } from './routing';

/**
 * Signals an event to its owners; resolves with the workflow ids signalled (empty: no running
 * owner).
 */
export interface EventForwarder {
  forward(event: ProviderEvent, lookups: readonly RouteLookup[]): Promise<string[]>;
}

export interface RouteForwarderOptions {
  /** Most owners signalled per event; default 20. */
  maxOwners?: number;
  /**
   * Where the workers record routes; default the machine's route file
   * (platform/storage/route-store.ts).
   */
  routes?: Pick<RouteStore, 'owners' | 'markClosed'>;
}

/**
 * The EventForwarder that signals, with `providerEventSignal`, the owners the route store names.
 */
export function createRouteForwarder(client: Client, opts: RouteForwarderOptions = {}): EventForwarder {
  const maxOwners = opts.maxOwners ?? 20;
  const routes = opts.routes ?? createFileRouteStore();

  /**
   * Signals the open owners recorded for the key; a route to a workflow found closed is marked so.
   */
  async function signalRouted(event: ProviderEvent, key: string): Promise<string[]> {
    const signalled: string[] = [];
    const open = (await routes.owners(key)).filter((o) => !o.closed).slice(-maxOwners);
    for (const owner of open) {
      try {
        // By workflow id alone: the run current now, also after a continue-as-new.
        await client.workflow.getHandle(owner.workflowId).signal(providerEventSignal, event);
        signalled.push(owner.workflowId);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        await routes.markClosed(key, owner);
      }
    }
    return signalled;
  }

  return {
    async forward(event, lookups) {
      for (const lookup of lookups) {
        const signalled = await signalRouted(event, lookup.key);
        if (signalled.length > 0) return signalled;
      }
      return [];
    },
  };
}

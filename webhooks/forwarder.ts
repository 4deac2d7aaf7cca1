/**
 * Forwards a parsed event to its owners as `providerEventSignal`: every open owner of the first key
 * that has any route (platform/storage/route-store.ts, in `routeEvent`'s order) is signalled by
 * workflow id, never by a visibility query; a route whose workflow has closed is marked so. A key
 * with no route is not ours, since routes are written before the calls that produce events. Any
 * error but "workflow not found" propagates, so the provider gets a non-200 and retries.
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

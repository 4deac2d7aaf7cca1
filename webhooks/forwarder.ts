/**
 * Forwards a parsed event to its owners as `providerEventSignal` through Temporal.
 *
 * Owners are looked up with the lookups `routeEvent` builds, in priority order; every owner the
 * first lookup that finds any gives is signalled (a shared deposit address concerns each running
 * funding of its coin; each workflow keys its handling on the record's identity and status).
 * Order, cardholder and address lookups read the route store (storage/route-store.ts) and signal
 * by workflow id, never asking visibility; a route whose workflow has closed is marked so. A key
 * no route was ever recorded for is asked of visibility once, for the runs of a build that
 * recorded none (`unroutedFallback`; docs/architecture.md, Routing). Errors
 * other than "workflow not found" (it finished) propagate, so the receiver answers non-200 and the
 * provider retries later.
 */
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ProviderEvent, providerEventSignal } from '../domain/provider-event';
import { type RouteStore, createFileRouteStore } from '../storage/route-store';
import { type RouteLookup, visibilityQuery } from './routing';

/** A visibility lookup: the card's, or an unrouted key's by the attribute it was listed in. */
type ListedLookup = { attribute: string; value: string; query: string };

/** Where a build that recorded no routes listed a key of each kind. */
const UNROUTED_ATTRIBUTE = {
  order: 'CardflowOrderNos',
  address: 'CardflowOrderNos',
  holder: 'CardflowHolderId',
} as const;

/** Signals an event to its owners; resolves with the workflow ids signalled (empty: no running owner). */
export interface EventForwarder {
  forward(event: ProviderEvent, lookups: readonly RouteLookup[]): Promise<string[]>;
}

export interface TemporalForwarderOptions {
  /** Most owners signalled per event; default 20. */
  maxOwners?: number;
  /** Where to report a lookup the server refused (e.g. a search attribute not registered). */
  log?: (line: string) => void;
  /**
   * Pauses before asking visibility again when no owner is found, default [500, 1500] ms. Visibility
   * is eventually consistent: a workflow that has just set its search attribute may not be listed yet.
   * Not for an event found by route only: a route is written before its call, so one not found
   * now is not coming.
   */
  noOwnerRetryDelaysMs?: readonly number[];
  /** Where the workers record routes; default the machine's route file (storage/route-store.ts). */
  routes?: Pick<RouteStore, 'owners' | 'markClosed'>;
  /**
   * For a key no route was ever recorded for, ask visibility once (by the search attribute the
   * workflows still set), default true: runs started on a build that did not record routes yet
   * (pinned to it, they go on calling without routes) are found until they have finished. A key
   * whose route exists is never looked up there, nor is one asked again on retry.
   */
  unroutedFallback?: boolean;
}

const GRPC_INVALID_ARGUMENT = 3;

/** True for a gRPC INVALID_ARGUMENT, as the client raises it (directly or as the cause of a ServiceError). */
function isInvalidArgument(error: unknown): boolean {
  const code = (e: unknown) => (e !== null && typeof e === 'object' ? (e as { code?: unknown }).code : undefined);
  return (
    code(error) === GRPC_INVALID_ARGUMENT ||
    code((error as { cause?: unknown } | null)?.cause) === GRPC_INVALID_ARGUMENT
  );
}

/** The EventForwarder that lists owners by visibility query and signals each with `providerEventSignal`. */
export function createTemporalForwarder(client: Client, opts: TemporalForwarderOptions = {}): EventForwarder {
  const maxOwners = opts.maxOwners ?? 20;
  const retryDelays = opts.noOwnerRetryDelaysMs ?? [500, 1500];

  const log = opts.log ?? (() => undefined);

  async function owners(lookup: ListedLookup): Promise<Array<{ workflowId: string; runId: string }>> {
    const found: Array<{ workflowId: string; runId: string }> = [];
    try {
      for await (const info of client.workflow.list({ query: lookup.query, pageSize: maxOwners })) {
        found.push({ workflowId: info.workflowId, runId: info.runId });
        if (found.length >= maxOwners) break;
      }
    } catch (error) {
      // A query the server refuses (search attribute not registered on this namespace) cannot
      // succeed on a retry: skip this lookup and try the next, instead of failing every delivery.
      if (!isInvalidArgument(error)) throw error;
      log(
        `visibility refused the lookup by ${lookup.attribute}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return found;
  }

  const routes = opts.routes ?? createFileRouteStore();

  const unroutedFallback = opts.unroutedFallback ?? true;

  /**
   * Signals the open owners recorded for the key; a route to a workflow found closed is marked so.
   * `undefined` when no route was recorded for the key at all.
   */
  async function signalRouted(event: ProviderEvent, key: string): Promise<string[] | undefined> {
    const recorded = await routes.owners(key);
    if (recorded.length === 0) return undefined;
    const signalled: string[] = [];
    for (const owner of recorded.filter((o) => !o.closed).slice(-maxOwners)) {
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

  /** Signals the running workflows a visibility query lists. */
  async function signalListed(event: ProviderEvent, lookup: ListedLookup): Promise<string[]> {
    const signalled: string[] = [];
    for (const owner of await owners(lookup)) {
      try {
        await client.workflow.getHandle(owner.workflowId, owner.runId).signal(providerEventSignal, event);
        signalled.push(owner.workflowId);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
    }
    return signalled;
  }

  async function attempt(event: ProviderEvent, lookups: readonly RouteLookup[], first: boolean): Promise<string[]> {
    for (const lookup of lookups) {
      if ('key' in lookup) {
        const routed = await signalRouted(event, lookup.key);
        if (routed && routed.length > 0) return routed;
        if (routed || !unroutedFallback || !first) continue;
        const attribute = UNROUTED_ATTRIBUTE[lookup.kind];
        const query = visibilityQuery(attribute, lookup.value);
        const listed = query ? await signalListed(event, { attribute, value: lookup.value, query }) : [];
        if (listed.length > 0) return listed;
        continue;
      }
      const signalled = await signalListed(event, lookup);
      if (signalled.length > 0) return signalled;
    }
    return [];
  }

  return {
    async forward(event, lookups) {
      if (lookups.length === 0) return [];
      let signalled = await attempt(event, lookups, true);
      // Asked again only when a card was looked up by visibility: a route is never late.
      if (!lookups.some((lookup) => 'query' in lookup)) return signalled;
      for (const delay of retryDelays) {
        if (signalled.length > 0) break;
        await sleep(delay);
        signalled = await attempt(event, lookups, false);
      }
      return signalled;
    },
  };
}

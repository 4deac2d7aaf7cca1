/**
 * Forwards a parsed event to its owners as `providerEventSignal` through Temporal.
 *
 * Owners are looked up with the lookups `routeEvent` builds, in priority order; every owner the
 * first lookup that finds any gives is signalled (a shared deposit address concerns each running
 * funding of its coin; each workflow keys its handling on the record's identity and status).
 * Order, cardholder and address lookups read the route store (storage/route-store.ts) and signal
 * by workflow id, never asking visibility; a route whose workflow has closed is dropped. Errors
 * other than "workflow not found" (it finished) propagate, so the receiver answers non-200 and the
 * provider retries later.
 */
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ProviderEvent, providerEventSignal } from '../domain/provider-event';
import { type RouteStore, createFileRouteStore } from '../storage/route-store';
import type { RouteLookup } from './routing';

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
  routes?: Pick<RouteStore, 'owners' | 'drop'>;
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

  async function owners(
    lookup: Extract<RouteLookup, { query: string }>,
  ): Promise<Array<{ workflowId: string; runId: string }>> {
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

  /** Signals the owners recorded for the key; a route to a workflow that has closed is forgotten. */
  async function signalRouted(event: ProviderEvent, key: string): Promise<string[]> {
    const signalled: string[] = [];
    for (const owner of (await routes.owners(key)).slice(-maxOwners)) {
      try {
        // By workflow id alone: the run current now, also after a continue-as-new.
        await client.workflow.getHandle(owner.workflowId).signal(providerEventSignal, event);
        signalled.push(owner.workflowId);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        await routes.drop(key, owner);
      }
    }
    return signalled;
  }

  async function attempt(event: ProviderEvent, lookups: readonly RouteLookup[]): Promise<string[]> {
    for (const lookup of lookups) {
      if ('key' in lookup) {
        const routed = await signalRouted(event, lookup.key);
        if (routed.length > 0) return routed;
        continue;
      }
      const signalled: string[] = [];
      for (const owner of await owners(lookup)) {
        try {
          await client.workflow.getHandle(owner.workflowId, owner.runId).signal(providerEventSignal, event);
          signalled.push(owner.workflowId);
        } catch (error) {
          if (!(error instanceof WorkflowNotFoundError)) throw error;
        }
      }
      if (signalled.length > 0) return signalled;
    }
    return [];
  }

  return {
    async forward(event, lookups) {
      if (lookups.length === 0) return [];
      let signalled = await attempt(event, lookups);
      // Asked again only when visibility was asked: a route is never late.
      if (!lookups.some((lookup) => 'query' in lookup)) return signalled;
      for (const delay of retryDelays) {
        if (signalled.length > 0) break;
        await sleep(delay);
        signalled = await attempt(event, lookups);
      }
      return signalled;
    },
  };
}

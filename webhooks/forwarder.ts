/**
 * Forwards a parsed event to its owners as `providerEventSignal` through Temporal.
 *
 * Owners are looked up with the visibility queries `routeEvent` builds, in priority order; every
 * running match of the first query that finds any is signalled (a card's events concern each
 * running workflow of that card; each one keys its handling on the record's identity and status).
 * Errors other than "workflow not found" (it finished between lookup and signal) propagate, so the
 * receiver answers non-200 and the provider retries later.
 */
import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ProviderEvent, providerEventSignal } from '../domain/provider-event';
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
   */
  noOwnerRetryDelaysMs?: readonly number[];
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

  async function owners(lookup: RouteLookup): Promise<Array<{ workflowId: string; runId: string }>> {
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

  async function attempt(event: ProviderEvent, lookups: readonly RouteLookup[]): Promise<string[]> {
    for (const lookup of lookups) {
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
      for (const delay of retryDelays) {
        if (signalled.length > 0) break;
        await sleep(delay);
        signalled = await attempt(event, lookups);
      }
      return signalled;
    },
  };
}

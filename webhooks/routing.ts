/**
 * Routing, as pure functions: which lookups find the workflows that own a webhook event.
 *
 * Orders, cardholders and deposit addresses are found by key in the route store, where the activity
 * recorded the route before the provider call that produced the event
 * (platform/storage/route-store.ts; docs/architecture.md, Routing): strongly consistent, no
 * visibility query. Card-level events reach the card's workflow by its derived id
 * (webhooks/card-route.ts). An event nobody owns is acknowledged and recorded, not failed
 * (provider-notes, Webhooks).
 */
import { z } from 'zod';
import {
  FINAL_ONLY_CATEGORIES,
  isFinalEvent,
  type ProviderEventBody,
  type ProviderEventCategory,
} from '../domain/provider-event';
import { type RouteKind, routeKey } from '../platform/storage/route-store';
import { CATEGORY_RULES, isKnownCategory } from './categories';

/**
 * One lookup: `key` in the route store, a route recorded by the workflow that made the call or
 * waits.
 */
export interface RouteLookup {
  kind: RouteKind;
  value: string;
  key: string;
}

/**
 * The lookups for an event, in priority order (the first that finds a running owner wins):
 * card_transaction and physical_card by merchantOrderNo, card_holder by merchantOrderNo then
 * holderId, wallet_transaction_v2 by orderNo then destinationAddress, work by merchantOrderNo,
 * card_3ds by the card awaited. A record without any routing field, or an event no workflow acts
 * on (a non-final card operation or review, domain/provider-event.ts `isFinalEvent`), has none:
 * it is acknowledged and recorded, not signalled. The card's own workflow is not among them: it
 * has a derived id (webhooks/card-route.ts).
 */
export function routeEvent(event: ProviderEventBody): RouteLookup[] {
  if (!isForwarded(event)) return [];
  const fields = event.record as Readonly<Record<string, unknown>>;
  const lookups: RouteLookup[] = [];
  for (const rule of CATEGORY_RULES[event.category].routes) {
    const raw = fields[rule.field];
    if (typeof raw !== 'string' || raw === '') continue;
    lookups.push({ kind: rule.kind, value: raw, key: routeKey(rule.kind, raw) });
  }
  return lookups;
}

/**
 * False for an event no workflow acts on: a non-final card operation or review (each signal is a
 * billable action).
 */
export function isForwarded(event: ProviderEventBody): boolean {
  return !FINAL_ONLY_CATEGORIES.includes(event.category) || isFinalEvent(event);
}

export type ParsedEvent =
  | { kind: 'known'; event: ProviderEventBody }
  /** Parsed, but no workflow acts on it (a non-final status): recorded, not signalled. */
  | { kind: 'not_forwarded'; event: ProviderEventBody }
  | { kind: 'unknown_category' }
  | { kind: 'unparseable'; problem: string };

function parseRecord<C extends ProviderEventCategory>(category: C, payload: unknown) {
  const result = CATEGORY_RULES[category].schema.safeParse(payload);
  return result.success
    ? { ok: true as const, event: { category, record: result.data } as ProviderEventBody }
    : { ok: false as const, error: result.error };
}

/**
 * Parses a verified body with its category's record schema, once: every later step (routing,
 * the signal, the workflows) reads the typed record. A body that breaks the schema is not
 * forwarded (a workflow would act on a record it cannot trust); it is recorded with the first
 * field and rule that failed, for an operator.
 */
export function parseEvent(category: string, payload: unknown): ParsedEvent {
  if (!isKnownCategory(category)) return { kind: 'unknown_category' };
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return { kind: 'unparseable', problem: 'body: must be a JSON object' };
  }
  const parsed = parseRecord(category, payload);
  if (parsed.ok) return { kind: isForwarded(parsed.event) ? 'known' : 'not_forwarded', event: parsed.event };
  const issue = parsed.error.issues[0];
  return {
    kind: 'unparseable',
    problem: issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : z.prettifyError(parsed.error),
  };
}

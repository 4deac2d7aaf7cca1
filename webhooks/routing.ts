/**
 * Routing, as pure functions: which lookups find the workflows that own a webhook event.
 *
 * Orders, cardholders and deposit addresses are found by key in the route store, where the
 * activity recorded the route before the provider call that produced the event
 * (storage/route-store.ts; docs/architecture.md, Routing): strongly consistent, no visibility
 * query. Card-level events are found by the card. An event nobody owns is acknowledged and
 * recorded, not failed (provider-notes, Webhooks).
 */
import { z } from 'zod';
import {
  FINAL_ONLY_CATEGORIES,
  isFinalEvent,
  type ProviderEventBody,
  type ProviderEventCategory,
} from '../domain/provider-event';
import { type RouteKind, routeKey } from '../storage/route-store';
import { CATEGORY_RULES, type RouteAttribute, isKnownCategory } from './categories';

/**
 * One lookup: `key` in the route store (a route recorded by the workflow that made the call), or
 * a visibility `query` listing the running workflows whose `attribute` holds `value`.
 */
export type RouteLookup =
  { kind: RouteKind; value: string; key: string } | { attribute: RouteAttribute; value: string; query: string };

/**
 * Values that can be embedded in a visibility query literally. Provider references are letters,
 * digits, `_` and `-`, and so are on-chain deposit addresses (TRC20 base58 `T…`, BEP20/ERC20
 * `0x…` hex); anything else (a quote, a space) is refused rather than escaped, so a crafted body
 * can never widen the query.
 */
const SAFE_VALUE_RE = /^[A-Za-z0-9_.:-]{1,128}$/;

/** The visibility query for one lookup; `undefined` when the value is not a safe reference. */
export function visibilityQuery(attribute: string, value: string): string | undefined {
  if (!SAFE_VALUE_RE.test(value)) return undefined;
  return `${attribute} = '${value}' AND ExecutionStatus = 'Running'`;
}

/**
 * The lookups for an event, in priority order (the first that finds a running owner wins):
 * card_transaction by merchantOrderNo then cardNo, card_holder by merchantOrderNo then holderId,
 * wallet_transaction_v2 by orderNo then destinationAddress (all three by route), card-level
 * events by cardNo. A record
 * without any routing field, or an event no workflow acts on (a non-final card operation or
 * review, domain/provider-event.ts `isFinalEvent`), has none: it is acknowledged and recorded, not
 * signalled.
 */
export function routeEvent(event: ProviderEventBody): RouteLookup[] {
  if (!isForwarded(event)) return [];
  const fields = event.record as Readonly<Record<string, unknown>>;
  const lookups: RouteLookup[] = [];
  for (const rule of CATEGORY_RULES[event.category].routes) {
    const raw = fields[rule.field];
    if (typeof raw !== 'string' || raw === '') continue;
    if ('kind' in rule) {
      lookups.push({ kind: rule.kind, value: raw, key: routeKey(rule.kind, raw) });
      continue;
    }
    const query = visibilityQuery(rule.attribute, raw);
    if (query) lookups.push({ attribute: rule.attribute, value: raw, query });
  }
  return lookups;
}

/** False for an event no workflow acts on: a non-final card operation or review (each signal is a billable action). */
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

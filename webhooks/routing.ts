/**
 * Routing, as pure functions: which running workflows own a webhook event.
 *
 * No in-memory routing table: owners are found through Temporal visibility on
 * the search attributes the workflows set (`domain/search-attributes.ts`), which survives any
 * restart of the receiver. Only running executions are asked: a finished workflow cannot act on an
 * event, and an event nobody owns is acknowledged and recorded, not failed (provider-notes, Webhooks).
 */
import { z } from 'zod';
import { isLosslessNumber } from '../api/json';
import { type RouteAttribute, categoryRule, isForwarded } from './categories';

/** One visibility lookup: `query` lists the running workflows whose `attribute` holds `value`. */
export interface RouteLookup {
  attribute: RouteAttribute;
  value: string;
  query: string;
}

/**
 * Values that can be embedded in a visibility query literally. Provider references are letters,
 * digits, `_` and `-`, and so are on-chain deposit addresses (TRC20 base58 `T…`, BEP20/ERC20
 * `0x…` hex); anything else (a quote, a space) is refused rather than escaped, so a crafted body
 * can never widen the query.
 */
const SAFE_VALUE_RE = /^[A-Za-z0-9_.:-]{1,128}$/;

/** The visibility query for one lookup; `undefined` when the value is not a safe reference. */
export function visibilityQuery(attribute: RouteAttribute, value: string): string | undefined {
  if (!SAFE_VALUE_RE.test(value)) return undefined;
  return `${attribute} = '${value}' AND ExecutionStatus = 'Running'`;
}

/**
 * The lookups for an event, in priority order (the first that finds a running owner wins):
 * card_transaction by merchantOrderNo then cardNo, card_holder by merchantOrderNo then holderId,
 * wallet_transaction_v2 by orderNo then destinationAddress, card-level events by cardNo. An unknown
 * category, a record without any routing field, or one its rule does not forward (a non-final
 * status, webhooks/categories.ts) has none: it is acknowledged and recorded, not signalled.
 */
export function routeEvent(category: string, record: Record<string, unknown>): RouteLookup[] {
  const rule = categoryRule(category);
  if (!rule || !isForwarded(rule, record)) return [];
  const lookups: RouteLookup[] = [];
  for (const { attribute, field } of rule.routes) {
    const raw = record[field];
    if (typeof raw !== 'string' || raw === '') continue;
    const query = visibilityQuery(attribute, raw);
    if (query) lookups.push({ attribute, value: raw, query });
  }
  return lookups;
}

/** JSON with every lossless number turned into its digit string: safe for Temporal payloads and for the record file. */
export function plainJson(value: unknown): unknown {
  if (isLosslessNumber(value)) return value.toString();
  if (Array.isArray(value)) return value.map(plainJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, plainJson(v)]));
  }
  return value;
}

export type ParsedEvent =
  | { kind: 'known'; record: Record<string, unknown> }
  /** Parsed, but no workflow acts on it (a non-final status, webhooks/categories.ts): recorded, not signalled. */
  | { kind: 'not_forwarded'; record: Record<string, unknown> }
  | { kind: 'unknown_category' }
  | { kind: 'unparseable'; problem: string };

/**
 * Parses a verified body with its category's record schema. A body that breaks the schema is not
 * forwarded (a workflow would act on a record it cannot trust); it is recorded with the first
 * field and rule that failed, for an operator.
 */
export function parseEvent(category: string, payload: unknown): ParsedEvent {
  const rule = categoryRule(category);
  if (!rule) return { kind: 'unknown_category' };
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return { kind: 'unparseable', problem: 'body: must be a JSON object' };
  }
  const known = (record: Record<string, unknown>): ParsedEvent =>
    isForwarded(rule, record) ? { kind: 'known', record } : { kind: 'not_forwarded', record };
  if (!rule.schema) return known(plainJson(payload) as Record<string, unknown>);
  const result = rule.schema.safeParse(payload);
  if (result.success) return known(result.data);
  const issue = result.error.issues[0];
  return {
    kind: 'unparseable',
    problem: issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : z.prettifyError(result.error),
  };
}

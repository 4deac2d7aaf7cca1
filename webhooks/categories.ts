/**
 * What the receiver knows about each webhook category: the schema its body parses with, and
 * which fields name the workflow that owns the event.
 *
 * The body of a webhook equals the matching query record (provider-notes, Webhooks), so each
 * category reuses the `api/schemas` record schema. Parsing turns lossless numbers into decimal
 * and id strings, which keeps the signal payload JSON-safe and exact. zod drops keys a schema does
 * not declare: a `card_holder` event is parsed with the review-result schema (CardholderSchema),
 * so names, e-mails and phone numbers of the query record never reach workflow history.
 */
import type { z } from 'zod';
import { HOLDER_FINAL_STATUSES, OPERATION_FINAL_STATUSES } from '../api/rules';
import { Card3dsRecordSchema, CardAuthFeeRecordSchema, CardAuthTransactionSchema } from '../api/schemas/card-records';
import { CardOperationRecordSchema } from '../api/schemas/card';
import { CardholderSchema } from '../api/schemas/cardholder';
import { WalletTransactionSchema } from '../api/schemas/wallet';
import { WorkOrderSchema } from '../api/schemas/work-order';

/** A visibility lookup key: a custom search attribute and the field of the record that holds its value. */
export type RouteAttribute = 'CardflowOrderNos' | 'CardflowCardNo' | 'CardflowHolderId';

export interface CategoryRule {
  /** The record schema (spec: the matching query record); `undefined` keeps the body as plain JSON. */
  schema?: z.ZodType<Record<string, unknown>, unknown>;
  /** Lookups in priority order: the first that finds a running owner wins. */
  routes: ReadonlyArray<{ attribute: RouteAttribute; field: string }>;
  /**
   * Only records whose `field` holds one of `values` are signalled; the others are still
   * acknowledged and recorded. Each signal is a billable action, so a status no workflow acts
   * on is not sent.
   */
  forwardOnly?: { field: string; values: readonly string[] };
}

/**
 * The workflows wait only for final statuses (api/rules.ts): card operations end at success or
 * fail, reviews at pass_audit or reject. Authorization events are not filtered: card-entity.ts
 * records `authorized` ones too.
 */
const byOrderNo = { attribute: 'CardflowOrderNos', field: 'merchantOrderNo' } as const;
const byCardNo = { attribute: 'CardflowCardNo', field: 'cardNo' } as const;
const byHolderId = { attribute: 'CardflowHolderId', field: 'holderId' } as const;

/**
 * Categories from provider-notes (Webhooks). card_transaction carries the merchantOrderNo of the
 * operation (create, deposit, freeze...), so the workflow that sent it is found first, the card's
 * workflows second. Authorization, fee, 3DS and physical-card events only name the card.
 */
export const CATEGORY_RULES: Readonly<Record<string, CategoryRule>> = {
  card_transaction: {
    schema: CardOperationRecordSchema,
    routes: [byOrderNo, byCardNo],
    forwardOnly: { field: 'status', values: OPERATION_FINAL_STATUSES },
  },
  card_auth_transaction: { schema: CardAuthTransactionSchema, routes: [byCardNo] },
  card_fee_patch: { schema: CardAuthFeeRecordSchema, routes: [byCardNo] },
  card_3ds: { schema: Card3dsRecordSchema, routes: [byCardNo] },
  card_holder: {
    schema: CardholderSchema,
    routes: [byOrderNo, byHolderId],
    forwardOnly: { field: 'status', values: HOLDER_FINAL_STATUSES },
  },
  // A wallet deposit is on-chain and carries no merchantOrderNo: walletFunding lists its deposit
  // address in CardflowOrderNos (workflows/wallet-funding.ts), so it is found by destinationAddress.
  wallet_transaction_v2: {
    schema: WalletTransactionSchema,
    routes: [
      { attribute: 'CardflowOrderNos', field: 'orderNo' },
      { attribute: 'CardflowOrderNos', field: 'destinationAddress' },
    ],
  },
  work: { schema: WorkOrderSchema, routes: [byOrderNo] },
  // No record schema in the spec: forwarded as plain JSON (numbers as digit strings), routed by card.
  physical_card: { routes: [byOrderNo, byCardNo] },
};

/** False when the category's rule says no workflow acts on this record (it is recorded, not signalled). */
export function isForwarded(rule: CategoryRule, record: Record<string, unknown>): boolean {
  if (!rule.forwardOnly) return true;
  const value = record[rule.forwardOnly.field];
  return typeof value === 'string' && rule.forwardOnly.values.includes(value);
}

/** The rule for a category, or undefined for a category this code does not know. */
export function categoryRule(category: string): CategoryRule | undefined {
  return Object.prototype.hasOwnProperty.call(CATEGORY_RULES, category) ? CATEGORY_RULES[category] : undefined;
}

/**
 * Per webhook category: the schema its body parses with and the fields that name its owners by a
 * recorded route (a card's own workflow is reached by id, webhooks/card-route.ts). A body equals
 * its query record, so each category reuses the record's schema in `provider/schemas`; parsing
 * makes lossless numbers exact strings. zod drops undeclared keys, so a `card_holder` event keeps
 * only the review result and `updateTime` (CardholderEventSchema): no name, e-mail or phone of
 * the holder ever reaches a history.
 */
import type { z } from 'zod';
import { ActivateCardResultSchema, CardOperationRecordSchema } from '../provider/schemas/card';
import {
  Card3dsRecordSchema,
  CardAuthFeeRecordSchema,
  CardAuthTransactionSchema,
} from '../provider/schemas/card-records';
import { CardholderEventSchema } from '../provider/schemas/cardholder';
import { WalletTransactionSchema } from '../provider/schemas/wallet';
import { WorkOrderSchema } from '../provider/schemas/work-order';
import type { ProviderEventCategory, ProviderEventRecords } from '../domain/provider-event';
import type { RouteKind } from '../platform/storage/route-store';

/**
 * How an event finds its owner from one field of its record: the route a workflow recorded for
 * `kind:<field>`.
 */
export interface RouteRule {
  kind: RouteKind;
  field: string;
}

export interface CategoryRule<C extends ProviderEventCategory = ProviderEventCategory> {
  /** The record schema (spec: the matching query record). */
  schema: z.ZodType<ProviderEventRecords[C], unknown>;
  /** Lookups in priority order: the first that finds a running owner wins. */
  routes: readonly RouteRule[];
}

const byOrderNo = { kind: 'order', field: 'merchantOrderNo' } as const;
const byHolderId = { kind: 'holder', field: 'holderId' } as const;

/**
 * Categories from provider-notes (Webhooks). card_transaction and physical_card carry the
 * merchantOrderNo of the operation (create, deposit, freeze, activation...): the workflow that
 * sent it recorded that route. Authorization and fee events concern the card's workflow alone; a
 * 3DS record also reaches a workflow that recorded the card because it waits for one (a physical
 * card's activation code, activities/activation.ts).
 */
export const CATEGORY_RULES: { readonly [C in ProviderEventCategory]: CategoryRule<C> } = {
  card_transaction: { schema: CardOperationRecordSchema, routes: [byOrderNo] },
  card_auth_transaction: { schema: CardAuthTransactionSchema, routes: [] },
  card_fee_patch: { schema: CardAuthFeeRecordSchema, routes: [] },
  // Without `values`: the code or URL, even encrypted, never enters a workflow history or the
  // delivery log; the activity that needs it reads the record by its tradeNo
  // (docs/notifications.md).
  card_3ds: { schema: Card3dsRecordSchema.omit({ values: true }), routes: [{ kind: 'card', field: 'cardNo' }] },
  card_holder: { schema: CardholderEventSchema, routes: [byOrderNo, byHolderId] },
  // A wallet deposit is on-chain and carries no merchantOrderNo: the activity that prepares the
  // deposit address records it as a route (activities/wallet.ts), so it is found by
  // destinationAddress.
  wallet_transaction_v2: {
    schema: WalletTransactionSchema,
    routes: [
      { kind: 'order', field: 'orderNo' },
      { kind: 'address', field: 'destinationAddress' },
    ],
  },
  work: { schema: WorkOrderSchema, routes: [byOrderNo] },
  // The spec has no query for it: its body is the activation's result (the activate operation's
  // data).
  physical_card: { schema: ActivateCardResultSchema, routes: [byOrderNo] },
};

/**
 * True for a category this code knows (the others are acknowledged and recorded, never signalled).
 */
export function isKnownCategory(category: string): category is ProviderEventCategory {
  return Object.prototype.hasOwnProperty.call(CATEGORY_RULES, category);
}

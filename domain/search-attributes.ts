/**
 * The project's custom search attributes, defined once: workflows set them, the client filters on
 * them, and the dev server registers exactly this list (tools/scripts/dev-server.ts). Defined
 * through `@temporalio/common` (safe in the bundle), since `@temporalio/workflow` does not
 * re-export `defineSearchAttributeKey`. Values are business references only, never personal data
 * nor the card number (`cardNo` is the provider's card id, not the PAN).
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { SearchAttributeKey } from '@temporalio/common/lib/search-attributes';

/** The merchant's own reference for the customer a process serves (opaque to the provider). */
export const CardflowCustomerRef = defineSearchAttributeKey('CardflowCustomerRef', SearchAttributeType.KEYWORD);
/** Provider cardholder id (Long, as a digit string). */
export const CardflowHolderId = defineSearchAttributeKey('CardflowHolderId', SearchAttributeType.KEYWORD);
/** Provider card id `cardNo` (not the PAN). */
export const CardflowCardNo = defineSearchAttributeKey('CardflowCardNo', SearchAttributeType.KEYWORD);
/** Where the process stands (a workflow-defined stage name), for operators' list filters. */
export const CardflowStage = defineSearchAttributeKey('CardflowStage', SearchAttributeType.KEYWORD);
/**
 * Every merchantOrderNo (the spec's idempotency key) the workflow has used, added before the
 * call is made: reconciliation finds which workflow ordered what it meets in the provider's
 * records with `CardflowOrderNos IN (…)`, and an operator lists by it. (Webhooks find their
 * owner by the route store, never by this attribute.)
 */
export const CardflowOrderNos = defineSearchAttributeKey('CardflowOrderNos', SearchAttributeType.KEYWORD_LIST);
/** Which workflow kind this is (e.g. card creation, deposit), so one filter lists one flow. */
export const CardflowFlow = defineSearchAttributeKey('CardflowFlow', SearchAttributeType.KEYWORD);

/**
 * A reconciliation run's findings (repaired ones included), so the UI lists the runs that found
 * drift.
 */
export const CardflowFindings = defineSearchAttributeKey('CardflowFindings', SearchAttributeType.INT);

/** Every custom search attribute, in registration order; the dev server registers this list. */
export const cardflowSearchAttributes: readonly SearchAttributeKey<SearchAttributeType>[] = [
  CardflowCustomerRef,
  CardflowHolderId,
  CardflowCardNo,
  CardflowStage,
  CardflowOrderNos,
  CardflowFlow,
  CardflowFindings,
];

/**
 * Values that can be embedded in a visibility query literally. Provider references are letters,
 * digits, `_` and `-`, and so are on-chain deposit addresses (TRC20 base58 `T…`, BEP20/ERC20
 * `0x…` hex); anything else (a quote, a space) is refused rather than escaped, so a crafted value
 * can never widen a query.
 */
const SAFE_VALUE_RE = /^[A-Za-z0-9_.:-]{1,128}$/;

/** True for a value a visibility query may carry literally between quotes. */
export function isQueryLiteral(value: string): boolean {
  return SAFE_VALUE_RE.test(value);
}

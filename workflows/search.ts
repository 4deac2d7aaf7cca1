/**
 * Search attribute upserts that cost an action only when something changes: values already
 * set (at start, or by an earlier upsert) are skipped. Values are business references only.
 */
import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { orderNosKey } from '../domain/start-attributes';
import { CardflowCardNo, CardflowCustomerRef, CardflowFlow, CardflowHolderId, CardflowStage } from '../domain/search-attributes';
import type { Flow } from '../domain/workflow-types';

export interface AttributeChanges {
  customerRef?: string;
  flow?: Flow;
  stage?: string;
  holderId?: string;
  cardNo?: string;
}

/** Upserts the changed attributes in one command (one action), or nothing. */
export function setAttributes(changes: AttributeChanges): void {
  const current = workflowInfo().typedSearchAttributes;
  const pairs: SearchAttributeUpdatePair[] = [];
  const keyword = (key: typeof CardflowStage, value: string | undefined) => {
    if (value !== undefined && current.get(key) !== value) pairs.push({ key, value });
  };
  keyword(CardflowCustomerRef, changes.customerRef);
  keyword(CardflowFlow, changes.flow);
  keyword(CardflowStage, changes.stage);
  keyword(CardflowHolderId, changes.holderId);
  keyword(CardflowCardNo, changes.cardNo);
  if (pairs.length) upsertSearchAttributes(pairs);
}

/**
 * Adds `merchantOrderNo` to CardflowOrderNos before the call that sends it, so the webhook
 * receiver can route its card_transaction events here (free when set at start).
 */
export function addOrderNo(merchantOrderNo: string): void {
  const key = orderNosKey();
  if (!key) return;
  const current = workflowInfo().typedSearchAttributes.get(key) ?? [];
  if (current.includes(merchantOrderNo)) return;
  upsertSearchAttributes([{ key, value: [...current, merchantOrderNo] }]);
}

/** True when this workflow runs as a child of another cardflow workflow. */
export function isChild(): boolean {
  return workflowInfo().parent !== undefined;
}

/**
 * The idempotency key of every mutating provider call, derived from the workflow id and the step,
 * never drawn: a retry, a crash, a replay or a repeated start sends the same key, and the provider
 * answers "Duplicate order number" instead of acting twice. Keys are unique across operation
 * types, so each step has its own name, listed in its workflow's definition (`orderSteps`,
 * domain/workflows.ts); whoever starts the workflow lists the same keys in its search attributes
 * so webhooks reach it from its first moment. SHA-256 from `@noble/hashes`: this module runs in
 * the workflow bundle, where `node:crypto` is not available.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/**
 * Prefix that marks our keys in the provider's dashboard (and tells reconciliation ours from
 * others').
 */
export const ORDER_NO_PREFIX = 'CF';
/**
 * The length of every key: inside 20–40 (most operations), 15–65 (create card) and the earlier
 * deposit bound of 35 (provider/rules.ts), so one length fits every operation; 30 hex digits = 120
 * bits.
 */
export const ORDER_NO_LENGTH = 32;

/**
 * `CF` + hex of SHA-256(workflowId, step): deterministic, alphanumeric, {@link ORDER_NO_LENGTH}
 * characters.
 */
export function deriveMerchantOrderNo(workflowId: string, step: string): string {
  if (!workflowId) throw new TypeError('deriveMerchantOrderNo: workflowId is required');
  if (!step) throw new TypeError('deriveMerchantOrderNo: step is required');
  // A NUL separator keeps (id "a", step "bc") and (id "ab", step "c") apart.
  const digest = bytesToHex(sha256(utf8ToBytes(`${workflowId}\u0000${step}`)));
  return ORDER_NO_PREFIX + digest.slice(0, ORDER_NO_LENGTH - ORDER_NO_PREFIX.length);
}

/**
 * The step of a card entity's request: the requestId is the caller's idempotency key, so the same
 * request repeated, even after the entity continued as new, sends the same merchantOrderNo.
 */
export function entityOrderStep(
  kind: 'freeze' | 'unfreeze' | 'updatePin' | 'deposit' | 'unblock',
  requestId: string,
): string {
  return `card.${kind}.${requestId}`;
}

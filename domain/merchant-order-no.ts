/**
 * The idempotency key of every mutating provider call (spec: merchantOrderNo), derived in the
 * workflow from its workflow id and the step, never drawn at random: a retry, a worker crash, a
 * replay or a repeated start with the same business id sends the same key, and the provider
 * answers "Duplicate order number" instead of acting twice (provider-notes, Responses).
 *
 * A merchantOrderNo is unique across all operation types at the provider, so each step of a
 * workflow (`cardholder.create`, `card.create`, `card.deposit`, ...) gets its own.
 *
 * SHA-256 comes from `@noble/hashes` (pure JS): this module runs inside the workflow bundle,
 * where `node:crypto` is not available.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { MERCHANT_ORDER_NO } from '../api/rules';

/** Length bounds of a merchantOrderNo field (api/rules.ts: MERCHANT_ORDER_NO, CARD_MERCHANT_ORDER_NO). */
export interface OrderNoLengths {
  readonly min: number;
  readonly max: number;
}

/** Prefix that marks our keys in the provider's dashboard. */
export const ORDER_NO_PREFIX = 'CF';
/**
 * Preferred length: inside 20–40 (most operations), 15–65 (create card) and the earlier
 * deposit bound of 35, so one length fits every operation; 30 hex digits = 120 bits of hash.
 */
export const ORDER_NO_PREFERRED_LENGTH = 32;

/** The steps that send a merchantOrderNo, one name per provider mutation of a workflow. */
export const ORDER_STEPS = {
  cardholderCreate: 'cardholder.create',
  cardCreate: 'card.create',
  cardDeposit: 'card.deposit',
  /** BUDGET_CARD mode: fund transfer that tops up the charged account before card creation. */
  budgetTopUp: 'card.budget-topup',
} as const;
export type OrderStep = (typeof ORDER_STEPS)[keyof typeof ORDER_STEPS] | (string & {});

/**
 * `CF` + hex of SHA-256(workflowId, step): deterministic, alphanumeric, of
 * {@link ORDER_NO_PREFERRED_LENGTH} characters unless `lengths` forces otherwise.
 */
export function deriveMerchantOrderNo(
  workflowId: string,
  step: OrderStep,
  lengths: OrderNoLengths = MERCHANT_ORDER_NO,
): string {
  if (!workflowId) throw new TypeError('deriveMerchantOrderNo: workflowId is required');
  if (!step) throw new TypeError('deriveMerchantOrderNo: step is required');
  const maxPossible = ORDER_NO_PREFIX.length + 64;
  if (lengths.min > lengths.max || lengths.max < ORDER_NO_PREFIX.length + 16 || lengths.min > maxPossible) {
    throw new RangeError(`deriveMerchantOrderNo: cannot fit a key in ${lengths.min} to ${lengths.max} characters`);
  }
  const length = Math.min(Math.max(ORDER_NO_PREFERRED_LENGTH, lengths.min), lengths.max);
  // A NUL separator keeps (id "a", step "bc") and (id "ab", step "c") apart.
  const digest = bytesToHex(sha256(utf8ToBytes(`${workflowId}\u0000${step}`)));
  return ORDER_NO_PREFIX + digest.slice(0, length - ORDER_NO_PREFIX.length);
}

/**
 * Business workflow ids. A customer's onboarding is `onboarding-<customerRef>`, so a second
 * start with the same reference finds the running workflow instead of starting another, and
 * every child id (and every merchantOrderNo derived from it) is a pure function of that reference.
 *
 * Child ids append `/<step>` to the parent id. `/` is outside the customerRef charset, so a child
 * id can never equal another customer's onboarding id (`onboarding-a/card` is not a valid
 * onboarding id, whereas `onboarding-a-card` would be customer `a-card`'s).
 */
import { ClientErrorTypes } from './failure-types';

/**
 * Every business reference a workflow id is built from (customerRef, transferRef, fundingRef, a
 * card operation's requestRef): letters, digits, `_`, `.`, `-`; no `/` (child separator), no
 * spaces, no personal data by convention.
 */
export const BUSINESS_REF_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
export const BUSINESS_REF_MAX = 64;

export const ONBOARDING_ID_PREFIX = 'onboarding-';

/**
 * The steps a workflow runs as children; each names a child id suffix: an onboarding's
 * `cardholder`, `card` and `deposit`, and on its other paths `transfer` (shared_account funding),
 * `activation` (physical card) and `funding` (on_chain).
 */
export const CHILD_STEPS = ['cardholder', 'card', 'deposit', 'transfer', 'activation', 'funding', 'stranded'] as const;
export type ChildStep = (typeof CHILD_STEPS)[number];

/** A business reference (customerRef, transferRef, ...) that cannot become a workflow id. */
export class InvalidBusinessRefError extends Error {
  readonly type = ClientErrorTypes.invalidBusinessRef;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidBusinessRefError';
  }
}

/**
 * Why `value` cannot be the business reference `field` of a workflow id, or undefined when it can.
 */
export function businessRefProblem(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return `${field}: is required (a non-empty string)`;
  if (value.length > BUSINESS_REF_MAX) return `${field}: length must be 1 to ${BUSINESS_REF_MAX} characters`;
  if (!BUSINESS_REF_RE.test(value)) {
    return `${field}: must start with a letter or digit and contain only letters, digits, "_", "." and "-"`;
  }
  return undefined;
}

/** Returns why `customerRef` is unusable, or undefined when it is fine. */
export function customerRefProblem(customerRef: unknown): string | undefined {
  return businessRefProblem('customerRef', customerRef);
}

function assertBusinessRef(field: string, value: unknown): asserts value is string {
  const problem = businessRefProblem(field, value);
  if (problem) throw new InvalidBusinessRefError(problem);
}

/** Throws {@link InvalidBusinessRefError} naming the rule when `customerRef` is unusable. */
export function assertCustomerRef(customerRef: unknown): asserts customerRef is string {
  assertBusinessRef('customerRef', customerRef);
}

/** `onboarding-<customerRef>`: the id a backend's start is idempotent on. */
export function onboardingWorkflowId(customerRef: string): string {
  assertCustomerRef(customerRef);
  return `${ONBOARDING_ID_PREFIX}${customerRef}`;
}

/** The customerRef of an onboarding id (or of one of its children), or undefined for other ids. */
export function customerRefOf(workflowId: string): string | undefined {
  if (!workflowId.startsWith(ONBOARDING_ID_PREFIX)) return undefined;
  const ref = workflowId.slice(ONBOARDING_ID_PREFIX.length).split('/')[0] ?? '';
  return customerRefProblem(ref) ? undefined : ref;
}

/** `<parentId>/<step>`: a child's id, derived from its parent's. */
export function childWorkflowId(parentWorkflowId: string, step: ChildStep): string {
  return `${parentWorkflowId}/${step}`;
}

/** Id of the cardholder child of an onboarding: where a backend sends cardholder corrections. */
export function cardholderWorkflowId(customerRef: string): string {
  return childWorkflowId(onboardingWorkflowId(customerRef), 'cardholder');
}

/** Id of the card issuance child of an onboarding. */
export function cardIssuanceWorkflowId(customerRef: string): string {
  return childWorkflowId(onboardingWorkflowId(customerRef), 'card');
}

/** Id of the initial deposit child of an onboarding. */
export function initialDepositWorkflowId(customerRef: string): string {
  return childWorkflowId(onboardingWorkflowId(customerRef), 'deposit');
}

/**
 * The ids of the other workflows a backend starts, each a business key so that a repeated start
 * finds the execution instead of making a second one (client/start.ts).
 */

/** `card-<cardNo>`: the long-lived workflow of one card. */
export function cardEntityWorkflowId(cardNo: string): string {
  return `card-${cardNo}`;
}

/**
 * `card-<kind>-<cardNo>-<requestRef>`: a standalone freeze, unfreeze or PIN change, keyed by the
 * caller's reference.
 */
export function cardOperationWorkflowId(kind: string, cardNo: string, requestRef: string): string {
  return `card-${kind}-${cardNo}-${requestRef}`;
}

/** `activation-<cardNo>`: a physical card is activated once. */
export function activationWorkflowId(cardNo: string): string {
  return `activation-${cardNo}`;
}

/** `shared-account-<accountName>`: the provider's create takes no key, so the name is the key. */
export function sharedAccountWorkflowId(accountName: string): string {
  return `shared-account-${accountName.trim()}`;
}

/**
 * The id function of a workflow a backend starts by the business reference `field`:
 * `<prefix><ref>`, refusing a reference that cannot be part of a workflow id
 * ({@link InvalidBusinessRefError} naming `field` and the rule).
 */
export function businessRefWorkflowId(prefix: string, field: string): (ref: string) => string {
  return (ref) => {
    assertBusinessRef(field, ref);
    return `${prefix}${ref}`;
  };
}

/** `transfer-<transferRef>`. */
export const transferWorkflowId = businessRefWorkflowId('transfer-', 'transferRef');

/** `funding-<fundingRef>`. */
export const fundingWorkflowId = businessRefWorkflowId('funding-', 'fundingRef');

/**
 * `card-reissue-<cardNo>`: the one card issuance that replaces card `cardNo` (a repeat finds it).
 */
export function cardReissueWorkflowId(cardNo: string): string {
  return `card-reissue-${cardNo}`;
}

/**
 * Business workflow ids. A customer's onboarding is `onboarding-<customerRef>`, so a second
 * start with the same reference finds the running workflow instead of starting another, and
 * every child id (and every merchantOrderNo derived from it) is a pure function of that reference.
 *
 * Child ids append `/<step>` to the parent id. `/` is outside the customerRef charset, so a child
 * id can never equal another customer's onboarding id (`onboarding-a/card` is not a valid
 * onboarding id, whereas `onboarding-a-card` would be customer `a-card`'s).
 */

/** Letters, digits, `_`, `.`, `-`; no `/` (child separator), no spaces, no personal data by convention. */
export const CUSTOMER_REF_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
export const CUSTOMER_REF_MAX = 64;

export const ONBOARDING_ID_PREFIX = 'onboarding-';

/**
 * The steps a workflow runs as children; each names a child id suffix: an onboarding's
 * `cardholder`, `card` and `deposit`, and on its other paths `transfer` (shared_account funding),
 * `activation` (physical card) and `funding` (on_chain).
 */
export const CHILD_STEPS = ['cardholder', 'card', 'deposit', 'transfer', 'activation', 'funding'] as const;
export type ChildStep = (typeof CHILD_STEPS)[number];

/** A customerRef that cannot become a workflow id. */
export class InvalidCustomerRefError extends Error {
  readonly type = 'InvalidCustomerRef';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidCustomerRefError';
  }
}

/** Returns why `customerRef` is unusable, or undefined when it is fine. */
export function customerRefProblem(customerRef: unknown): string | undefined {
  if (typeof customerRef !== 'string' || customerRef.length === 0)
    return 'customerRef: is required (a non-empty string)';
  if (customerRef.length > CUSTOMER_REF_MAX) return `customerRef: length must be 1 to ${CUSTOMER_REF_MAX} characters`;
  if (!CUSTOMER_REF_RE.test(customerRef)) {
    return 'customerRef: must start with a letter or digit and contain only letters, digits, "_", "." and "-"';
  }
  return undefined;
}

/** Throws {@link InvalidCustomerRefError} naming the rule when `customerRef` is unusable. */
export function assertCustomerRef(customerRef: unknown): asserts customerRef is string {
  const problem = customerRefProblem(customerRef);
  if (problem) throw new InvalidCustomerRefError(problem);
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

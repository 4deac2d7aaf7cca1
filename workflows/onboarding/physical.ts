/**
 * The physical card path inside `customerOnboarding` (domain/onboarding-physical.ts): the
 * `activateCard` Update and its validator, the wait for it (one `condition` with a deadline: no
 * polling, no timer loop, a few events however long delivery takes), and the
 * `physicalCardActivation` child.
 */
import { condition, setHandler } from '@temporalio/workflow';
import { FailureTypes } from '../../domain/failure-types';
import {
  activateCardUpdate,
  OnboardingActivationRequestSchema,
  type OnboardingActivationRequest,
} from '../../domain/onboarding-physical';
import { type PhysicalCardActivationResult } from '../../domain/physical-card-activation';
import type { WaitOverrides } from '../../domain/wait-profile';
import { physicalCardActivationWorkflow } from '../../domain/workflows';
import { nonRetryable } from '../../domain/failures';
import { runChild } from '../calls/children';

/**
 * Takes the activation request through the `activateCard` Update. The validator refuses (and the
 * workflow keeps waiting) a request that breaks a rule (InvalidInput, naming the field), and any
 * request while this onboarding expects none or already has one (ActivationNotExpected).
 */
export class ActivationGate {
  private expecting = false;
  private accepted: OnboardingActivationRequest | undefined;

  /**
   * The activation child's id, the one the Update answers with; `owner` names the workflow in
   * refusals.
   */
  constructor(
    readonly activationWorkflowId: string,
    onAccepted: (request: OnboardingActivationRequest) => void,
    private readonly owner = 'onboarding',
  ) {
    setHandler(
      activateCardUpdate,
      (request) => {
        this.accepted = request;
        onAccepted(request);
        return { route: request.route, activationWorkflowId };
      },
      { validator: (request) => this.validate(request) },
    );
  }

  /** From now on one request is taken: the card type is physical and the input gave none. */
  expect(): void {
    this.expecting = true;
  }

  /** The accepted request, once the Update arrived. */
  get request(): OnboardingActivationRequest | undefined {
    return this.accepted;
  }

  /** Waits for the Update; false when `deadlineMs` passed first. */
  arrived(deadlineMs: number): Promise<boolean> {
    return condition(() => this.accepted !== undefined, deadlineMs);
  }

  private validate(request: unknown): void {
    if (!this.expecting) {
      throw nonRetryable(
        FailureTypes.activationNotExpected,
        `activateCard: this ${this.owner} takes no activation request (not a physical card type, still validating, or the request came with the input)`,
      );
    }
    if (this.accepted)
      throw nonRetryable(
        FailureTypes.activationNotExpected,
        `activateCard: an activation request (route ${this.accepted.route}) was already accepted`,
      );
    const parsed = OnboardingActivationRequestSchema.safeParse(request);
    if (!parsed.success)
      throw nonRetryable(
        FailureTypes.invalidInput,
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
  }
}

export interface ActivationChild {
  cardNo: string;
  request: OnboardingActivationRequest;
  customerRef: string;
  wait?: WaitOverrides | undefined;
}

/**
 * Runs `physicalCardActivation` for the card; its merchantOrderNo is listed at start (webhook
 * routing).
 */
export function runActivation({
  cardNo,
  request,
  customerRef,
  wait,
}: ActivationChild): Promise<PhysicalCardActivationResult> {
  const route =
    request.route === 'activation_code'
      ? {
          route: request.route,
          sealedPin: request.sealedPin,
          ...(request.noPinPaymentAmount === undefined ? {} : { noPinPaymentAmount: request.noPinPaymentAmount }),
        }
      : { route: request.route, workOrder: request.workOrder };
  return runChild(
    physicalCardActivationWorkflow,
    { cardNo, ...route, customerRef, ...(wait ? { wait } : {}) },
    { customerRef },
  );
}

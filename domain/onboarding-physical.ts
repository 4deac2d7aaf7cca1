/**
 * The physical card path of `customerOnboarding`: the printed card number
 * goes to create card (spec: Endpoints, createCard `cardNumber` "required for a physical card"),
 * the card is then `un_activated` until it reaches the customer, and the backend says so with
 * the `activateCard` Workflow Update carrying the activation request (or gives the request up
 * front in the input). The onboarding then runs `physicalCardActivation` as a child.
 *
 * The activation request is the activation workflow's own input minus the card: the same rules
 * (`activationInputIssues`), so the Update validator refuses exactly what the child would. The PIN
 * only ever travels sealed with the merchant public key (domain/physical-card-activation.ts).
 */
import { exact } from './exact';
import { defineUpdate } from '@temporalio/workflow';
import { z } from 'zod';
import {
  DECIMAL_TEXT_MAX,
  TOKEN_TEXT_MAX,
  WORK_ORDER_CONTENT,
  WORK_ORDER_FILES_MAX,
  WORK_ORDER_TITLE,
} from '../provider/rules';
import type { CardType } from '../provider/schemas/card-type';
import { optionalText, requiredText } from '../provider/schemas/fields';
import { lengthBetween } from '../provider/schemas/primitives';
import type { FieldIssue } from './cardholder-data';
import { activationInputIssues, type ActivationRoute, type WorkOrderFile } from './physical-card-activation';

/**
 * How the card is activated once it reached the customer (spec: activeCard, or a CARD_ACTIVE work
 * order).
 */
export type OnboardingActivationRequest =
  | {
      route: 'activation_code';
      /** The customer's 6-digit PIN sealed with the merchant public key; never the clear PIN. */
      sealedPin: string;
      /** PIN-free payment limit, USD, 0 to 2000 (spec: Limits); the provider defaults it to 500. */
      noPinPaymentAmount?: string;
    }
  | { route: 'work_order'; workOrder: { title?: string; content?: string; files: WorkOrderFile[] } };

const FILE_RULE = 'must be { "fileId": "..." } or { "ref": "<the reference cardflow files put printed>" }';
/** One object whichever form, so a bad fileId, ref or contentType is refused by its own name. */
const fileSchema = z
  .object(
    { fileId: requiredText.optional(), ref: requiredText.optional(), contentType: optionalText },
    { error: FILE_RULE },
  )
  .superRefine((file, ctx) => {
    if ((file.fileId === undefined) === (file.ref === undefined)) ctx.addIssue({ code: 'custom', message: FILE_RULE });
  })
  .transform((file): WorkOrderFile =>
    file.fileId !== undefined
      ? { fileId: file.fileId }
      : { ref: file.ref ?? '', ...(file.contentType === undefined ? {} : { contentType: file.contentType }) },
  );

/**
 * Validates an activation request (input field `activation`, the `activateCard` Update, the CLI's
 * activation file). Shapes by zod, rules by `activationInputIssues`; messages name the field.
 */
export const OnboardingActivationRequestSchema = z
  .discriminatedUnion(
    'route',
    [
      z.object({
        route: z.literal('activation_code'),
        /** RSA ciphertext in base64: a few hundred characters. */
        sealedPin: lengthBetween(1, TOKEN_TEXT_MAX),
        noPinPaymentAmount: lengthBetween(1, DECIMAL_TEXT_MAX).optional(),
      }),
      z.object({
        route: z.literal('work_order'),
        workOrder: z.object(
          {
            title: lengthBetween(WORK_ORDER_TITLE.min, WORK_ORDER_TITLE.max).optional(),
            content: lengthBetween(WORK_ORDER_CONTENT.min, WORK_ORDER_CONTENT.max, { multiline: true }).optional(),
            files: z
              .array(fileSchema)
              .max(WORK_ORDER_FILES_MAX, { message: `must list at most ${WORK_ORDER_FILES_MAX} files` }),
          },
          { error: 'is required for the work_order route' },
        ),
      }),
    ],
    { error: 'must be activation_code or work_order' },
  )
  .superRefine((request, ctx) => {
    for (const issue of activationRequestIssues(exact(request)))
      ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
  });

/**
 * The activation rules (domain/physical-card-activation.ts) applied to a request that has no card
 * yet.
 */
export function activationRequestIssues(request: OnboardingActivationRequest): FieldIssue[] {
  return activationInputIssues({ cardNo: 'not-yet-created', ...request }).filter(
    (issue) => issue.path !== 'cardNo' && issue.path !== 'route',
  );
}

/** What the `activateCard` Update answers: accepted; the activation runs as this child. */
export interface ActivateCardAccepted {
  route: ActivationRoute;
  activationWorkflowId: string;
}

/**
 * Workflow Update on `onboarding-<customerRef>`: the card reached the customer; activate it this
 * way.
 */
export const activateCardUpdate = defineUpdate<ActivateCardAccepted, [OnboardingActivationRequest]>('activateCard');

/**
 * How long an onboarding waits for the card to reach the customer (the `activateCard` Update);
 * default 60 days.
 */
export const DEFAULT_DELIVERY_DEADLINE_MS = 60 * 24 * 60 * 60 * 1000;

/** ISO/IEC 7812 check digit (Luhn). */
export function isLuhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Rules of the physical fields against the card type, before anything is sent: a Physical card
 * type needs `cardNumber` (12 to 19 digits, valid check digit, of the type's bankCardBin); a
 * Virtual one takes neither `cardNumber` nor `activation`. Messages never echo the number.
 */
export function physicalCardIssues(
  cardType: Pick<CardType, 'cardTypeId' | 'type' | 'bankCardBin'>,
  input: { cardNumber?: string | undefined; activation?: unknown },
): FieldIssue[] {
  if (cardType.type !== 'Physical') {
    const issues: FieldIssue[] = [];
    if (input.cardNumber !== undefined)
      issues.push({
        path: 'cardNumber',
        message: `is only for a physical card; card type ${cardType.cardTypeId} is ${cardType.type}`,
      });
    if (input.activation !== undefined)
      issues.push({
        path: 'activation',
        message: `is only for a physical card; card type ${cardType.cardTypeId} is ${cardType.type}`,
      });
    return issues;
  }
  const number = input.cardNumber;
  if (number === undefined || number === '') {
    return [
      {
        path: 'cardNumber',
        message: `is required for a physical card (card type ${cardType.cardTypeId}): the number printed on the card sent to the customer`,
      },
    ];
  }
  if (!/^\d{12,19}$/.test(number))
    return [{ path: 'cardNumber', message: 'must be the 12 to 19 digits printed on the card, without spaces' }];
  if (!number.startsWith(cardType.bankCardBin))
    return [
      { path: 'cardNumber', message: `must belong to the card type's bin ${cardType.bankCardBin} (bankCardBin)` },
    ];
  if (!isLuhnValid(number)) return [{ path: 'cardNumber', message: 'has an invalid check digit (Luhn)' }];
  return [];
}

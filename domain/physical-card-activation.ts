/**
 * `physicalCardActivation`, id `activation-<cardNo>`, by one of two routes:
 * - `activation_code`: wait for the card's activation-code record (poll or `card_3ds` webhook),
 *   activate with the holder's PIN and no-PIN amount, confirm Normal;
 * - `work_order`: upload the files, submit a CARD_ACTIVE work order for the card, wait for its
 *   decision (a failure ends the workflow with the provider's description), confirm Normal.
 * The PIN travels as `sealedPin`, encrypted with the merchant's public key as the provider
 * encrypts (provider/sensitive.ts); only the activity opens it, and the activation code is read
 * inside that activity too, so neither is ever in a history or a log.
 */
import { defineQuery } from '@temporalio/workflow';
import { cmp, scale } from '../provider/money';
import {
  FREE_TEXT_MAX,
  NO_PIN_PAYMENT_AMOUNT,
  textCharacterIssue,
  textRuleIssue,
  WORK_ORDER_CONTENT,
  WORK_ORDER_FILES_MAX,
  WORK_ORDER_TITLE,
  AMOUNT_RE,
} from '../provider/rules';
import { sealedPinIssue } from './card-operations';
import { storedFileRefIssue } from './stored-files';
import type { FieldIssue } from './cardholder-data';
import type { FailureSummary } from './summaries';
import { z } from 'zod';
import { amountString, businessRef, cardNoField } from './fields';
import { WaitOverridesSchema, type WaitOverrides } from './wait-profile';

export const ACTIVATION_ROUTES = ['activation_code', 'work_order'] as const;
export type ActivationRoute = (typeof ACTIVATION_ROUTES)[number];

/**
 * A supporting file: a `fileId` already uploaded, or a reference the worker resolves (a name
 * inside its file store directory). Never the bytes: they would be stored in history.
 */
export type WorkOrderFile = { fileId: string } | { ref: string; contentType?: string };

export interface PhysicalCardActivationInput {
  cardNo: string;
  route: ActivationRoute;
  /**
   * Route activation_code: the 6-digit PIN sealed with the merchant public key (never the clear
   * PIN).
   */
  sealedPin?: string;
  /**
   * Route activation_code: PIN-free payment limit, USD, 0 to 2000; the provider defaults it to 500.
   */
  noPinPaymentAmount?: string;
  /** Route work_order. */
  workOrder?: { title?: string; content?: string; files: WorkOrderFile[] };
  customerRef?: string;
  /**
   * How long to wait for the activation code, or for the work order's decision (ms); default 30
   * days.
   */
  deadlineMs?: number;
  wait?: WaitOverrides;
}

export interface PhysicalCardActivationResult {
  cardNo: string;
  route: ActivationRoute;
  /** merchantOrderNo of the activation call or of the work order. */
  merchantOrderNo: string;
  cardStatus: 'Normal';
  /** Route work_order: the provider's work order number and the files it carried. */
  workOrderNo?: string;
  fileIds?: string[];
}

export const ACTIVATION_STAGES = [
  'validating',
  'awaiting_code',
  'activating',
  'uploading',
  'submitting',
  'awaiting_work_order',
  'confirming',
  'completed',
  'failed',
  /** Stopped by an operator's cancel (a mutation under way was finished first). */
  'cancelled',
] as const;
export type ActivationStage = (typeof ACTIVATION_STAGES)[number];

export interface PhysicalCardActivationStatus {
  stage: ActivationStage;
  route: ActivationRoute;
  merchantOrderNo?: string;
  /** tradeNo of the activation_code record used (never its value). */
  activationCodeTradeNo?: string;
  workOrderNo?: string;
  workOrderStatus?: string;
  failure?: FailureSummary;
}

export const activationStatusQuery = defineQuery<PhysicalCardActivationStatus>('activationStatus');

export const DEFAULT_ACTIVATION_DEADLINE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Rules the input breaks, before anything is sent; paths name fields, messages never echo secrets.
 */
export function activationInputIssues(input: PhysicalCardActivationInput): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (typeof input.cardNo !== 'string' || input.cardNo === '') issues.push({ path: 'cardNo', message: 'is required' });
  if (!(ACTIVATION_ROUTES as readonly string[]).includes(input.route)) {
    issues.push({ path: 'route', message: `must be one of ${ACTIVATION_ROUTES.join(', ')}` });
    return issues;
  }
  if (input.route === 'activation_code') {
    if (typeof input.sealedPin !== 'string' || input.sealedPin === '') {
      issues.push({
        path: 'sealedPin',
        message: 'is required for the activation_code route (the PIN sealed with the merchant public key)',
      });
    } else {
      const rule = sealedPinIssue(input.sealedPin);
      if (rule) issues.push({ path: 'sealedPin', message: rule });
    }
    const noPin = input.noPinPaymentAmount;
    if (noPin !== undefined) {
      if (typeof noPin !== 'string' || !AMOUNT_RE.test(noPin) || scale(noPin) > 2) {
        issues.push({ path: 'noPinPaymentAmount', message: 'must be a decimal string such as "500"' });
      } else if (cmp(noPin, NO_PIN_PAYMENT_AMOUNT.min) < 0 || cmp(noPin, NO_PIN_PAYMENT_AMOUNT.max) > 0) {
        issues.push({
          path: 'noPinPaymentAmount',
          message: `must be between ${NO_PIN_PAYMENT_AMOUNT.min} and ${NO_PIN_PAYMENT_AMOUNT.max}`,
        });
      }
    }
  } else {
    issues.push(...workOrderIssues(input.workOrder, 'workOrder'));
  }
  return issues;
}

/**
 * Rules a work order's supporting files, title and content break (spec: Work orders; File
 * upload), their paths under `prefix` (the activation's `workOrder`; none for an unblock request).
 */
export function workOrderIssues(
  order: { title?: string | undefined; content?: string | undefined; files?: WorkOrderFile[] } | undefined,
  prefix: string,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  if (!order || !Array.isArray(order.files) || order.files.length === 0) {
    issues.push({ path: at('files'), message: 'must list at least one supporting file (fileId or ref)' });
  } else if (order.files.length > WORK_ORDER_FILES_MAX) {
    issues.push({ path: at('files'), message: `must list at most ${WORK_ORDER_FILES_MAX} files` });
  } else {
    order.files.forEach((file, i) => {
      const path = at(`files.${i}`);
      if ('fileId' in file) {
        if (typeof file.fileId !== 'string' || file.fileId === '')
          issues.push({ path: `${path}.fileId`, message: 'must not be empty' });
        else {
          const rule = textRuleIssue(file.fileId, 1, FREE_TEXT_MAX);
          if (rule) issues.push({ path: `${path}.fileId`, message: rule });
        }
        return;
      }
      const contentType = 'contentType' in file ? file.contentType : undefined;
      const contentTypeRule =
        typeof contentType === 'string' ? textRuleIssue(contentType, 0, FREE_TEXT_MAX) : undefined;
      if (contentTypeRule) issues.push({ path: `${path}.contentType`, message: contentTypeRule });
      const refRule = storedFileRefIssue('ref' in file ? file.ref : undefined);
      if (refRule) issues.push({ path: `${path}.ref`, message: refRule });
    });
  }
  const title = order?.title;
  if (title !== undefined && (title.length < WORK_ORDER_TITLE.min || title.length > WORK_ORDER_TITLE.max)) {
    issues.push({
      path: at('title'),
      message: `length must be ${WORK_ORDER_TITLE.min} to ${WORK_ORDER_TITLE.max} characters`,
    });
  }
  if (order?.content !== undefined && order.content.length > WORK_ORDER_CONTENT.max) {
    issues.push({
      path: at('content'),
      message: `length must be at most ${WORK_ORDER_CONTENT.max} characters`,
    });
  }
  const titleRule = typeof title === 'string' ? textCharacterIssue(title) : undefined;
  if (titleRule) issues.push({ path: at('title'), message: titleRule });
  const contentRule = typeof order?.content === 'string' ? textCharacterIssue(order.content, true) : undefined;
  if (contentRule) issues.push({ path: at('content'), message: contentRule });
  return issues;
}

export const DEFAULT_WORK_ORDER_TITLE = 'Physical card activation';

const activationFileSchema = z.union([
  z.object({ fileId: z.string().min(1, { message: 'must not be empty' }) }).strict(),
  z.object({ ref: z.string(), contentType: z.string().optional() }).strict(),
]);

/**
 * What a backend or `cardflow activate --file` hands an activation's start: the card number is
 * the business key (one activation per card). A clear `pin` is sealed by the client before
 * anything is sent; the workflow only ever sees `sealedPin`.
 */
export const ActivationRequestSchema = z
  .object({
    cardNo: cardNoField,
    route: z.enum(ACTIVATION_ROUTES, { error: `must be one of ${ACTIVATION_ROUTES.join(', ')}` }),
    /** Clear 6-digit PIN; sealed by the client, never sent in clear. */
    pin: z.string().optional(),
    sealedPin: z.string().optional(),
    noPinPaymentAmount: amountString.optional(),
    workOrder: z
      .object({ title: z.string().optional(), content: z.string().optional(), files: z.array(activationFileSchema) })
      .optional(),
    customerRef: businessRef.optional(),
    deadlineMs: z.number().int().positive().optional(),
    wait: WaitOverridesSchema,
  })
  .strict();

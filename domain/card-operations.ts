/**
 * Freeze, unfreeze and update PIN as workflows: each sends its v2 operation
 * with a merchantOrderNo derived from the workflow id (spec: /card/v2/freeze, /card/v2/unfreeze,
 * /card/physicalCard/updatePin) and waits for the operation record (types Freeze, UnFreeze,
 * update_pin) to succeed: webhook `card_transaction` first, polling as the fallback.
 *
 * The new PIN travels as `sealedPin` (encrypted with the merchant public key, see
 * domain/physical-card-activation.ts); only the activity opens it.
 */
import { defineQuery } from '@temporalio/workflow';
import { CLIENT_REMARK, TOKEN_TEXT_MAX, textCharacterIssue, textRuleIssue } from '../provider/rules';
import type { FieldIssue } from './cardholder-data';
import type { FailureSummary } from './summaries';
import { z } from 'zod';
import { businessRef, cardNoField } from './fields';
import { WaitOverridesSchema, type WaitOverrides } from './wait-profile';

export const CARD_OPERATION_KINDS = ['freeze', 'unfreeze', 'updatePin'] as const;
export type CardOperationKind = (typeof CARD_OPERATION_KINDS)[number];

export interface CardOperationInput {
  cardNo: string;
  /** freeze / unfreeze: clientRemark, 0 to 50 characters. */
  clientRemark?: string;
  /** updatePin: the new PIN sealed with the merchant public key. */
  sealedPin?: string;
  customerRef?: string;
  wait?: WaitOverrides;
}

export interface CardOperationOutcome {
  cardNo: string;
  kind: CardOperationKind;
  merchantOrderNo: string;
  orderNo: string;
  status: 'success';
  /** Card status read after the operation (Freeze, Normal...). */
  cardStatus: string;
}

export interface CardOperationStatus {
  stage: 'validating' | 'sending' | 'awaiting_operation' | 'completed' | 'failed' | 'cancelled';
  kind: CardOperationKind;
  merchantOrderNo?: string;
  operationStatus?: string;
  failure?: FailureSummary;
}

export const cardOperationStatusQuery = defineQuery<CardOperationStatus>('cardOperationStatus');

/**
 * Card statuses each operation starts from (sandbox and spec: Normal → Freezing → Freeze →
 * UnFreezing → Normal).
 */
export const CARD_OPERATION_FROM: Record<CardOperationKind, readonly string[]> = {
  freeze: ['Normal'],
  unfreeze: ['Freeze'],
  updatePin: ['Normal', 'Freeze'],
};

export function cardOperationInputIssues(
  kind: CardOperationKind,
  input: { cardNo?: string; clientRemark?: string; sealedPin?: string },
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (!(CARD_OPERATION_KINDS as readonly string[]).includes(kind))
    return [{ path: 'kind', message: `must be one of ${CARD_OPERATION_KINDS.join(', ')}` }];
  if (typeof input.cardNo !== 'string' || input.cardNo === '') issues.push({ path: 'cardNo', message: 'is required' });
  if (input.clientRemark !== undefined && input.clientRemark.length > CLIENT_REMARK.max) {
    issues.push({ path: 'clientRemark', message: `length must be at most ${CLIENT_REMARK.max} characters` });
  } else if (typeof input.clientRemark === 'string') {
    const rule = textCharacterIssue(input.clientRemark);
    if (rule) issues.push({ path: 'clientRemark', message: rule });
  }
  if (kind === 'updatePin') {
    if (typeof input.sealedPin !== 'string' || input.sealedPin === '')
      issues.push({ path: 'sealedPin', message: 'is required (the new PIN sealed with the merchant public key)' });
    else {
      const rule = sealedPinIssue(input.sealedPin);
      if (rule) issues.push({ path: 'sealedPin', message: rule });
    }
  }
  return issues;
}

/**
 * The rule a present `sealedPin` breaks (a PIN change's, an activation's), or undefined: digits
 * alone are a PIN sent in clear; a sealed one is RSA ciphertext in base64, a few hundred
 * characters, never controls or invisible ones.
 */
export function sealedPinIssue(sealedPin: string): string | undefined {
  if (/^\d{1,12}$/.test(sealedPin))
    return 'looks like a clear PIN; seal it with the merchant public key (encryptSensitive) first';
  return textRuleIssue(sealedPin, 1, TOKEN_TEXT_MAX);
}

/**
 * What a backend hands a standalone operation's start: the card and the caller's `requestRef` make
 * its key.
 */
export const CardOperationRequestSchema = z
  .object({
    cardNo: cardNoField,
    requestRef: businessRef,
    clientRemark: z.string().optional(),
    /** updatePin: the clear new PIN, sealed by the client. */
    pin: z.string().optional(),
    sealedPin: z.string().optional(),
    customerRef: businessRef.optional(),
    wait: WaitOverridesSchema,
  })
  .strict();

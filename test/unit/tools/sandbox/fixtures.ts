/** Shared inputs for the engine tests: catalog ids, cardholder requests, order numbers, files. */
import type { UploadedFile } from '../../../../tools/sandbox/contract';
import { b2bHolder as sampleB2b, b2cHolder as sampleB2c, requestFields } from '../../../fixtures/holders';
import type { Harness } from './harness';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';

export const TYPES = {
  /** Virtual Visa, B2B, needCardHolder, deposit 10..10000 at 1.5%, card fee 5, limit 5 cards. */
  b2bVirtual: CARD_TYPE_IDS.b2bVirtual,
  /** Virtual MasterCard, no cardholder, no initial deposit, card fee 2, deposit 2% + 0.5. */
  subscription: CARD_TYPE_IDS.subscription,
  /** Virtual Visa BUDGET_CARD, no cardholder, card fee 1. */
  budget: CARD_TYPE_IDS.budget,
  /** Physical MasterCard, B2C, deposit 50..5000 at 1.2% + 1, card fee 30, limit 1 card. */
  physicalB2C: CARD_TYPE_IDS.physicalB2C,
  /** Virtual Visa GIFT, no cardholder, deposit 25..500 at 3%. */
  gift: CARD_TYPE_IDS.gift,
  /** Virtual Visa, B2C, no initial deposit, card fee 10. */
  b2cVirtual: CARD_TYPE_IDS.b2cVirtual,
  /** Offline Discover bin. */
  offline: CARD_TYPE_IDS.offline,
} as const;

let counter = 0;
/** A fresh merchantOrderNo of 24 characters (fits both 20..40 and 15..65). */
export function orderNo(): string {
  counter += 1;
  return `T${String(counter).padStart(23, '0')}`;
}

/** merchantOrderNo that ends with the given magic suffix. */
export function magicOrderNo(suffix: '_FAIL' | '_STALL'): string {
  counter += 1;
  return `T${String(counter).padStart(18, '0')}${suffix}`;
}

/**
 * A subscription card (virtual, no holder, nothing deposited), still being made until the harness
 * settles.
 */
export function subscriptionCard(h: Harness): string {
  return h.call('createCard', { merchantOrderNo: orderNo(), cardTypeId: TYPES.subscription, amount: '0' }).cardNo;
}

export function b2bHolder(email: string, overrides: Record<string, unknown> = {}) {
  return {
    cardHolderModel: 'B2B' as const,
    merchantOrderNo: orderNo(),
    cardTypeId: TYPES.b2bVirtual,
    ...requestFields(sampleB2b(email)),
    ...overrides,
  };
}

export const PNG: UploadedFile = {
  filename: 'id.png',
  contentType: 'image/png',
  data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
};

export function upload(h: Harness): string {
  return h.call('uploadFile', { category: 'card', file: PNG }, PNG).fileId;
}

export function b2cHolder(h: Harness, email: string, overrides: Record<string, unknown> = {}) {
  const merchantOrderNo = orderNo();
  const idNumber = `P${email.length}${email.charCodeAt(0)}${counter++}`;
  const fileIds = [upload(h), upload(h), upload(h)];
  return {
    cardHolderModel: 'B2C' as const,
    merchantOrderNo,
    cardTypeId: TYPES.physicalB2C,
    ...requestFields(sampleB2c({ email, idNumber, fileIds })),
    ...overrides,
  };
}

/** Creates a B2B holder and runs its review to pass_audit; returns holderId. */
export async function approvedB2bHolder(h: Harness, email: string): Promise<string> {
  const holder = h.call('createCardholder', b2bHolder(email));
  await h.settle();
  return holder.holderId;
}

/**
 * Magic input values that choose an outcome, like a card network's test numbers
 * (documented in tools/sandbox/README.md). Without them everything succeeds after the delays.
 */
import { money } from '../../../provider/money';

export type Outcome = 'success' | 'fail' | 'stall';

/** Cents of an amount, as two digits ("10.13" -> "13"). */
function cents(amount: string | undefined): string {
  if (amount === undefined) return '';
  return money(amount).times(100).mod(100).abs().toFixed(0).padStart(2, '0');
}

/**
 * Card operations (create, deposit, Freeze, UnFreeze, update_pin, activation) and work orders:
 * a merchantOrderNo ending in `_FAIL` fails, one ending in `_STALL` stays `processing` until
 * the decideOperation / decideWorkOrder helper; an amount with cents .13 fails, .14 stalls.
 */
export function operationOutcome(merchantOrderNo: string | null | undefined, amount?: string): Outcome {
  const no = (merchantOrderNo ?? '').toUpperCase();
  const c = cents(amount);
  if (no.endsWith('_FAIL') || c === '13') return 'fail';
  if (no.endsWith('_STALL') || c === '14') return 'stall';
  return 'success';
}

export interface ReviewMagic {
  rejectAt: 'admin' | 'channel' | null;
  stall: boolean;
}

/**
 * Cardholder review, by the email's local part (before any `+tag`):
 * `reject.admin` -> rejected by the platform; `reject.channel` -> rejected by the bank;
 * `review.stall` -> waits at each stage for the decideCardholderReview helper.
 */
export function reviewMagic(email: string | undefined): ReviewMagic {
  const local = (email ?? '').split('@')[0]?.split('+')[0]?.toLowerCase() ?? '';
  return {
    rejectAt: local === 'reject.admin' ? 'admin' : local === 'reject.channel' ? 'channel' : null,
    stall: local === 'review.stall',
  };
}

/**
 * An identity document the review cannot read: an uploaded file whose bytes contain this text is
 * rejected by the platform (admin) review of any cardholder that names it, and the reject's
 * description names the field (`idFrontId: ...`), so a correction can replace that document.
 */
export const UNREADABLE_DOCUMENT = 'SANDBOX-UNREADABLE';

const UNREADABLE_BYTES = Buffer.from(UNREADABLE_DOCUMENT, 'latin1');

export function isUnreadableDocument(data: Uint8Array): boolean {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).includes(UNREADABLE_BYTES);
}

/**
 * The field rules of cardflow's own inputs (workflow inputs, client requests, CLI files), written
 * once: the client refuses what the workflow would, with the same message. Money is a decimal
 * string, never a JS number; a Long id is a digit string (docs/architecture.md, Conventions).
 */
import { z } from 'zod';
import { cmp } from '../provider/money';
import { AMOUNT_RE, DECIMAL_TEXT_MAX, LONG_ID_RE } from '../provider/rules';
import { BUSINESS_REF_MAX, BUSINESS_REF_RE } from './workflow-ids';

/** A Long id (accountId, cardTypeId, holderId) as a digit string. */
export const idDigits = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be an id of digits (a string)') })
  .regex(LONG_ID_RE, { message: 'must be an id of digits' });

/** An amount as a decimal string (`"10.50"`); a JS number is refused. */
export const amountString = z
  .string({
    error: (iss) =>
      iss.input === undefined ? 'is required' : 'must be a decimal string such as "10.50" (not a number)',
  })
  .max(DECIMAL_TEXT_MAX, { message: `must be at most ${DECIMAL_TEXT_MAX} characters` })
  .regex(AMOUNT_RE, { message: 'must be a decimal string such as "10.50"' });

/** An amount greater than zero (compared only once it is a decimal: zod runs every check). */
export const positiveAmount = amountString.refine(
  (v) => !AMOUNT_RE.test(v) || v.length > DECIMAL_TEXT_MAX || cmp(v, '0') > 0,
  {
    message: 'must be greater than 0',
  },
);

/** The card id the provider returns (`cardNo`, spec: Card); it becomes part of workflow ids. */
export const cardNoField = z
  .string({ error: 'is required' })
  .regex(/^[A-Za-z0-9]{1,64}$/, { message: 'must be a card number (letters and digits)' });

/**
 * A caller's business key (customerRef, transferRef, fundingRef, requestRef): it becomes part of a
 * workflow id, so the customerRef rule applies (letters, digits, `_`, `.`, `-`).
 */
export const businessRef = z
  .string({ error: 'is required' })
  .min(1, { message: 'is required' })
  .max(BUSINESS_REF_MAX, { message: `length must be 1 to ${BUSINESS_REF_MAX} characters` })
  .regex(BUSINESS_REF_RE, {
    message: 'must start with a letter or digit and contain only letters, digits, "_", "." and "-"',
  });

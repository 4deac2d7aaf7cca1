/**
 * Exact money arithmetic on decimal strings. Amounts never pass through a JS number.
 *
 * One Decimal constructor with enough precision for any BigDecimal the provider sends;
 * all rounding is explicit at the call site.
 */
import { Decimal } from 'decimal.js';

export const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -60, toExpPos: 60 });
export type Money = InstanceType<typeof Money>;

export type Amount = string;

export function money(value: Amount | Money): Money {
  return new Money(value);
}

export function add(...values: Amount[]): Amount {
  return values.reduce((sum, v) => sum.plus(v), new Money(0)).toFixed();
}

export function sub(a: Amount, b: Amount): Amount {
  return new Money(a).minus(b).toFixed();
}

export function cmp(a: Amount, b: Amount): -1 | 0 | 1 {
  return new Money(a).cmp(b) as -1 | 0 | 1;
}

export function isWithin(amount: Amount, min: Amount, max: Amount): boolean {
  return cmp(amount, min) >= 0 && cmp(amount, max) <= 0;
}

/** Number of digits after the decimal point of a decimal string ("10.50" -> 2). */
export function scale(amount: Amount): number {
  return new Money(amount).decimalPlaces();
}

/**
 * Deposit fee as the card type states it: `amount × rechargeFeeRate / 100 + rechargeFixedFee`
 * (rate 1 means 1%), rounded UP to `rechargeDigital` decimals so a fee is never under-collected.
 */
export function depositFee(amount: Amount, feeRate: Amount, fixedFee: Amount, digits: number): Amount {
  return new Money(amount)
    .times(feeRate)
    .dividedBy(100)
    .toDecimalPlaces(digits, Money.ROUND_UP)
    .plus(fixedFee)
    .toFixed(digits);
}

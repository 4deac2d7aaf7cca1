/**
 * Checks made in the workflow against the card type before anything is sent to the provider
 * (spec: Card type, Cardholders, Endpoints/create card and deposit). Each returns the broken
 * rules as {@link FieldIssue}s naming the field; an empty list means go.
 */
import type { CardType } from '../provider/schemas/card-type';
import { isRestrictedRegion, RESTRICTED_REGIONS, AMOUNT_RE } from '../provider/rules';
import { add, cmp, depositFee, isWithin, scale } from '../provider/money';
import type { CardholderData, FieldIssue } from './cardholder-data';

/** "+1" and "1" name the same mobile area code. */
function sameAreaCode(a: string, b: string): boolean {
  return a.replace(/^\+/, '') === b.replace(/^\+/, '');
}

function regionIssue(path: string, code: string, cardType: CardType): FieldIssue | undefined {
  if (isRestrictedRegion(code)) {
    return {
      path,
      message: `${RESTRICTED_REGIONS[code as keyof typeof RESTRICTED_REGIONS]} (${code}) is a restricted country/region`,
    };
  }
  if (!cardType.supportHolderRegin.includes(code)) {
    return { path, message: `${code} is not supported by card type ${cardType.cardTypeId} (supportHolderRegin)` };
  }
  return undefined;
}

export interface HolderEligibilityOptions {
  /** Cards this holder already has under the card type (0 for a new holder). */
  existingCards?: number;
  /** Cards the onboarding will create for the holder. */
  cardsRequested?: number;
}

/**
 * The card type accepts this cardholder: online, the shape matches metadata.cardHolderModel
 * (IDV goes with either), area code in supportHolderAreaCode, country and nationality in
 * supportHolderRegin and not restricted, and cardHolderMaxCardLimit leaves room.
 */
export function holderEligibilityIssues(
  cardType: CardType,
  holder: CardholderData,
  options: HolderEligibilityOptions = {},
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (cardType.status !== 'online')
    issues.push({ path: 'cardTypeId', message: `card type ${cardType.cardTypeId} is ${cardType.status}` });
  const model = cardType.metadata.cardHolderModel;
  if (holder.shape !== 'IDV' && holder.shape !== model) {
    issues.push({
      path: 'holder.shape',
      message: `card type ${cardType.cardTypeId} takes ${model} cardholders, not ${holder.shape}`,
    });
  }
  if (!cardType.supportHolderAreaCode.some((code) => sameAreaCode(code, holder.areaCode))) {
    issues.push({
      path: 'holder.areaCode',
      message: `${holder.areaCode} is not supported by card type ${cardType.cardTypeId} (supportHolderAreaCode)`,
    });
  }
  if (holder.shape !== 'IDV') {
    const country = regionIssue('holder.country', holder.country, cardType);
    if (country) issues.push(country);
  }
  if (holder.shape === 'B2C') {
    const nationality = regionIssue('holder.nationality', holder.nationality, cardType);
    if (nationality) issues.push(nationality);
  }
  const limit = cardType.metadata.cardHolderMaxCardLimit;
  const wanted = (options.existingCards ?? 0) + (options.cardsRequested ?? 1);
  if (cardType.needCardHolder && wanted > limit) {
    issues.push({
      path: 'cardTypeId',
      message: `card type ${cardType.cardTypeId} allows at most ${limit} card(s) per cardholder (cardHolderMaxCardLimit)`,
    });
  }
  return issues;
}

function amountFormatIssue(path: string, amount: string, digits: number): FieldIssue | undefined {
  if (typeof amount !== 'string' || !AMOUNT_RE.test(amount))
    return { path, message: 'must be a decimal string such as "10.50"' };
  if (scale(amount) > digits) return { path, message: `must have at most ${digits} decimals (rechargeDigital)` };
  return undefined;
}

/** What a card creation costs the charged account: card fee, initial deposit and its fee. */
export interface CardCreationPlan {
  /** `amount` sent to create card v2: the initial deposit, "0" when the card type takes none. */
  amount: string;
  /** Fee on the initial deposit (rechargeFeeRate, rechargeFixedFee, rechargeDigital). */
  depositFee: string;
  cardPrice: string;
  /** cardPrice + amount + depositFee: what the charged account must hold. */
  total: string;
  currency: string;
}

/**
 * The initial deposit of create card v2: required within depositAmountMin/MaxQuotaForActiveCard
 * when needDepositForActiveCard; "initial deposit not supported" otherwise (spec: Card type).
 */
export function planCardCreation(
  cardType: CardType,
  initialDeposit: string | undefined,
): { plan: CardCreationPlan } | { issues: FieldIssue[] } {
  const path = 'initialDeposit';
  if (cardType.status !== 'online')
    return { issues: [{ path: 'cardTypeId', message: `card type ${cardType.cardTypeId} is ${cardType.status}` }] };
  let amount = '0';
  let fee = '0';
  if (cardType.needDepositForActiveCard) {
    const min = cardType.depositAmountMinQuotaForActiveCard;
    const max = cardType.depositAmountMaxQuotaForActiveCard;
    if (initialDeposit === undefined)
      return { issues: [{ path, message: `is required by card type ${cardType.cardTypeId}: ${min} to ${max}` }] };
    const format = amountFormatIssue(path, initialDeposit, cardType.rechargeDigital);
    if (format) return { issues: [format] };
    if (!isWithin(initialDeposit, min, max)) {
      return {
        issues: [{ path, message: `must be between ${min} and ${max} (depositAmountMin/MaxQuotaForActiveCard)` }],
      };
    }
    amount = initialDeposit;
    fee = depositFee(amount, cardType.rechargeFeeRate, cardType.rechargeFixedFee, cardType.rechargeDigital);
  } else if (initialDeposit !== undefined && cmp(initialDeposit, '0') !== 0) {
    return {
      issues: [
        {
          path,
          message: `card type ${cardType.cardTypeId} takes no initial deposit at creation (needDepositForActiveCard=false); deposit after creation`,
        },
      ],
    };
  }
  return {
    plan: {
      amount,
      depositFee: fee,
      cardPrice: cardType.cardPrice,
      total: add(cardType.cardPrice, amount, fee),
      currency: cardType.rechargeCurrency,
    },
  };
}

/** A deposit to a card: amount, its exact fee, and what the paying account must hold. */
export interface DepositPlan {
  amount: string;
  fee: string;
  total: string;
  currency: string;
}

/**
 * A deposit within rechargeMin/MaxQuota, at most rechargeDigital decimals, with the fee
 * `amount × rechargeFeeRate / 100 + rechargeFixedFee` rounded up (provider/money.ts depositFee).
 */
export function planCardDeposit(cardType: CardType, amount: string): { plan: DepositPlan } | { issues: FieldIssue[] } {
  const path = 'amount';
  if (!cardType.enableDeposit)
    return {
      issues: [
        {
          path: 'cardTypeId',
          message: `card type ${cardType.cardTypeId} does not allow deposits (enableDeposit=false)`,
        },
      ],
    };
  const format = amountFormatIssue(path, amount, cardType.rechargeDigital);
  if (format) return { issues: [format] };
  if (!isWithin(amount, cardType.rechargeMinQuota, cardType.rechargeMaxQuota)) {
    return {
      issues: [
        {
          path,
          message: `must be between ${cardType.rechargeMinQuota} and ${cardType.rechargeMaxQuota} (rechargeMin/MaxQuota)`,
        },
      ],
    };
  }
  const fee = depositFee(amount, cardType.rechargeFeeRate, cardType.rechargeFixedFee, cardType.rechargeDigital);
  return { plan: { amount, fee, total: add(amount, fee), currency: cardType.rechargeCurrency } };
}

/** The account cannot pay `required`. */
export function affordabilityIssue(
  available: string,
  required: string,
  currency: string,
  path = 'amount',
): FieldIssue | undefined {
  return cmp(available, required) < 0
    ? { path, message: `needs ${required} ${currency} but the account has ${available} ${currency} available` }
    : undefined;
}

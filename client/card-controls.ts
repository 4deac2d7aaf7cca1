/**
 * A card's controls and its card type's bounds, read straight from the provider (spec: Card info;
 * Card types): what the card may spend per interval, the merchant categories it allows or blocks,
 * its no-PIN amount, and what its card type permits (deposit and recharge bounds, retained
 * balance, no-PIN range, spending-control settings). A read: no workflow, no Temporal action.
 */
import type { ProviderClient } from '../provider/client';
import type { z } from 'zod';
import type { CardSchema } from '../provider/schemas/card';
import type { CardType } from '../provider/schemas/card-type';
import { cardNoField } from '../domain/fields';
import { parseField } from './inputs';

type Card = z.output<typeof CardSchema>;

export type CardControlsProvider = Pick<ProviderClient, 'getCardInfo' | 'listCardTypes'>;

export interface CardControls {
  cardNo: string;
  status: Card['status'];
  spendingControls: NonNullable<Card['spendingControls']>;
  riskControls: { allowedMcc: string[]; blockedMcc: string[] };
  noPinPaymentAmount: string;
  /** The card type's bounds. */
  cardType: Pick<
    CardType,
    | 'cardTypeId'
    | 'type'
    | 'category'
    | 'depositAmountMinQuotaForActiveCard'
    | 'depositAmountMaxQuotaForActiveCard'
    | 'rechargeMinQuota'
    | 'rechargeMaxQuota'
    | 'balanceRetentionQuota'
    | 'metadata'
  >;
}

/** The card's controls and its card type's bounds. */
export async function getCardControls(
  provider: CardControlsProvider,
  cardNo: string,
  opts: { signal?: AbortSignal } = {},
): Promise<CardControls> {
  const valid = parseField(cardNoField, 'cardNo', cardNo);
  const call = opts.signal ? { signal: opts.signal } : {};
  const [card, types] = await Promise.all([
    provider.getCardInfo({ cardNo: valid, onlySimpleInfo: false }, call),
    provider.listCardTypes({}, call),
  ]);
  const type = types.find((t) => t.cardTypeId === card.cardTypeId);
  if (!type) throw new Error(`card ${valid}: its card type ${card.cardTypeId} is not among the provider's card types`);
  return {
    cardNo: card.cardNo,
    status: card.status,
    spendingControls: card.spendingControls ?? [],
    riskControls: {
      allowedMcc: card.riskControls?.allowedMcc ?? [],
      blockedMcc: card.riskControls?.blockedMcc ?? [],
    },
    noPinPaymentAmount: card.noPinPaymentAmount,
    cardType: {
      cardTypeId: type.cardTypeId,
      type: type.type,
      category: type.category,
      depositAmountMinQuotaForActiveCard: type.depositAmountMinQuotaForActiveCard,
      depositAmountMaxQuotaForActiveCard: type.depositAmountMaxQuotaForActiveCard,
      rechargeMinQuota: type.rechargeMinQuota,
      rechargeMaxQuota: type.rechargeMaxQuota,
      balanceRetentionQuota: type.balanceRetentionQuota,
      metadata: type.metadata,
    },
  };
}

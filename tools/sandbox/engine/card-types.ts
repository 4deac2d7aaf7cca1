/** Card types (spec, "Card type"; /card/v2/cardTypes). */
import type { CardTypeDef } from '../data/card-types';
import { notFound, type Ctx } from './context';
import { cardTypeWire } from './wire';

export function getCardType(ctx: Ctx, cardTypeId: string, field = 'cardTypeId'): CardTypeDef {
  const type = ctx.state.cardTypes.get(cardTypeId);
  if (!type) throw notFound(field, `card type ${cardTypeId} does not exist`);
  return type;
}

export function listCardTypes(ctx: Ctx): unknown {
  return [...ctx.state.cardTypes.values()].map(cardTypeWire);
}

import type { CardType } from '../../../provider/schemas/card-type';
import { b2bHolder as sampleB2b, b2cHolder as sampleB2c } from '../../fixtures/holders';
import { CARD_TYPE_IDS, CARD_TYPES } from '../../../tools/sandbox/data/card-types';

/**
 * A card type in program types: the sandbox's B2B virtual bin (tools/sandbox/data/card-types.ts),
 * open to three holder regions only, so the eligibility rules have regions and area codes to
 * refuse.
 */
export function cardType(overrides: Partial<CardType> = {}): CardType {
  const b2bVirtual = CARD_TYPES.find((t) => t.cardTypeId === CARD_TYPE_IDS.b2bVirtual)!;
  return {
    ...b2bVirtual,
    supportHolderRegin: ['US', 'GB', 'HK'],
    supportHolderAreaCode: ['+1', '+44', '+852'],
    ...overrides,
  };
}

/** The shared sample holders (test/fixtures/holders.ts), fixed values for the pure domain tests. */
export const b2bHolder = sampleB2b('ops@example.com');
export const b2cHolder = sampleB2c({ email: 'grace@example.com', idNumber: 'X1234567', fileIds: ['f1', 'f2', 'f3'] });

import type { CardType } from '../../../api/schemas/card-type';
import { b2bHolder as sampleB2b, b2cHolder as sampleB2c } from '../../fixtures/holders';
import { CARD_TYPE_IDS } from '../../../sandbox/data/card-types';

/** A card type in program types, shaped like the sandbox's B2B virtual bin. */
export function cardType(overrides: Partial<CardType> = {}): CardType {
  return {
    cardTypeId: CARD_TYPE_IDS.b2bVirtual,
    organization: 'Visa',
    country: 'US',
    mode: 'PREPAID_CARD',
    bankCardBin: '428852',
    type: 'Virtual',
    category: 'PURCHASE',
    cardName: 'Visa Business Virtual',
    cardDesc: 'test',
    cardPrice: '5',
    cardPriceCurrency: 'USD',
    support: [],
    risk: [],
    needCardHolder: true,
    supportHolderRegin: ['US', 'GB', 'HK'],
    supportHolderAreaCode: ['+1', '+44', '+852'],
    needDepositForActiveCard: true,
    depositAmountMinQuotaForActiveCard: '10',
    depositAmountMaxQuotaForActiveCard: '10000',
    fiatCurrency: 'USD',
    balanceRetentionQuota: '1',
    status: 'online',
    rechargeCurrency: 'USD',
    rechargeMinQuota: '10',
    rechargeMaxQuota: '50000',
    rechargeFeeRate: '1.5',
    rechargeFixedFee: '0',
    rechargeDigital: 2,
    enableActiveCard: true,
    enableDeposit: true,
    enableFreeze: true,
    enableUnFreeze: true,
    metadata: { cardHolderMaxCardLimit: 5, cardHolderModel: 'B2B', supportSettingMcc: true },
    ...overrides,
  };
}

/** The shared sample holders (test/fixtures/holders.ts), fixed values for the pure domain tests. */
export const b2bHolder = sampleB2b('ops@example.com');
export const b2cHolder = sampleB2c({ email: 'grace@example.com', idNumber: 'X1234567', fileIds: ['f1', 'f2', 'f3'] });

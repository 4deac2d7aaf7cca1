/**
 * The sandbox's card type catalog (spec, "Card type"). Program types: money as decimal
 * strings, ids as digit strings; `engine/wire.ts` turns them into the wire shape.
 *
 * Together the bins cover Virtual and Physical, PREPAID_CARD and BUDGET_CARD, B2B and B2C
 * cardholder models, needCardHolder and needDepositForActiveCard both ways, and one offline bin.
 */

export interface SpendingControl {
  interval: 'PER_TRANSACTION';
  amount: string;
  supportSetting: boolean;
}

export interface CardTypeDef {
  cardTypeId: string;
  organization: 'Visa' | 'MasterCard' | 'Discover';
  country: string;
  mode: 'PREPAID_CARD' | 'BUDGET_CARD';
  bankCardBin: string;
  type: 'Virtual' | 'Physical';
  category: 'GIFT' | 'PURCHASE' | 'SUBSCRIPTION' | 'PHYSICAL';
  cardName: string;
  cardDesc: string;
  cardPrice: string;
  cardPriceCurrency: string;
  support: string[];
  /** High-risk merchants (names or MCCs): spending there cancels the card (spec, Errors). */
  risk: string[];
  needCardHolder: boolean;
  supportHolderRegin: string[];
  supportHolderAreaCode: string[];
  needDepositForActiveCard: boolean;
  depositAmountMinQuotaForActiveCard: string;
  depositAmountMaxQuotaForActiveCard: string;
  fiatCurrency: string;
  balanceRetentionQuota: string;
  status: 'online' | 'offline';
  rechargeCurrency: string;
  rechargeMinQuota: string;
  rechargeMaxQuota: string;
  rechargeFeeRate: string;
  rechargeFixedFee: string;
  rechargeDigital: number;
  enableActiveCard: boolean;
  enableDeposit: boolean;
  enableFreeze: boolean;
  enableUnFreeze: boolean;
  metadata: {
    cardHolderMaxCardLimit: number;
    cardHolderModel: 'B2B' | 'B2C';
    supportSettingNoPinPaymentAmount?: boolean;
    defaultNoPinPaymentAmount?: string;
    noPinPaymentAmountMinQuota?: string;
    noPinPaymentAmountMaxQuota?: string;
    spendingControls?: SpendingControl[];
    supportSettingMcc: boolean;
  };
  /** Sandbox-only pricing of authorizations (not part of the wire record). */
  authFee: string;
  /** Cross-border fee rate, percent of the authorized amount (1 = 1%). Sandbox-only. */
  crossBorderFeeRate: string;
}

const WIDE_REGIONS = [
  'US',
  'GB',
  'HK',
  'SG',
  'DE',
  'FR',
  'JP',
  'CA',
  'AU',
  'NL',
  'ES',
  'IT',
  'CH',
  'AE',
  'KR',
  'TW',
  'MY',
  'TH',
  'PH',
  'ID',
  'VN',
  'BR',
  'MX',
  'NZ',
  'IE',
  'SE',
  'PT',
  'PL',
  'CN',
];
const WIDE_AREA_CODES = [
  '+1',
  '+44',
  '+852',
  '+65',
  '+49',
  '+33',
  '+81',
  '+61',
  '+31',
  '+34',
  '+39',
  '+41',
  '+971',
  '+82',
  '+886',
  '+60',
  '+66',
  '+63',
  '+62',
  '+84',
  '+55',
  '+52',
  '+64',
  '+353',
  '+46',
  '+351',
  '+48',
  '+86',
];
const COMMON_SUPPORT = [
  'Amazon',
  'Google Ads',
  'Facebook Ads',
  'Apple',
  'Netflix',
  'Spotify',
  'AWS',
  'Shopify',
  'Alibaba',
  'Microsoft',
];
/** Gambling, crypto exchanges, money transfer: typical issuer risk lists (by MCC and by name). */
const COMMON_RISK = ['7995', '6051', '4829', '6211', 'Binance', 'Stake.com', 'Bet365'];

const base = {
  cardPriceCurrency: 'USD',
  support: COMMON_SUPPORT,
  risk: COMMON_RISK,
  supportHolderRegin: WIDE_REGIONS,
  supportHolderAreaCode: WIDE_AREA_CODES,
  fiatCurrency: 'USD',
  rechargeCurrency: 'USD',
  enableActiveCard: true,
  enableDeposit: true,
  enableFreeze: true,
  enableUnFreeze: true,
  authFee: '0.20',
  crossBorderFeeRate: '1',
} as const;

/** The ids of the catalog's bins, by what each is for (tests and examples name them here, once). */
export const CARD_TYPE_IDS = {
  /**
   * Virtual Visa, B2B cardholder required, initial deposit 10..10000 at creation at 1.5%, card fee
   * 5.
   */
  b2bVirtual: '1852379830190366720',
  /**
   * Virtual MasterCard subscription: no cardholder, no initial deposit; deposits 5..10000 at 2% +
   * 0.5, card fee 2.
   */
  subscription: '1852379830190366721',
  /** Virtual Visa shared budget (BUDGET_CARD): no cardholder, no initial deposit, card fee 1. */
  budget: '1852379830190366722',
  /** Physical MasterCard, B2C cardholder, initial deposit 50..5000 at 1.2% + 1, card fee 30. */
  physicalB2C: '1852379830190366723',
  /** Virtual Visa gift card, no cardholder, deposit 25..500 at 3%. */
  gift: '1852379830190366724',
  /** Virtual Visa, B2C cardholder, no initial deposit, card fee 10. */
  b2cVirtual: '1852379830190366725',
  /** An offline Discover bin. */
  offline: '1852379830190366726',
} as const;

export const CARD_TYPES: readonly CardTypeDef[] = [
  {
    ...base,
    cardTypeId: CARD_TYPE_IDS.b2bVirtual,
    organization: 'Visa',
    country: 'US',
    mode: 'PREPAID_CARD',
    bankCardBin: '428852',
    type: 'Virtual',
    category: 'PURCHASE',
    cardName: 'Visa Business Virtual',
    cardDesc: 'US-issued Visa virtual card for online purchases and ad spend; cardholder required (B2B).',
    cardPrice: '5',
    needCardHolder: true,
    needDepositForActiveCard: true,
    depositAmountMinQuotaForActiveCard: '10',
    depositAmountMaxQuotaForActiveCard: '10000',
    balanceRetentionQuota: '1',
    status: 'online',
    rechargeMinQuota: '10',
    rechargeMaxQuota: '50000',
    rechargeFeeRate: '1.5',
    rechargeFixedFee: '0',
    rechargeDigital: 2,
    metadata: {
      cardHolderMaxCardLimit: 5,
      cardHolderModel: 'B2B',
      spendingControls: [{ interval: 'PER_TRANSACTION', amount: '5000', supportSetting: true }],
      supportSettingMcc: true,
    },
  },
  {
    ...base,
    cardTypeId: CARD_TYPE_IDS.subscription,
    organization: 'MasterCard',
    country: 'HK',
    mode: 'PREPAID_CARD',
    bankCardBin: '531993',
    type: 'Virtual',
    category: 'SUBSCRIPTION',
    cardName: 'MasterCard Subscription Virtual',
    cardDesc: 'Hong Kong-issued MasterCard for subscriptions; no cardholder, no initial deposit.',
    cardPrice: '2',
    needCardHolder: false,
    needDepositForActiveCard: false,
    depositAmountMinQuotaForActiveCard: '0',
    depositAmountMaxQuotaForActiveCard: '0',
    balanceRetentionQuota: '0',
    status: 'online',
    rechargeMinQuota: '5',
    rechargeMaxQuota: '10000',
    rechargeFeeRate: '2',
    rechargeFixedFee: '0.5',
    rechargeDigital: 2,
    metadata: { cardHolderMaxCardLimit: 0, cardHolderModel: 'B2B', supportSettingMcc: false },
  },
  {
    ...base,
    cardTypeId: CARD_TYPE_IDS.budget,
    organization: 'Visa',
    country: 'SG',
    mode: 'BUDGET_CARD',
    bankCardBin: '485932',
    type: 'Virtual',
    category: 'PURCHASE',
    cardName: 'Visa Shared Budget Virtual',
    cardDesc:
      'Singapore-issued Visa in shared card mode: payments come from a shared (MARGIN) account or the default wallet.',
    cardPrice: '1',
    needCardHolder: false,
    needDepositForActiveCard: false,
    depositAmountMinQuotaForActiveCard: '0',
    depositAmountMaxQuotaForActiveCard: '0',
    balanceRetentionQuota: '0',
    status: 'online',
    rechargeMinQuota: '1',
    rechargeMaxQuota: '100000',
    rechargeFeeRate: '1',
    rechargeFixedFee: '0',
    rechargeDigital: 2,
    metadata: {
      cardHolderMaxCardLimit: 0,
      cardHolderModel: 'B2B',
      spendingControls: [{ interval: 'PER_TRANSACTION', amount: '2000', supportSetting: true }],
      supportSettingMcc: true,
    },
  },
  {
    ...base,
    cardTypeId: CARD_TYPE_IDS.physicalB2C,
    organization: 'MasterCard',
    country: 'GB',
    mode: 'PREPAID_CARD',
    bankCardBin: '522981',
    type: 'Physical',
    category: 'PHYSICAL',
    cardName: 'MasterCard Debit Physical',
    cardDesc: 'UK-issued physical MasterCard for individuals (B2C); activate with the code sent to the holder.',
    cardPrice: '30',
    needCardHolder: true,
    needDepositForActiveCard: true,
    depositAmountMinQuotaForActiveCard: '50',
    depositAmountMaxQuotaForActiveCard: '5000',
    balanceRetentionQuota: '5',
    status: 'online',
    rechargeMinQuota: '20',
    rechargeMaxQuota: '20000',
    rechargeFeeRate: '1.2',
    rechargeFixedFee: '1',
    rechargeDigital: 2,
    supportHolderRegin: WIDE_REGIONS.filter((r) => r !== 'CN'),
    metadata: {
      cardHolderMaxCardLimit: 1,
      cardHolderModel: 'B2C',
      supportSettingNoPinPaymentAmount: true,
      defaultNoPinPaymentAmount: '500',
      noPinPaymentAmountMinQuota: '0',
      noPinPaymentAmountMaxQuota: '2000',
      spendingControls: [{ interval: 'PER_TRANSACTION', amount: '3000', supportSetting: false }],
      supportSettingMcc: false,
    },
  },
  {
    ...base,
    cardTypeId: CARD_TYPE_IDS.gift,
    organization: 'Visa',
    country: 'US',
    mode: 'PREPAID_CARD',
    bankCardBin: '441103',
    type: 'Virtual',
    category: 'GIFT',
    cardName: 'Visa Gift Virtual',
    cardDesc: 'US Visa gift card: redeemed through an activation link instead of card details.',
    cardPrice: '3',
    needCardHolder: false,
    needDepositForActiveCard: true,
    depositAmountMinQuotaForActiveCard: '25',
    depositAmountMaxQuotaForActiveCard: '500',
    balanceRetentionQuota: '0',
    status: 'online',
    rechargeMinQuota: '25',
    rechargeMaxQuota: '500',
    rechargeFeeRate: '3',
    rechargeFixedFee: '0',
    rechargeDigital: 2,
    metadata: { cardHolderMaxCardLimit: 0, cardHolderModel: 'B2C', supportSettingMcc: false },
  },
  {
    ...base,
    cardTypeId: CARD_TYPE_IDS.b2cVirtual,
    organization: 'Visa',
    country: 'HK',
    mode: 'PREPAID_CARD',
    bankCardBin: '49387519',
    type: 'Virtual',
    category: 'PURCHASE',
    cardName: 'Visa Platinum Virtual (B2C)',
    cardDesc: 'Hong Kong-issued Visa virtual card for verified individuals (B2C).',
    cardPrice: '10',
    needCardHolder: true,
    needDepositForActiveCard: false,
    depositAmountMinQuotaForActiveCard: '0',
    depositAmountMaxQuotaForActiveCard: '0',
    balanceRetentionQuota: '0',
    status: 'online',
    rechargeMinQuota: '10',
    rechargeMaxQuota: '20000',
    rechargeFeeRate: '1.8',
    rechargeFixedFee: '0.3',
    rechargeDigital: 2,
    metadata: {
      cardHolderMaxCardLimit: 3,
      cardHolderModel: 'B2C',
      spendingControls: [{ interval: 'PER_TRANSACTION', amount: '10000', supportSetting: true }],
      supportSettingMcc: true,
    },
  },
  {
    ...base,
    cardTypeId: CARD_TYPE_IDS.offline,
    organization: 'Discover',
    country: 'US',
    mode: 'PREPAID_CARD',
    bankCardBin: '601100',
    type: 'Virtual',
    category: 'PURCHASE',
    cardName: 'Discover Virtual (offline)',
    cardDesc: 'Discontinued bin: listed, but no new cards can be created.',
    cardPrice: '4',
    needCardHolder: false,
    needDepositForActiveCard: false,
    depositAmountMinQuotaForActiveCard: '0',
    depositAmountMaxQuotaForActiveCard: '0',
    balanceRetentionQuota: '0',
    status: 'offline',
    rechargeMinQuota: '10',
    rechargeMaxQuota: '5000',
    rechargeFeeRate: '2.5',
    rechargeFixedFee: '0',
    rechargeDigital: 2,
    metadata: { cardHolderMaxCardLimit: 0, cardHolderModel: 'B2B', supportSettingMcc: false },
  },
];

import { cardholderDataIssues } from '../../../domain/cardholder-data';
import {
  affordabilityIssue,
  holderEligibilityIssues,
  planCardCreation,
  planCardDeposit,
} from '../../../domain/eligibility';
import { b2bHolder, b2cHolder, cardType } from './fixtures';

describe('cardholder data', () => {
  it('accepts valid B2B and B2C data', () => {
    expect(cardholderDataIssues(b2bHolder)).toEqual([]);
    expect(cardholderDataIssues(b2cHolder)).toEqual([]);
  });

  it('names the field that breaks a rule', () => {
    expect(cardholderDataIssues({ ...b2bHolder, email: 'nope' }).map((i) => i.path)).toEqual(['holder.email']);
    expect(cardholderDataIssues({ ...b2bHolder, address: 'Flat #3' }).map((i) => i.path)).toEqual(['holder.address']);
    expect(cardholderDataIssues({ ...b2bHolder, country: 'IR' })[0]?.message).toMatch(/Iran.*restricted/);
    expect(cardholderDataIssues({ ...b2cHolder, nationality: 'HK', idType: 'DLN' }).map((i) => i.path)).toEqual([
      'holder.idType',
    ]);
    expect(
      cardholderDataIssues({ ...b2bHolder, firstName: 'A'.repeat(16), lastName: 'B'.repeat(16) }).map((i) => i.path),
    ).toEqual(['holder.lastName']);
  });
});

describe('holder eligibility against the card type', () => {
  it('passes a holder the card type supports', () => {
    expect(holderEligibilityIssues(cardType(), b2bHolder)).toEqual([]);
  });

  it('refuses a shape other than metadata.cardHolderModel, unsupported area code, region and card limit', () => {
    const paths = (issues: { path: string }[]) => issues.map((i) => i.path);
    expect(paths(holderEligibilityIssues(cardType(), b2cHolder))).toEqual(['holder.shape']);
    expect(paths(holderEligibilityIssues(cardType(), { ...b2bHolder, areaCode: '+7' }))).toEqual(['holder.areaCode']);
    expect(paths(holderEligibilityIssues(cardType(), { ...b2bHolder, country: 'FR' }))).toEqual(['holder.country']);
    expect(
      paths(holderEligibilityIssues(cardType({ supportHolderRegin: ['US', 'RU'] }), { ...b2bHolder, country: 'RU' })),
    ).toEqual(['holder.country']);
    const oneCard = cardType({
      metadata: { cardHolderMaxCardLimit: 1, cardHolderModel: 'B2B', supportSettingMcc: false },
    });
    expect(paths(holderEligibilityIssues(oneCard, b2bHolder, { existingCards: 1 }))).toEqual(['cardTypeId']);
    expect(paths(holderEligibilityIssues(cardType({ status: 'offline' }), b2bHolder))).toEqual(['cardTypeId']);
  });

  it('checks a B2C nationality too, and lets an area code match with or without "+"', () => {
    const b2c = cardType({ metadata: { cardHolderMaxCardLimit: 1, cardHolderModel: 'B2C', supportSettingMcc: false } });
    expect(holderEligibilityIssues(b2c, { ...b2cHolder, areaCode: '44' })).toEqual([]);
    expect(holderEligibilityIssues(b2c, { ...b2cHolder, nationality: 'DE' }).map((i) => i.path)).toEqual([
      'holder.nationality',
    ]);
  });
});

describe('card creation and deposit plans', () => {
  it('requires the initial deposit within depositAmountMin/MaxQuotaForActiveCard and adds its fee and the card price', () => {
    expect(planCardCreation(cardType(), '100')).toEqual({
      plan: { amount: '100', depositFee: '1.50', cardPrice: '5', total: '106.5', currency: 'USD' },
    });
    expect(planCardCreation(cardType(), undefined)).toMatchObject({ issues: [{ path: 'initialDeposit' }] });
    expect(planCardCreation(cardType(), '9.99')).toMatchObject({
      issues: [{ message: expect.stringMatching(/between 10 and 10000/) }],
    });
    expect(planCardCreation(cardType(), '10.001')).toMatchObject({
      issues: [{ message: expect.stringMatching(/at most 2 decimals/) }],
    });
  });

  it('sends 0 and refuses an initial deposit when the card type takes none', () => {
    const noDeposit = cardType({ needDepositForActiveCard: false, cardPrice: '2' });
    expect(planCardCreation(noDeposit, undefined)).toEqual({
      plan: { amount: '0', depositFee: '0', cardPrice: '2', total: '2', currency: 'USD' },
    });
    expect(planCardCreation(noDeposit, '50')).toMatchObject({ issues: [{ path: 'initialDeposit' }] });
  });

  it('computes the deposit fee exactly, rounding up to rechargeDigital', () => {
    const t = cardType({
      rechargeFeeRate: '2',
      rechargeFixedFee: '0.5',
      rechargeMinQuota: '5',
      rechargeMaxQuota: '10000',
    });
    expect(planCardDeposit(t, '100')).toEqual({
      plan: { amount: '100', fee: '2.50', total: '102.5', currency: 'USD' },
    });
    // 33.33 × 2% = 0.6666 → 0.67 (up), + 0.5
    expect(planCardDeposit(t, '33.33')).toEqual({
      plan: { amount: '33.33', fee: '1.17', total: '34.5', currency: 'USD' },
    });
    expect(planCardDeposit(t, '4.99')).toMatchObject({ issues: [{ path: 'amount' }] });
    expect(planCardDeposit(t, '10001')).toMatchObject({ issues: [{ path: 'amount' }] });
    expect(planCardDeposit(cardType({ enableDeposit: false }), '100')).toMatchObject({
      issues: [{ path: 'cardTypeId' }],
    });
  });

  it('flags an account that cannot pay amount plus fees', () => {
    expect(affordabilityIssue('102.49', '102.5', 'USD')).toMatchObject({ path: 'amount' });
    expect(affordabilityIssue('102.5', '102.5', 'USD')).toBeUndefined();
  });
});

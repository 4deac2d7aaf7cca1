/**
 * planOnboarding: where the first money goes and what the charged account must cover, per card type
 * and funding source.
 */
import type { OnboardingInput } from '../../../domain/customer-onboarding';
import { planOnboarding } from '../../../domain/onboarding-plan';
import { b2bHolder, b2cHolder, cardType } from './fixtures';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';

const withDeposit = cardType(); // B2B, initial deposit 10–10000 at creation, fee 1.5%, card fee 5
const noDeposit = cardType({
  needCardHolder: false,
  needDepositForActiveCard: false,
  cardPrice: '2',
  rechargeMinQuota: '5',
  rechargeFeeRate: '2',
  rechargeFixedFee: '0.5',
});
const physical = cardType({
  cardTypeId: CARD_TYPE_IDS.physicalB2C,
  type: 'Physical',
  bankCardBin: '522981',
  cardPrice: '30',
  rechargeFeeRate: '1.2',
  rechargeFixedFee: '1',
  depositAmountMinQuotaForActiveCard: '50',
  depositAmountMaxQuotaForActiveCard: '5000',
  metadata: { cardHolderMaxCardLimit: 1, cardHolderModel: 'B2C', supportSettingMcc: false },
});
const CARD_NUMBER = '5229810000000006';

function input(extra: Partial<OnboardingInput>): OnboardingInput {
  return { customerRef: 'c-1', cardTypeId: '1', ...extra };
}
function plan(i: OnboardingInput, type = withDeposit) {
  const result = planOnboarding(i, type);
  if ('issues' in result) throw new Error(JSON.stringify(result.issues));
  return result.plan;
}
function issues(i: OnboardingInput, type = withDeposit): string[] {
  const result = planOnboarding(i, type);
  return 'issues' in result ? result.issues.map((x) => x.path) : [];
}

it('merchant wallet: the card fee, deposit and fee at creation; nothing after', () => {
  const p = plan(input({ holder: b2bHolder, initialDeposit: '100' }));
  expect(p).toMatchObject({
    needsHolder: true,
    depositAtCreation: true,
    physical: false,
    funding: { source: 'merchant_wallet' },
    needed: '106.5',
  });
  expect(p.laterDeposit).toBeUndefined();
});

it('a card type without a deposit at creation deposits after it; the account covers both', () => {
  const p = plan(input({ initialDeposit: '100' }), noDeposit);
  expect(p.laterDeposit).toEqual({ amount: '100', fee: '2.50', total: '102.5', currency: 'USD' });
  expect(p.needed).toBe('104.5');
});

it('physical: the initial deposit goes with create card, the number is required and checked', () => {
  const p = plan(input({ holder: b2cHolder, cardNumber: CARD_NUMBER, initialDeposit: '50' }), physical);
  expect(p).toMatchObject({ physical: true, depositAtCreation: true, needed: '81.6' });
  expect(issues(input({ holder: b2cHolder, initialDeposit: '50' }), physical)).toEqual(['cardNumber']);
  expect(issues(input({ holder: b2cHolder, initialDeposit: '40', cardNumber: '5229810000000007' }), physical)).toEqual([
    'initialDeposit',
    'cardNumber',
  ]);
});

it('physical card type without a deposit at creation: the deposit is planned after creation (the workflow runs it after activation)', () => {
  const p = plan(input({ holder: b2cHolder, cardNumber: CARD_NUMBER, initialDeposit: '20' }), {
    ...physical,
    needDepositForActiveCard: false,
  });
  expect(p.laterDeposit?.amount).toBe('20');
});

it('shared_account: same plan, charged to the MARGIN account; budgetTopUp reads the same', () => {
  const viaFunding = plan(
    input({ initialDeposit: '100', funding: { source: 'shared_account', accountId: '2' } }),
    noDeposit,
  );
  const viaTopUp = plan(
    input({ initialDeposit: '100', budgetTopUp: { payerAccountId: '1', payeeAccountId: '2', amount: '104.5' } }),
    noDeposit,
  );
  expect(viaFunding.funding).toEqual({ source: 'shared_account', accountId: '2' });
  expect(viaTopUp.funding).toMatchObject({ source: 'shared_account', accountId: '2' });
  expect(viaFunding.needed).toBe(viaTopUp.needed);
});

it('on_chain: no later deposit from the merchant; initialDeposit only where the card type takes it at creation', () => {
  const onChain = { source: 'on_chain', coinKey: 'USDT_TRC20', expectedAmount: '120' } as const;
  const p = plan(input({ funding: onChain }), noDeposit);
  expect(p.laterDeposit).toBeUndefined();
  expect(p.needed).toBe('2');
  expect(issues(input({ funding: onChain, initialDeposit: '50' }), noDeposit)).toEqual(['initialDeposit']);
  expect(issues(input({ funding: { ...onChain, depositAmount: '1' } }), noDeposit)).toEqual(['funding.depositAmount']);
  expect(issues(input({ funding: onChain }), { ...noDeposit, enableDeposit: false })).toEqual(['funding.source']);
});

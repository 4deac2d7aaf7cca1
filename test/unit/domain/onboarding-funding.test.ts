/**
 * Funding sources of customerOnboarding: schema rules, budgetTopUp as shared_account, and the
 * shared-account transfer plan.
 */
import { OnboardingInputSchema } from '../../../domain/customer-onboarding';
import {
  fundingInputIssues,
  fundingOf,
  OnboardingFundingSchema,
  planSharedAccountTransfer,
} from '../../../domain/onboarding-funding';

function issuesOf(funding: unknown): string[] {
  const parsed = OnboardingFundingSchema.safeParse(funding);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('OnboardingFundingSchema', () => {
  it('accepts each source', () => {
    expect(issuesOf({ source: 'merchant_wallet' })).toEqual([]);
    expect(issuesOf({ source: 'shared_account', accountId: '19847563867367666', amount: '102' })).toEqual([]);
    expect(issuesOf({ source: 'on_chain', coinKey: 'USDT_TRC20', expectedAmount: '120.00' })).toEqual([]);
    expect(issuesOf({ source: 'on_chain', coinKey: 'USDT_TRC20', txHash: '0xabc' })).toEqual([]);
  });

  it('names the field and the rule', () => {
    expect(issuesOf({ source: 'bank' })).toEqual(['source: must be merchant_wallet, shared_account or on_chain']);
    expect(issuesOf({ source: 'shared_account' })).toEqual(['accountId: is required']);
    expect(issuesOf({ source: 'shared_account', accountId: 'acc-1', amount: '0' })).toEqual([
      'accountId: must be an id of digits',
      'amount: must be greater than 0',
    ]);
    expect(issuesOf({ source: 'shared_account', accountId: '7', payerAccountId: '7' })).toEqual([
      'payerAccountId: must differ from accountId (the MARGIN account paid)',
    ]);
    expect(issuesOf({ source: 'on_chain', coinKey: 'USDT_TRC20', expectedAmount: 120 })).toEqual([
      'expectedAmount: must be a decimal string such as "10.50" (not a number)',
    ]);
    expect(issuesOf({ source: 'on_chain', coinKey: 'USDT_TRC20' })).toEqual([
      expect.stringMatching(/^expectedAmount: is required unless txHash is given/),
    ]);
  });

  it('refuses fields of another source (strict objects)', () => {
    expect(issuesOf({ source: 'merchant_wallet', coinKey: 'USDT_TRC20' })[0]).toMatch(/coinKey/);
  });

  it('is the rule of the onboarding input field `funding`', () => {
    const parsed = OnboardingInputSchema.safeParse({
      customerRef: 'c-1',
      cardTypeId: '1',
      funding: { source: 'on_chain', coinKey: 'USDT TRC20', expectedAmount: '5' },
    });
    expect(parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'funding.coinKey: must be a coinKey such as USDT_TRC20',
    ]);
  });
});

describe('fundingOf / fundingInputIssues', () => {
  it('defaults to the merchant wallet and reads budgetTopUp as shared_account funding (one mechanism)', () => {
    expect(fundingOf({})).toEqual({ source: 'merchant_wallet' });
    expect(fundingOf({ budgetTopUp: { payerAccountId: '1', payeeAccountId: '2', amount: '30' } })).toEqual({
      source: 'shared_account',
      accountId: '2',
      payerAccountId: '1',
      amount: '30',
    });
  });

  it('refuses contradicting fields', () => {
    const funding = { source: 'shared_account', accountId: '2' } as const;
    expect(
      fundingInputIssues({ funding, budgetTopUp: { payerAccountId: '1', payeeAccountId: '2', amount: '3' } }).map(
        (i) => i.path,
      ),
    ).toEqual(['budgetTopUp']);
    expect(fundingInputIssues({ funding, accountId: '9' })).toEqual([
      { path: 'accountId', message: expect.stringContaining('equal funding.accountId') },
    ]);
    expect(fundingInputIssues({ funding, accountId: '2' })).toEqual([]);
    expect(
      fundingInputIssues({
        funding: { source: 'on_chain', coinKey: 'USDT_TRC20', expectedAmount: '1' },
        accountId: '9',
      }).map((i) => i.path),
    ).toEqual(['accountId']);
  });
});

describe('planSharedAccountTransfer', () => {
  const wallet = { accountId: '1', accountType: 'WALLET', currency: 'USD', availableBalance: '500.00' };
  const margin = { accountId: '2', accountType: 'MARGIN', currency: 'USD', availableBalance: '0.00' };

  it('moves exactly what the card needs by default', () => {
    expect(planSharedAccountTransfer({ source: 'shared_account', accountId: '2' }, '102.00', wallet, margin)).toEqual({
      amount: '102.00',
      issues: [],
      shortfalls: [],
    });
  });

  it('accepts a smaller amount when the MARGIN account already holds the rest', () => {
    expect(
      planSharedAccountTransfer({ source: 'shared_account', accountId: '2', amount: '50' }, '102', wallet, {
        ...margin,
        availableBalance: '52',
      }).shortfalls,
    ).toEqual([]);
  });

  it('reports to the cent what is missing on either side', () => {
    const plan = planSharedAccountTransfer(
      { source: 'shared_account', accountId: '2', amount: '600' },
      '700.01',
      wallet,
      margin,
    );
    expect(plan.shortfalls.map((s) => s.message)).toEqual([
      'needs 600 USD but account 1 has 500.00 USD available',
      '600 leaves account 2 100.01 USD short of the 700.01 the card needs',
    ]);
  });

  it('refuses a payee that is not MARGIN, a payer that is not WALLET, and mixed currencies', () => {
    const plan = planSharedAccountTransfer(
      { source: 'shared_account', accountId: '1', payerAccountId: '2' },
      '10',
      { ...margin, currency: 'EUR' },
      { ...wallet },
    );
    expect(plan.issues.map((i) => i.path)).toEqual([
      'funding.accountId',
      'funding.payerAccountId',
      'funding.accountId',
    ]);
  });
});

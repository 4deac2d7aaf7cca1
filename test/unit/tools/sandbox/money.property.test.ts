/**
 * Money invariant: whatever sequence of operations runs, the sum of all balances
 * (accounts and cards) plus fees collected minus money from outside stays exactly constant.
 * Refused requests are part of the sequence: they must not move money either.
 */
import fc from 'fast-check';
import { add, sub } from '../../../../provider/money';
import { SandboxError } from '../../../../tools/sandbox/contract';
import { createHarness, type Harness } from './harness';
import { orderNo, TYPES } from './fixtures';

const cents = (max: number) => fc.integer({ min: 1, max: max * 100 }).map((n) => (n / 100).toFixed(2));

const between = (min: number, max: number) =>
  fc.integer({ min: min * 100, max: max * 100 }).map((n) => (n / 100).toFixed(2));

/**
 * Weighted so that cards get created, funded and spent often enough to reach fees, overdrafts and
 * refunds.
 */
const command = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      type: fc.constantFrom(TYPES.subscription, TYPES.budget, TYPES.gift),
      amount: between(20, 520),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('deposit' as const), card: fc.nat(), amount: between(1, 600) }),
    weight: 4,
  },
  fc.record({ kind: fc.constant('freeze' as const), card: fc.nat() }),
  fc.record({ kind: fc.constant('unfreeze' as const), card: fc.nat() }),
  {
    arbitrary: fc.record({
      kind: fc.constant('auth' as const),
      card: fc.nat(),
      amount: cents(120),
      settle: fc.boolean(),
      foreign: fc.boolean(),
      extra: fc.constantFrom('0', '0.50', '300'),
    }),
    weight: 6,
  },
  fc.record({ kind: fc.constant('void' as const), auth: fc.nat() }),
  fc.record({ kind: fc.constant('refund' as const), auth: fc.nat(), amount: cents(100) }),
  fc.record({ kind: fc.constant('fee' as const), card: fc.nat(), amount: cents(50) }),
  fc.record({ kind: fc.constant('risk' as const), card: fc.nat() }),
  fc.record({ kind: fc.constant('cancel' as const), card: fc.nat() }),
  fc.record({ kind: fc.constant('withdraw' as const), card: fc.nat(), amount: cents(200) }),
  fc.record({ kind: fc.constant('transfer' as const), collect: fc.boolean(), amount: cents(5000) }),
  fc.record({ kind: fc.constant('chain' as const), amount: cents(2000) }),
  fc.record({ kind: fc.constant('chainOut' as const), amount: cents(2000), fail: fc.boolean() }),
  fc.record({ kind: fc.constant('credit' as const), amount: cents(1000) }),
  {
    arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(0, 100, 1000, 10_000) }),
    weight: 4,
  },
);
type Command = typeof command extends fc.Arbitrary<infer T> ? T : never;

function invariant(h: Harness): string {
  const s = h.engine.moneySnapshot();
  return sub(add(s.totalBalances, s.feesCollected), s.externalCredits);
}

async function run(
  h: Harness,
  c: Command,
  cards: string[],
  auths: string[],
  margin: string,
  walletId: string,
): Promise<void> {
  const pick = <T>(list: T[], i: number) => (list.length ? list[i % list.length] : undefined);
  switch (c.kind) {
    case 'create': {
      const amount = c.type === TYPES.gift ? c.amount : '0';
      const card = h.call('createCard', {
        merchantOrderNo: orderNo(),
        cardTypeId: c.type,
        amount,
        ...(c.type === TYPES.budget ? { accountId: margin } : {}),
      });
      cards.push(card.cardNo);
      return;
    }
    case 'deposit': {
      const cardNo = pick(cards, c.card);
      if (cardNo) h.call('depositCard', { cardNo, merchantOrderNo: orderNo(), amount: c.amount });
      return;
    }
    case 'freeze':
    case 'unfreeze': {
      const cardNo = pick(cards, c.card);
      if (cardNo) h.call(c.kind === 'freeze' ? 'freezeCard' : 'unfreezeCard', { cardNo, merchantOrderNo: orderNo() });
      return;
    }
    case 'auth': {
      const cardNo = pick(cards, c.card);
      if (!cardNo) return;
      const settleAmount = add(c.amount, c.extra);
      const a = await h.helper('authorizeCard', {
        cardNo,
        type: 'auth',
        amount: c.amount,
        settle: c.settle,
        settleAmount,
        merchantCountry: c.foreign ? 'FR' : undefined,
      });
      auths.push(String(a.tradeNo));
      return;
    }
    case 'void':
    case 'refund': {
      const tradeNo = pick(auths, c.auth);
      if (!tradeNo) return;
      const origin = h.call('listCardAuthTransactions', { tradeNo, pageNum: 1, pageSize: 1 }).records[0]!;
      await h.helper('authorizeCard', {
        cardNo: origin.cardNo,
        type: c.kind === 'void' ? 'Void' : 'refund',
        originTradeNo: tradeNo,
        amount: c.kind === 'refund' ? c.amount : undefined,
      });
      return;
    }
    case 'fee':
    case 'risk': {
      const cardNo = pick(cards, c.card);
      if (!cardNo) return;
      if (c.kind === 'fee') await h.helper('authorizeCard', { cardNo, type: 'maintain_fee', amount: c.amount });
      else await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '1', merchantName: 'Binance' });
      return;
    }
    case 'cancel': {
      const cardNo = pick(cards, c.card);
      if (cardNo) await h.helper('cancelCard', { cardNo });
      return;
    }
    case 'withdraw': {
      const cardNo = pick(cards, c.card);
      if (cardNo) await h.helper('withdrawCard', { cardNo, amount: c.amount });
      return;
    }
    case 'transfer':
      h.call('transferFunds', {
        type: c.collect ? 'COLLECTION' : 'TRANSFER',
        merchantOrderNo: orderNo(),
        amount: c.amount,
        payerAccountId: c.collect ? margin : walletId,
        payeeAccountId: c.collect ? walletId : margin,
      });
      return;
    case 'chain':
      await h.helper('creditWalletDeposit', { amount: c.amount });
      return;
    case 'chainOut':
      await h.helper('withdrawWallet', {
        amount: c.amount,
        toAddress: 'TExternalAddress',
        outcome: c.fail ? 'fail' : 'success',
      });
      return;
    case 'credit':
      await h.helper('creditMerchantWallet', { amount: c.amount });
      return;
    case 'advance':
      await h.clock.advance(c.ms);
      return;
  }
}

describe('money invariant', () => {
  it('holds exactly after every step of any sequence of operations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 1000 }),
        async (commands, seed) => {
          const h = createHarness({ cardOperationMs: 100, blockConfirmationMs: 10 }, seed);
          const walletId = h.call('getAccountInfo', {})[0]!.accountId;
          const margin = h.call('createSharedAccount', { accountName: 'shared' }).accountId;
          const cards: string[] = [];
          const auths: string[] = [];
          expect(invariant(h)).toBe('0');
          for (const c of commands) {
            try {
              await run(h, c, cards, auths, margin, walletId);
            } catch (e) {
              if (!(e instanceof SandboxError)) throw e;
            }
            expect(invariant(h)).toBe('0');
          }
          await h.clock.advance(3_600_000);
          expect(invariant(h)).toBe('0');
          expect(await h.helper('engineErrors')).toEqual({ errors: [] });
        },
      ),
      { numRuns: 100 },
    );
  });
});

/**
 * Test helpers, exposed by the shell at `POST /sandbox/<name>` (documented in
 * tools/sandbox/README.md). Each validates its JSON body with zod (amounts as decimal strings or
 * JSON numbers, ids as strings or numbers) and returns JSON-able data; a bad body is refused with
 * 40002 naming the field. advanceClock returns a Promise: the shell must await helper results.
 */
import { z } from 'zod';
import { isLosslessNumber } from '../../../provider/json';
import { cmp, scale } from '../../../provider/money';
import { paramError, type Ctx } from './context';
import { authorize, issueActivationCode, issueThreeDs, settleByTradeNo } from './authorizations';
import { decideReview } from './cardholders';
import { blockCard, CANCEL_RETURN_PATHS, cancelCard, unblockCard, withdrawCard } from './card-operations';
import { getCard } from './cards';
import { credit, externalFlow, getAccount, moneySnapshot, walletAccount } from './ledger';
import { decideOperation } from './opflow';
import { registerOrder, requireNewOrder } from './orders';
import { creditWalletDeposit, withdrawWallet } from './wallet';
import { decideWorkOrder } from './work-orders';
import { listUploadedFiles } from './files';
import { operationWire } from './wire';
import { DECIMAL_RE, LONG_ID_RE, OPERATION_FINAL_STATUSES } from '../../../provider/rules';

/** Text of a string, number or LosslessNumber (helper bodies may come through lossless JSON). */
const textish = z
  .union([z.string(), z.number(), z.bigint(), z.custom<{ value: string }>((v) => isLosslessNumber(v))])
  .transform((v) => (typeof v === 'object' ? v.value : String(v)));
const amount = textish.refine((s) => DECIMAL_RE.test(s), {
  message: 'must be a decimal amount such as "10.50"',
});
const positive = amount.refine((s) => cmp(s, '0') > 0, { message: 'must be greater than 0' });
const id = textish.refine((s) => LONG_ID_RE.test(s), { message: 'must be an integer id' });
const str = z.string().min(1);

function parse<T extends z.ZodType>(schema: T, body: Record<string, unknown>): z.output<T> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw paramError(issue.path.join('.') || 'body', issue.message);
  }
  return result.data;
}

export type Helper = (body: Record<string, unknown>) => unknown;

/**
 * A decision on one order, named by the provider's orderNo or the merchant's merchantOrderNo
 * (exactly one).
 */
const decision = z
  .object({
    orderNo: str.optional(),
    merchantOrderNo: str.optional(),
    outcome: z.enum(OPERATION_FINAL_STATUSES),
    description: z.string().optional(),
  })
  .refine((b) => (b.orderNo === undefined) !== (b.merchantOrderNo === undefined), {
    path: ['orderNo'],
    message: 'give the orderNo or the merchantOrderNo of the order (exactly one)',
  });

/** The number the engine finds the order by: it matches either an orderNo or a merchantOrderNo. */
const orderOf = (b: z.output<typeof decision>): string => (b.orderNo ?? b.merchantOrderNo)!;

// eslint-disable-next-line max-lines-per-function -- a table: one short entry per sandbox helper
export function createHelpers(ctx: Ctx): Record<string, Helper> {
  return {
    /** { ms }: moves a manual clock forward, running everything due (a real clock ignores it). */
    advanceClock: async (body) => {
      const { ms } = parse(z.object({ ms: z.number().int().min(0) }), body);
      await ctx.deps.clock.advance(ms);
      await ctx.deps.clock.settle();
      return { now: ctx.now() };
    },
    /** { holderId, outcome: pass|reject, description? }: decides the review's current stage now. */
    decideCardholderReview: (body) => {
      const b = parse(
        z.object({ holderId: id, outcome: z.enum(['pass', 'reject']), description: z.string().optional() }),
        body,
      );
      return decideReview(ctx, b.holderId, b.outcome, b.description);
    },
    /**
     * { orderNo or merchantOrderNo, outcome: success|fail, description? }: finishes a
     * pending/stalled card operation.
     */
    decideOperation: (body) => {
      const b = parse(decision, body);
      return operationWire(decideOperation(ctx, orderOf(b), b.outcome, b.description));
    },
    /** { orderNo or merchantOrderNo, outcome: success|fail, description? }. */
    decideWorkOrder: (body) => {
      const b = parse(decision, body);
      return decideWorkOrder(ctx, orderOf(b), b.outcome, b.description);
    },
    /**
     * {}: every uploaded file's metadata (fileId, filename, sha256, ...) and the holders whose
     * fields name it.
     */
    uploadedFiles: () => ({ files: listUploadedFiles(ctx) }),
    /**
     * { cardNo, type: auth|refund|verification|Void|maintain_fee, amount?, currency?,
     * merchantName?, mcc?, merchantCountry?, originTradeNo?, settle? (default true), settleAmount?
     * }.
     */
    authorizeCard: (body) => {
      const b = parse(
        z.object({
          cardNo: str,
          type: z.enum(['auth', 'refund', 'verification', 'Void', 'maintain_fee']),
          amount: positive.optional(),
          currency: z.string().optional(),
          merchantName: z.string().optional(),
          mcc: z.string().optional(),
          merchantCountry: z.string().optional(),
          originTradeNo: z.string().optional(),
          settle: z.boolean().optional(),
          settleAmount: positive.optional(),
        }),
        body,
      );
      return authorize(ctx, b);
    },
    /** { tradeNo, settleAmount? }: settles an authorized auth now. */
    settleAuthorization: (body) => {
      const b = parse(z.object({ tradeNo: str, settleAmount: positive.optional() }), body);
      return settleByTradeNo(ctx, b.tradeNo, b.settleAmount);
    },
    /**
     * { cardNo }: issues the activation code of a physical card (an activation_code record);
     * returns it in clear.
     */
    issueActivationCode: (body) => issueActivationCode(ctx, parse(z.object({ cardNo: str }), body).cardNo),
    /**
     * { cardNo, type: third_3ds_otp|auth_url, amount?, merchantName? }: a 3DS record; returns the
     * value in clear.
     */
    issue3ds: (body) =>
      issueThreeDs(
        ctx,
        parse(
          z.object({
            cardNo: str,
            type: z.enum(['third_3ds_otp', 'auth_url']),
            amount: amount.optional(),
            merchantName: z.string().optional(),
          }),
          body,
        ),
      ),
    /**
     * { amount, address? | coinKey? (default USDT_TRC20), sourceAddress?, txHash?, outcome?:
     * success|fail }: an on-chain deposit.
     */
    creditWalletDeposit: (body) =>
      creditWalletDeposit(
        ctx,
        parse(
          z.object({
            amount: positive,
            address: z.string().optional(),
            coinKey: z.string().optional(),
            sourceAddress: z.string().optional(),
            txHash: z.string().optional(),
            outcome: z.enum(OPERATION_FINAL_STATUSES).optional(),
          }),
          body,
        ),
      ),
    /**
     * { amount, toAddress, coinKey? (default USDT_TRC20), outcome? }: a WITHDRAW from the wallet to
     * an outside address.
     */
    withdrawWallet: (body) =>
      withdrawWallet(
        ctx,
        parse(
          z.object({
            amount: positive,
            toAddress: str,
            coinKey: z.string().optional(),
            outcome: z.enum(OPERATION_FINAL_STATUSES).optional(),
          }),
          body,
        ),
      ),
    /**
     * { amount, accountId? (default: the WALLET account), remark? }: money from outside (ledger
     * bizType fixed).
     */
    creditMerchantWallet: (body) => {
      const b = parse(z.object({ amount: positive, accountId: id.optional(), remark: z.string().optional() }), body);
      const account = b.accountId === undefined ? walletAccount(ctx) : getAccount(ctx, b.accountId);
      if (scale(b.amount) > account.digital)
        throw paramError('amount', `must have at most ${account.digital} decimals`);
      credit(ctx, account, {
        amount: b.amount,
        bizType: 'fixed',
        orderNo: ctx.ids.orderNo(),
        remark: b.remark ?? 'sandbox credit',
      });
      externalFlow(ctx, b.amount);
      return {
        accountId: account.accountId,
        totalBalance: account.totalBalance,
        availableBalance: account.availableBalance,
      };
    },
    /**
     * { cardNo, merchantOrderNo?, reason?, returnBy? }: cancels a card (record type cancel); its
     * balance leaves by `returnBy` (card-operations.ts `CANCEL_RETURN_PATHS`, default `cancel`).
     */
    cancelCard: (body) => {
      const b = parse(
        z.object({
          cardNo: str,
          merchantOrderNo: z.string().optional(),
          reason: z.string().optional(),
          returnBy: z.enum(CANCEL_RETURN_PATHS).optional(),
        }),
        body,
      );
      return cancelCard(ctx, b.cardNo, b.merchantOrderNo ?? null, b.reason, b.returnBy);
    },
    /**
     * { cardNo, amount, merchantOrderNo? }: withdraws from a card to its account (record type
     * withdraw).
     */
    withdrawCard: (body) => {
      const b = parse(z.object({ cardNo: str, amount: positive, merchantOrderNo: z.string().optional() }), body);
      return withdrawCard(ctx, b.cardNo, b.amount, b.merchantOrderNo ?? null);
    },
    /** { cardNo, reason? }: bank-initiated block (record type blocked). */
    blockCard: (body) => {
      const b = parse(z.object({ cardNo: str, reason: z.string().optional() }), body);
      return blockCard(ctx, b.cardNo, b.reason);
    },
    /** { cardNo }: lifts a block at once (same as a successful OTHER work order on the card). */
    unblockCard: (body) => {
      const card = getCard(ctx, parse(z.object({ cardNo: str }), body).cardNo);
      unblockCard(ctx, card);
      return { cardNo: card.cardNo, status: card.status, blocked: card.blocked };
    },
    /**
     * { merchantOrderNo }: reserves a merchantOrderNo as if an operation had used it (for duplicate
     * tests).
     */
    reserveMerchantOrderNo: (body) => {
      const b = parse(z.object({ merchantOrderNo: str }), body);
      requireNewOrder(ctx, b.merchantOrderNo);
      registerOrder(ctx, b.merchantOrderNo, 'reserved', b.merchantOrderNo);
      return { merchantOrderNo: b.merchantOrderNo };
    },
    /** {}: messages of scheduled steps that failed (a sandbox bug if not empty). */
    engineErrors: () => ({ errors: [...ctx.state.taskErrors] }),
    /** {}: the money invariant's terms. */
    moneySnapshot: () => moneySnapshot(ctx),
  };
}

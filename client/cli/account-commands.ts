/**
 * Reads a backend answers from, straight from the provider (client/account-reads.ts,
 * client/card-controls.ts): `accounts` (balances), `ledger` (entries since a time, across the
 * provider's 30-day slices), `cardholder` (by id) and `card-controls`. No workflow is started.
 */
import { createProviderClient, type ProviderClient } from '../../provider/client';
import { providerConfig } from '../../provider/config';
import { stringifyJson } from '../../provider/json';
import { LEDGER_BIZ_TYPES } from '../../provider/rules';
import type { LedgerEntry } from '../../provider/schemas/account';
import { accountLedger, findCardholders, listAccounts } from '../account-reads';
import { getCardControls } from '../card-controls';
import { type CliContext, type Command, ExitCodes, printResult, UsageError } from './context';
import { parseSince } from './reconcile-commands';

async function withProvider(ctx: CliContext, run: (provider: ProviderClient) => Promise<number>): Promise<number> {
  const provider = createProviderClient(providerConfig(ctx.config));
  try {
    return await run(provider);
  } finally {
    await provider.close();
  }
}

/** Each record on its own line: JSON (ids exact) with --json, else `text` of it. */
async function printEach<T>(ctx: CliContext, records: AsyncIterable<T>, text: (r: T) => string): Promise<number> {
  for await (const record of records) ctx.io.out(ctx.values.json ? stringifyJson(record) : text(record));
  return ExitCodes.done;
}

export const ACCOUNT_COMMANDS: Command[] = [
  {
    name: 'accounts',
    usage: ['accounts [--json]'],
    summary: "the merchant's accounts and their balances, from the provider (no workflow)",
    options: ['json'],
    run: (ctx) =>
      withProvider(ctx, (provider) =>
        printEach(
          ctx,
          listAccounts(provider),
          (a) =>
            `${a.accountId}  ${a.accountType}  ${a.accountName}  total ${a.totalBalance} available ${a.availableBalance} ${a.currency}`,
        ),
      ),
  },
  {
    name: 'ledger',
    usage: ['ledger --since <time> [--account <accountId>] [--type <bizType>] [--json]'],
    summary: 'ledger entries since a time (ISO, or 2h, 30d), every page, across 30-day slices (no workflow)',
    options: ['since', 'account', 'type', 'json'],
    run: (ctx) => {
      if (!ctx.values.since) throw new UsageError('ledger needs --since <time> (ISO, or a duration back: 2h, 30d)');
      const bizType = ctx.values.type;
      if (bizType !== undefined && !(LEDGER_BIZ_TYPES as readonly string[]).includes(bizType))
        throw new UsageError(`--type must be a ledger bizType: ${LEDGER_BIZ_TYPES.join(', ')}`);
      const startTime = parseSince(ctx.values.since, Date.now());
      return withProvider(ctx, (provider) =>
        printEach(
          ctx,
          accountLedger(provider, {
            startTime,
            ...(ctx.values.account ? { accountId: ctx.values.account } : {}),
            ...(bizType ? { bizType: bizType as LedgerEntry['bizType'] } : {}),
          }),
          (e) =>
            `${new Date(e.createTime).toISOString()}  ${e.bizType}  ${e.direction}  ${e.amount} ${e.currency ?? ''}  ${e.orderNo}`,
        ),
      );
    },
  },
  {
    name: 'cardholder',
    usage: ['cardholder <holderId> [--json]'],
    summary: 'a cardholder as the provider holds it (no workflow)',
    options: ['json'],
    run: (ctx, [holderId]) => {
      if (!holderId) throw new UsageError('cardholder needs a <holderId>');
      return withProvider(ctx, (provider) =>
        printEach(ctx, findCardholders(provider, { holderId }), (hd) => `${hd.holderId}  ${hd.status}`),
      );
    },
  },
  {
    name: 'card-controls',
    usage: ['card-controls <cardNo> [--json]'],
    summary: "a card's spending and risk controls and no-PIN amount, with its card type's bounds (no workflow)",
    options: ['json'],
    run: (ctx, [cardNo]) => {
      if (!cardNo) throw new UsageError('card-controls needs a <cardNo>');
      return withProvider(ctx, async (provider) => {
        const controls = await getCardControls(provider, cardNo);
        printResult(ctx, controls, () =>
          [
            `card ${controls.cardNo} (${controls.status}), card type ${controls.cardType.cardTypeId}`,
            `spending: ${controls.spendingControls.map((s) => `${s.amount} per ${s.interval}`).join(', ') || 'none'}`,
            `mcc allowed: ${controls.riskControls.allowedMcc.join(',') || 'any'}; blocked: ${controls.riskControls.blockedMcc.join(',') || 'none'}`,
            `no-PIN amount: ${controls.noPinPaymentAmount}`,
            `deposit ${controls.cardType.rechargeMinQuota}..${controls.cardType.rechargeMaxQuota}, retained ${controls.cardType.balanceRetentionQuota}`,
          ].join('\n'),
        );
        return ExitCodes.done;
      });
    },
  },
];

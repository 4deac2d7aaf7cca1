/**
 * `cardflow card-history <cardNo>`: what happened on a card, read straight from the provider
 * (client/card-history.ts): its authorizations, operation records, fees or 3DS records (without
 * their values), every page, newest as the provider orders them. A read: no workflow is started.
 */
import { createProviderClient } from '../../provider/client';
import { providerConfig } from '../../provider/config';
import { stringifyJson } from '../../provider/json';
import {
  card3dsRecords,
  cardAuthorizations,
  cardFees,
  cardOperations,
  type CardHistoryProvider,
} from '../card-history';
import { type CliContext, type Command, ExitCodes, UsageError } from './context';

const KINDS = {
  authorizations: cardAuthorizations,
  operations: cardOperations,
  fees: cardFees,
  '3ds': card3dsRecords,
} as const satisfies Record<string, (p: CardHistoryProvider, cardNo: string) => AsyncIterable<object>>;

/** A field as printed: a string or number as it is, anything else as nothing. */
function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : '';
}

/** One line of a record: its time, kind, id, amount and status, as the provider states them. */
function line(record: Record<string, unknown>): string {
  const time = typeof record.transactionTime === 'number' ? new Date(record.transactionTime).toISOString() : '-';
  const what = [record.type, record.tradeType, record.subType].map(text).filter(Boolean).join('/');
  const id = text(record.tradeNo) || text(record.orderNo);
  const amount = `${text(record.amount ?? record.transactionAmount)} ${text(record.currency)}`.trim();
  return [time, what || '-', id, amount, text(record.status)].join('  ');
}

async function history(ctx: CliContext, cardNo: string | undefined): Promise<number> {
  if (!cardNo) throw new UsageError('card-history needs a <cardNo>');
  const kind = ctx.values.type ?? 'authorizations';
  if (!Object.hasOwn(KINDS, kind)) throw new UsageError(`--type must be one of ${Object.keys(KINDS).join(', ')}`);
  const limit = ctx.values.limit === undefined ? undefined : Number(ctx.values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0))
    throw new UsageError('--limit must be a positive whole number');
  const read = KINDS[kind as keyof typeof KINDS];
  const provider = createProviderClient(providerConfig(ctx.config));
  try {
    let count = 0;
    for await (const record of read(provider, cardNo)) {
      ctx.io.out(ctx.values.json ? stringifyJson(record) : line(record));
      if (limit !== undefined && ++count >= limit) break;
    }
    return ExitCodes.done;
  } finally {
    await provider.close();
  }
}

export const CARD_HISTORY_COMMAND: Command = {
  name: 'card-history',
  usage: ['card-history <cardNo> [--type authorizations|operations|fees|3ds] [--limit <n>] [--json]'],
  summary: 'what happened on a card, read from the provider page after page (no workflow)',
  details: [
    '--type: authorizations (default), operations (create, deposit, freeze, withdraw, cancel...), fees, or 3ds',
    '(3DS records without their codes or links). --json: one provider record per line, ids kept exact.',
    'Needs the provider settings the worker uses (CARDFLOW_PROVIDER_*, the merchant private key).',
  ],
  options: ['type', 'limit', 'json'],
  run: (ctx, [cardNo]) => history(ctx, cardNo),
};

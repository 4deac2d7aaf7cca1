/**
 * A card's history read through the client straight from the sandbox over HTTP: a card with more
 * than 50 events gives back every authorization, operation record, fee and 3DS record it holds,
 * across pages, and a 3DS record comes without its encrypted values.
 */
import { createProviderClient, type ProviderClient } from '../../../provider/client';
import { card3dsRecords, cardAuthorizations, cardFees, cardOperations } from '../../../client/card-history';
import { InvalidInputError } from '../../../client/validation';
import { runCli } from '../../../client/cli/main';
import { parseJson } from '../../../provider/json';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';
import { startSandbox, ZERO_DELAYS, type RunningSandbox } from '../../../tools/sandbox';

jest.setTimeout(60_000);

let sandbox: RunningSandbox;
let provider: ProviderClient;

beforeAll(async () => {
  sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'manual' });
  provider = createProviderClient(sandbox.clientConfig());
});
afterAll(async () => {
  await provider.close();
  await sandbox.stop();
});

async function all<T>(records: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const record of records) out.push(record);
  return out;
}

it('returns every record of a card with more than 50 events, across pages, 3DS records without values', async () => {
  const helpers = sandbox.engine.helpers;
  const { cardNo } = await provider.createCard({
    merchantOrderNo: 'SHOP-ORDER-HISTORY-1',
    cardTypeId: CARD_TYPE_IDS.gift,
    amount: '500',
  });
  await helpers.advanceClock!({ ms: 1000 });
  const other = await provider.createCard({
    merchantOrderNo: 'SHOP-ORDER-HISTORY-2',
    cardTypeId: CARD_TYPE_IDS.gift,
    amount: '100',
  });
  await helpers.advanceClock!({ ms: 1000 });
  const tradeNos: string[] = [];
  for (let i = 0; i < 55; i++) {
    const auth = (await helpers.authorizeCard!({ cardNo, type: 'auth', amount: '1.00', merchantName: 'Shop' })) as {
      tradeNo: string;
    };
    tradeNos.push(String(auth.tradeNo));
    await helpers.advanceClock!({ ms: 1000 });
  }
  await helpers.authorizeCard!({ cardNo: other.cardNo, type: 'auth', amount: '1.00' });
  await helpers.issue3ds!({ cardNo, type: 'third_3ds_otp', amount: '1.00' });
  await helpers.issue3ds!({ cardNo, type: 'auth_url', amount: '2.00' });
  await helpers.advanceClock!({ ms: 60_000 });

  const pageSize = 7;
  const authorizations = await all(cardAuthorizations(provider, cardNo, { pageSize }));
  expect(new Set(authorizations.map((a) => a.tradeNo))).toEqual(new Set(tradeNos));
  expect(authorizations.every((a) => a.cardNo === cardNo)).toBe(true);

  // Each other kind: the same records as the provider's own count of them, read 7 at a time.
  const total = async (
    list: (q: { pageNum: number; pageSize: number; cardNo: string }) => Promise<{ total: unknown }>,
  ) => Number((await list({ pageNum: 1, pageSize: 1, cardNo })).total);
  const operations = await all(cardOperations(provider, cardNo, { pageSize }));
  expect(operations.map((o) => o.type)).toContain('create');
  expect(operations).toHaveLength(await total((q) => provider.listCardTransactions(q)));
  const fees = await all(cardFees(provider, cardNo, { pageSize }));
  expect(fees.length).toBeGreaterThan(50);
  expect(fees).toHaveLength(await total((q) => provider.listCardAuthFees(q)));
  expect(new Set(fees.map((f) => f.cardNo))).toEqual(new Set([cardNo]));

  const threeDs = await all(card3dsRecords(provider, cardNo, { pageSize: 1 }));
  expect(threeDs.map((r) => r.type).sort()).toEqual(['auth_url', 'third_3ds_otp']);
  for (const record of threeDs) expect(record).not.toHaveProperty('values');

  // The CLI reads the same, every page, with the provider settings a worker uses.
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: sandbox.env };
  expect(await runCli(['card-history', cardNo, '--type', 'authorizations', '--json'], io)).toBe(0);
  expect(new Set(out.map((l) => (parseJson(l) as { tradeNo: string }).tradeNo))).toEqual(new Set(tradeNos));
  out.length = 0;
  expect(await runCli(['card-history', cardNo, '--type', '3ds', '--json'], io)).toBe(0);
  expect(out).toHaveLength(2);
  for (const l of out) expect(l).not.toContain('"values"');
  out.length = 0;
  expect(await runCli(['card-history', cardNo, '--limit', '3'], io)).toBe(0);
  expect(out).toHaveLength(3);
  for (const l of out) expect(tradeNos.some((t) => l.includes(t))).toBe(true);
  expect(err).toEqual([]);
});

it('refuses a bad card number or page size before any call', () => {
  expect(() => cardAuthorizations(provider, 'not-a-card')).toThrow(InvalidInputError);
  expect(() => cardOperations(provider, '5000000000000000001', { pageSize: 101 })).toThrow(/pageSize/);
});

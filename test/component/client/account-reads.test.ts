/**
 * The account, ledger, cardholder and card-control reads of the client against the sandbox over
 * HTTP, on a manual clock: accounts with their balances page by 10, a ledger range longer than the
 * provider's 30 days comes back whole across slices, a cardholder is found by email, and a card's
 * controls come with its card type's bounds.
 */
import { createProviderClient, type ProviderClient } from '../../../provider/client';
import { DAY_MS } from '../../../provider/rules';
import { accountLedger, findCardholders, listAccounts } from '../../../client/account-reads';
import { getCardControls } from '../../../client/card-controls';
import { runCli } from '../../../client/cli/main';
import { parseJson } from '../../../provider/json';
import { InvalidInputError } from '../../../client/validation';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';
import { startSandbox, ZERO_DELAYS, type RunningSandbox } from '../../../tools/sandbox';
import { b2bHolder } from '../../unit/tools/sandbox/fixtures';

jest.setTimeout(60_000);

const START = Date.now() - 100 * DAY_MS;
let sandbox: RunningSandbox;
let provider: ProviderClient;

beforeAll(async () => {
  sandbox = await startSandbox({ delays: ZERO_DELAYS, clock: 'manual', clockStart: START });
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

let n = 0;
async function cards(count: number): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    const card = await provider.createCard({
      merchantOrderNo: `SHOP-ORDER-READS-${String(++n).padStart(4, '0')}`,
      cardTypeId: CARD_TYPE_IDS.subscription,
      amount: '0',
    });
    made.push(card.cardNo);
  }
  await sandbox.engine.helpers.advanceClock!({ ms: 1000 });
  return made;
}

it('reads every account and every ledger entry of a range longer than 30 days', async () => {
  await cards(3);
  await sandbox.engine.helpers.advanceClock!({ ms: 45 * DAY_MS });
  await cards(3);
  for (let i = 0; i < 12; i++) await provider.createSharedAccount({ accountName: `Team ${i}` });

  const accounts = await all(listAccounts(provider));
  const direct = await provider.listAccounts({ pageNum: 1, pageSize: 1 });
  expect(accounts.length).toBeGreaterThan(10); // more than one page of 10
  expect(accounts).toHaveLength(Number(direct.total));
  expect(new Set(accounts.map((a) => a.accountId)).size).toBe(accounts.length);

  const entries = await all(accountLedger(provider, { startTime: START, endTime: START + 50 * DAY_MS }));
  const early = entries.filter((e) => e.createTime < START + 30 * DAY_MS);
  const late = entries.filter((e) => e.createTime >= START + 30 * DAY_MS);
  expect(early.length).toBeGreaterThan(0);
  expect(late.length).toBeGreaterThan(0);
  const sliced = async (from: number, to: number) =>
    Number((await provider.listLedgerEntries({ pageNum: 1, pageSize: 1, startTime: from, endTime: to })).total);
  expect(entries).toHaveLength(
    (await sliced(START, START + 30 * DAY_MS)) + (await sliced(START + 30 * DAY_MS, START + 50 * DAY_MS)),
  );
  await expect(all(accountLedger(provider, { startTime: 10, endTime: 5 }))).rejects.toThrow(/endTime/);
});

it('finds a cardholder by email, and refuses a lookup with nothing to look up', async () => {
  const email = 'reads-holder@example.com';
  const made = await provider.createCardholder(b2bHolder(email));
  const found = await all(findCardholders(provider, { email }));
  expect(found.map((h) => h.holderId)).toEqual([made.holderId]);
  expect(() => findCardholders(provider, {})).toThrow(InvalidInputError);
});

it('gives a card’s controls with its card type’s bounds', async () => {
  const [cardNo] = await cards(1);
  const controls = await getCardControls(provider, cardNo!);
  expect(controls).toMatchObject({
    cardNo,
    cardType: { cardTypeId: CARD_TYPE_IDS.subscription, type: 'Virtual' },
    riskControls: { allowedMcc: expect.any(Array), blockedMcc: expect.any(Array) },
  });
  expect(controls.noPinPaymentAmount).toMatch(/^\d+(\.\d+)?$/);
  expect(controls.cardType.rechargeMaxQuota).toMatch(/^\d+(\.\d+)?$/);
});

it('the CLI reads the same: accounts, a ledger across slices, a cardholder, a card’s controls', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: sandbox.env };
  const cli = async (args: string[]) => {
    out.length = 0;
    expect(await runCli(args, io)).toBe(0);
    return [...out];
  };
  const accounts = await all(listAccounts(provider));
  expect((await cli(['accounts', '--json'])).map((l) => (parseJson(l) as { accountId: string }).accountId)).toEqual(
    accounts.map((a) => a.accountId),
  );
  const since = new Date(START).toISOString();
  const entries = await all(accountLedger(provider, { startTime: START }));
  expect(await cli(['ledger', '--since', since, '--json'])).toHaveLength(entries.length);
  const holder = await provider.createCardholder(b2bHolder('cli-holder@example.com'));
  expect((await cli(['cardholder', holder.holderId]))[0]).toMatch(new RegExp(`^${holder.holderId}  `));
  const [cardNo] = await cards(1);
  expect((await cli(['card-controls', cardNo!])).join('\n')).toContain(`card ${cardNo} (`);
  expect(err).toEqual([]);
});

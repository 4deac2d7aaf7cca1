/**
 * Card details through the client, from the sandbox over HTTP: decrypted in this process and typed;
 * each reveal recorded (card, caller, reason, time; never a value) in the shared reveal log, on
 * files and on PostgreSQL alike; the limit refuses the next reveal naming when it is allowed, also
 * when replicas ask at once; a bad request is refused before anything is recorded or read.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProviderClient, type ProviderClient } from '../../../provider/client';
import { CardRevealRefusedError, revealCardDetails, type CardDetailsDeps } from '../../../client/card-details';
import { InvalidInputError } from '../../../client/validation';
import { runCli } from '../../../client/cli/main';
import { isLuhnValid } from '../../../domain/onboarding-physical';
import { createPostgresRevealLog } from '../../../platform/storage/postgres-reveal-log';
import { createFileRevealLog, REVEAL_LOG, type RevealLog } from '../../../platform/storage/reveal-log';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';
import { startSandbox, ZERO_DELAYS, type RunningSandbox } from '../../../tools/sandbox';
import { type TestPostgres, startTestPostgres } from '../support/postgres';

jest.setTimeout(90_000);

let sandbox: RunningSandbox;
let provider: ProviderClient;
let pg: TestPostgres;

beforeAll(async () => {
  sandbox = await startSandbox({ delays: ZERO_DELAYS });
  provider = createProviderClient(sandbox.clientConfig());
  pg = await startTestPostgres();
});
afterAll(async () => {
  await provider.close();
  await sandbox.stop();
  await pg?.stop();
});

let n = 0;
async function card(cardTypeId: string = CARD_TYPE_IDS.subscription, amount = '0'): Promise<string> {
  const made = await provider.createCard({ merchantOrderNo: `SHOP-ORDER-REVEAL-${++n}`, cardTypeId, amount });
  return made.cardNo;
}

const deps = (log: RevealLog, count = 2): CardDetailsDeps => ({
  provider,
  log,
  merchantPrivateKey: sandbox.keys.merchant.privateKey,
  limit: { count, windowMs: 3_600_000 },
});
const who = { caller: 'support-agent-7', reason: 'customer asked in the app' };

it('decrypts the details in this process, records each reveal without its values, and refuses past the limit', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-reveals-'));
  const log = createFileRevealLog(dir);
  const cardNo = await card();
  const info = await provider.getCardInfo({ cardNo });

  const details = await revealCardDetails(deps(log), cardNo, who);
  expect(details.cardNo).toBe(cardNo);
  expect(details.cardNumber).toMatch(/^\d{16}$/);
  expect(isLuhnValid(details.cardNumber!)).toBe(true);
  expect(details.cardNumber!.startsWith(info.cardBankBin.slice(0, 6))).toBe(true);
  expect(details.cvv).toMatch(/^\d{3}$/);
  expect(details.expireDate).toMatch(/\d{2}\/\d{2,4}/);

  await revealCardDetails(deps(log), cardNo, who);
  const refused = await revealCardDetails(deps(log), cardNo, who).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(CardRevealRefusedError);
  expect((refused as Error).message).toMatch(
    /shown 2 time\(s\) within 60 min \(the limit is 2\); the next reveal is allowed at \d{4}-/,
  );
  expect((refused as CardRevealRefusedError).nextAllowedAt.getTime()).toBeGreaterThan(Date.now());

  const records = await log.list(cardNo);
  expect(records).toEqual([
    { cardNo, ...who, at: expect.any(Number) },
    { cardNo, ...who, at: expect.any(Number) },
  ]);
  // The file holds those two records and nothing else. The short values (a 3-digit CVV, the
  // expiry) are not searched for as substrings: they can occur by chance in the card's id or the
  // time, so an exact reading of the whole file is what shows they are absent.
  const file = readFileSync(join(dir, REVEAL_LOG), 'utf8');
  expect(file.endsWith('\n')).toBe(true);
  expect(
    file
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as unknown),
  ).toEqual([
    { cardNo, ...who, at: expect.any(Number) },
    { cardNo, ...who, at: expect.any(Number) },
  ]);
  expect(file).not.toContain(details.cardNumber!);
  // Another card has its own limit.
  await expect(revealCardDetails(deps(log), await card(), who)).resolves.toMatchObject({ cvv: expect.any(String) });
});

it('a gift card gives its activation link', async () => {
  const log = createFileRevealLog(mkdtempSync(join(tmpdir(), 'cardflow-reveals-')));
  const details = await revealCardDetails(deps(log), await card(CARD_TYPE_IDS.gift, '50'), who);
  expect(details.activateUrl).toMatch(/^https:\/\//);
  expect(details.cardNumber).toBeUndefined();
});

it('refuses a request without its caller or reason before anything is recorded or read', async () => {
  const log = createFileRevealLog(mkdtempSync(join(tmpdir(), 'cardflow-reveals-')));
  const cardNo = await card();
  await expect(revealCardDetails(deps(log), cardNo, { caller: ' ', reason: '' })).rejects.toThrow(InvalidInputError);
  await expect(revealCardDetails(deps(log), 'not-a-card', who)).rejects.toThrow(InvalidInputError);
  expect(await log.list(cardNo)).toEqual([]);
});

it('on PostgreSQL, replicas asking at once share one limit', async () => {
  const url = await pg.database();
  const [a, b] = [createPostgresRevealLog(url), createPostgresRevealLog(url)];
  try {
    const cardNo = await card();
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).claim({ cardNo, ...who }, { count: 3, windowMs: 60_000 })),
    );
    expect(claims.filter((c) => c.allowed)).toHaveLength(3);
    const refused = claims.find((c) => !c.allowed);
    expect(refused).toMatchObject({ allowed: false, recent: 3, nextAt: expect.any(Number) });
    expect(await b.list(cardNo)).toHaveLength(3);
    const details = await revealCardDetails(deps(a, 10), cardNo, who);
    expect(details.cvv).toMatch(/^\d{3}$/);
    expect(await a.list(cardNo)).toHaveLength(4);
  } finally {
    await a.close();
    await b.close();
  }
});

it('on files, processes asking at once share one limit', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-reveals-'));
  const [a, b] = [createFileRevealLog(dir), createFileRevealLog(dir)];
  const cardNo = await card();
  const claims = await Promise.all(
    Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).claim({ cardNo, ...who }, { count: 3, windowMs: 60_000 })),
  );
  expect(claims.filter((c) => c.allowed)).toHaveLength(3);
});

it('the CLI shows details only with --show and only to a terminal; --reveals lists who saw them', async () => {
  const cardNo = await card();
  const dir = mkdtempSync(join(tmpdir(), 'cardflow-reveals-'));
  const out: string[] = [];
  const err: string[] = [];
  const io = (terminal: boolean) => ({
    out: (l: string) => out.push(l),
    err: (l: string) => err.push(l),
    env: { ...sandbox.env, CARDFLOW_REVEAL_LOG_DIR: dir },
    stdoutIsTerminal: terminal,
  });
  const show = ['card-details', cardNo, '--show', '--caller', 'ops', '--reason', 'customer call'];
  expect(await runCli(show, io(false))).toBe(2);
  expect(err.join('\n')).toContain('only to a terminal');
  expect(out).toEqual([]);
  expect(await createFileRevealLog(dir).list(cardNo)).toEqual([]);

  expect(await runCli(['card-details', cardNo, '--caller', 'ops', '--reason', 'x'], io(true))).toBe(2);
  expect(await runCli(show, io(true))).toBe(0);
  expect(out.find((l) => l.startsWith('number'))).toMatch(/^number {2}\d{16}$/);
  out.length = 0;
  expect(await runCli(['card-details', cardNo, '--reveals', '--json'], io(false))).toBe(0);
  expect(JSON.parse(out.join('\n'))).toEqual([
    { cardNo, caller: 'ops', reason: 'customer call', at: expect.any(Number) },
  ]);
});

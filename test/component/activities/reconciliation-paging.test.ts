/**
 * Reconciliation's activities against the sandbox over HTTP, on a manual clock spanning three
 * months: every query stays within the spec's limits (pageSize at most 100, ledger ranges at most
 * 30 days, wallet ranges at most 90 days), paging reads every record once, the ledger is walked
 * across slices and pages to the cent, and the cursor carries no records. Temporal is replaced by
 * a port with no owners (every order here is someone else's), the one thing not under test.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { createProviderClient, type ProviderClient } from '../../../provider/client';
import { DAY_MS, LEDGER_RANGE_DAYS, PAGE_SIZE_MAX, WALLET_TX_RANGE_DAYS } from '../../../provider/rules';
import { createReconciliationActivities, type ReconcileStep } from '../../../activities/reconciliation';
import type { ReconcilePort } from '../../../activities/reconciliation/temporal-port';
import type { ActivityDeps, ProviderPort } from '../../../activities/deps';
import {
  DEFAULT_RECONCILE_CONFIG,
  FINDING_KINDS,
  type Finding,
  type AccountReconciliation,
  type ReconcileCursor,
} from '../../../domain/reconciliation';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';
import { startSandbox, ZERO_DELAYS, type RunningSandbox } from '../../../tools/sandbox';

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

let n = 0;
async function cards(count: number): Promise<void> {
  for (let i = 0; i < count; i++)
    await provider.createCard({
      merchantOrderNo: `SHOP-ORDER-${String(++n).padStart(8, '0')}`,
      cardTypeId: CARD_TYPE_IDS.subscription,
      amount: '0',
    });
  await sandbox.engine.helpers.advanceClock!({ ms: 0 });
}

const advance = (days: number) => sandbox.engine.helpers.advanceClock!({ ms: days * DAY_MS });

it('pages every source within the spec limits and recomputes the wallet across 30-day slices', async () => {
  await cards(120);
  await advance(45);
  await sandbox.engine.helpers.creditMerchantWallet!({ amount: '10.00', remark: 'dashboard adjustment' });
  await cards(5);
  await advance(45);
  await cards(5);

  const calls: { method: string; request: Record<string, unknown> }[] = [];
  const recording = new Proxy(provider, {
    get(target, method: string) {
      const real = (target as unknown as Record<string, unknown>)[method];
      if (typeof real !== 'function') return real;
      return (request: Record<string, unknown> = {}, ...rest: unknown[]) => {
        calls.push({ method, request });
        return (real as (...args: unknown[]) => unknown).call(target, request, ...rest);
      };
    },
  }) as ProviderPort;
  const nobody: ReconcilePort = {
    ownersOf: async () => ({}),
    redeliver: async () => [],
    deliverToCard: async () => undefined,
    runningSpenders: async () => [],
    openStrandedRecords: async () => [],
    previousWindowEnd: async () => undefined,
  };
  const deps: ActivityDeps = { provider: recording, reconciliation: nobody };
  const activities = createReconciliationActivities(deps);
  const env = new MockActivityEnvironment();
  const config = DEFAULT_RECONCILE_CONFIG;

  const until = sandbox.clock.now();
  const begun: Awaited<ReturnType<typeof activities.beginReconciliation>> = await env.run(
    activities.beginReconciliation,
    { since: START - 1, until, config },
  );
  const findings: Finding[] = [];
  const accounts: AccountReconciliation[] = [];
  const read: Record<string, number> = {};
  let cursor: ReconcileCursor | undefined = begun.cursor;
  let steps = 0;
  while (cursor) {
    const step: ReconcileStep = await env.run(activities.reconcileStep, { cursor, window: begun.window, config });
    findings.push(...step.findings);
    if (step.account) accounts.push(step.account);
    read[step.source] = (read[step.source] ?? 0) + step.read;
    // The cursor is where paging stands, never the records: small whatever the window holds.
    expect(JSON.stringify(step.next ?? {}).length).toBeLessThan(1_000);
    cursor = step.next;
    steps += 1;
  }

  for (const { method, request } of calls) {
    if ('pageSize' in request) expect(request.pageSize).toBeLessThanOrEqual(PAGE_SIZE_MAX);
    const span = (request.endTime as number) - (request.startTime as number);
    if (method === 'listLedgerEntries') expect(span).toBeLessThanOrEqual(LEDGER_RANGE_DAYS * DAY_MS);
    if (method === 'listWalletTransactions') expect(span).toBeLessThanOrEqual(WALLET_TX_RANGE_DAYS * DAY_MS);
  }
  const ledgerSlices = new Set(
    calls.filter((c) => c.method === 'listLedgerEntries' && c.request.pageNum === 1).map((c) => c.request.startTime),
  );
  expect(ledgerSlices.size).toBeGreaterThanOrEqual(4);
  expect(steps).toBeGreaterThan(3);

  expect(read.cardOperations).toBe(130);
  expect(findings.filter((f) => f.kind === FINDING_KINDS.externalOrder)).toHaveLength(130);
  // The opening balance, the adjustment and 130 card fees: every one read once, explained or
  // external.
  const [wallet] = accounts;
  expect(accounts).toHaveLength(1);
  expect(wallet).toMatchObject({ entries: 132, external: 132, cardflow: 0, provider: 0, openingBalance: '0.00' });
  const actual = (await provider.getAccountInfo()).find((a) => a.accountType === 'WALLET')!;
  expect(wallet!.recomputedBalance).toBe(actual.totalBalance);
  expect(wallet!.providerBalance).toBe(actual.totalBalance);
  expect(findings.filter((f) => f.kind === FINDING_KINDS.balanceMismatch)).toEqual([]);
});

/**
 * Reconciliation on the dev server against the sandbox: a missed event re-delivered to the workflow
 * waiting on it; a card's own event whose webhook was lost starting the card's workflow; orders and
 * money from outside cardflow reported as external with nothing changed; the provider's own fees
 * and a risk-control cancellation explained, balances recomputed to the cent; a balance floor
 * crossed (the CLI exits 3); a clean run after fault injection; the schedule, created idempotently,
 * reading on from its previous run; money a cancelled onboarding left on its card reported until an
 * operator acknowledges it; and a customer's on-chain deposit that arrived after its onboarding was
 * cancelled reported, where a completed onboarding's own deposit is not.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { cardSnapshotQuery } from '../../../domain/card-entity';
import { ExitCodes } from '../../../client/cli/context';
import { runCliOn } from '../../support/run-cli';
import { ensureReconcileSchedule, runReconciliation } from '../../../client/reconciliation';
import type { CardDepositResult } from '../../../domain/card-deposit';
import type { CardIssuanceResult } from '../../../domain/card-issuance';
import type { FundTransferResult } from '../../../domain/fund-transfer';
import { cardDepositWorkflow, WorkflowTypes } from '../../../domain/workflows';
import {
  FINDING_KINDS,
  reconcileReportQuery,
  type ReconcileConfig,
  type ReconcileReport,
} from '../../../domain/reconciliation';
import type { SharedAccountResult } from '../../../domain/shared-account';
import { progressQuery, type OnboardingResult } from '../../../domain/customer-onboarding';
import { getPaymentInstructions } from '../../../client/onboarding';
import { cardEntityWorkflowId, childWorkflowId, onboardingWorkflowId } from '../../../domain/workflow-ids';
import {
  approvedPhysicalHolder,
  CARD_TYPES,
  eventually,
  FAST_WAIT,
  PHYSICAL_TYPE,
  printedCardNumber,
  startCardHarness,
  SUBSCRIPTION_TYPE,
  virtualCard,
  walletAccount,
  type CardHarness,
} from '../support/card-harness';
import { cliOn, customerRef, startOnboardingWorkflow, type HarnessOptions } from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';
import { testTemporalServer } from '../support/temporal-env';

jest.setTimeout(180_000);

const harnesses: CardHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.stop();
});

/**
 * A fresh sandbox per scenario; `since` just after it started, so its opening balance is outside
 * every window.
 */
async function world(options: HarnessOptions = {}): Promise<{ h: CardHarness; since: number }> {
  const h = await startCardHarness(options);
  harnesses.push(h);
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { h, since: Date.now() };
}

const id = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

function reconcile(h: CardHarness, since: number, config: Partial<ReconcileConfig> = {}, extra: object = {}) {
  return runReconciliation(
    h.client,
    { since, config, ...extra },
    { taskQueue: h.taskQueue, workflowId: id('reconcile') },
  );
}

const ofKind = (report: ReconcileReport, kind: string) => report.findings.filter((f) => f.kind === kind);

it('a webhook dropped and polling slowed: the event is re-delivered and the waiting deposit completes', async () => {
  const { h, since } = await world({ faults: { webhookDropRate: 1 } });
  const cardNo = await virtualCard(h.provider);
  const workflowId = id('deposit');
  const merchantOrderNo = cardDepositWorkflow.orderKeys(workflowId).deposit;
  // Polls ten minutes apart: only the webhook (dropped) or reconciliation can end this wait soon.
  const slow = { firstPollMs: 600_000, maxPollMs: 600_000, attemptMs: 1_200_000, heartbeatTimeoutMs: 1_200_000 };
  await h.withCardWorker(async () => {
    const handle = await h.client.workflow.start(WorkflowTypes.cardDeposit, {
      workflowId,
      taskQueue: h.taskQueue,
      // Cents .14: the sandbox keeps the deposit processing until it is decided.
      args: [{ cardNo, amount: '20.14', cardTypeId: CARD_TYPES.noHolderNoDeposit, wait: { cardOperation: slow } }],
    });
    await eventually(
      async () =>
        (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 10, merchantOrderNo })).records[0]?.status,
      (s) => s === 'processing',
      'the deposit at the provider',
    );
    await h.helper('decideOperation', { orderNo: merchantOrderNo, outcome: 'success' });
    expect(h.sandbox.deliveries.log().some((d) => d.status === 'dropped')).toBe(true);

    const commits = h.sandbox.commits().length;
    const report = await reconcile(h, since, { eventGraceMs: 0 });
    const missed = ofKind(report, FINDING_KINDS.missedEvent);
    expect(missed).toEqual([
      expect.objectContaining({ repaired: true, ids: expect.objectContaining({ merchantOrderNo, workflowId }) }),
    ]);
    expect(report.repairedCount).toBe(1);
    const result = (await handle.result()) as CardDepositResult;
    expect(result).toMatchObject({ merchantOrderNo, amount: '20.14' });
    // Re-delivered as a signal only: nothing was sent to the provider again.
    expect(h.sandbox.commits()).toHaveLength(commits);
  });
  expect(
    h.sandbox.commits({ operation: 'depositCard' }).filter((c) => c.refs.merchantOrderNo === merchantOrderNo),
  ).toHaveLength(1);
});

it("a card's own event whose webhook was lost starts the card's workflow, as the receiver would have", async () => {
  const { h, since } = await world({ faults: { webhookDropRate: 1 } });
  const cardNo = await virtualCard(h.provider);
  await h.helper('blockCard', { cardNo, reason: 'Suspected fraud' });
  const card = h.client.workflow.getHandle(cardEntityWorkflowId(cardNo));
  // Its webhook was dropped: nothing started the card's workflow.
  await expect(card.describe()).rejects.toThrow(WorkflowNotFoundError);

  const report = await h.withCardWorker(async () => {
    const first = await reconcile(h, since, { eventGraceMs: 0 });
    // The workflow the re-delivery started learned the block.
    await eventually(
      () => card.query(cardSnapshotQuery),
      (s) => s.status === 'blocked',
      'the block in the card workflow',
    );
    return first;
  });
  expect(ofKind(report, FINDING_KINDS.missedEvent)).toEqual([
    expect.objectContaining({
      repaired: true,
      ids: expect.objectContaining({ cardNo, workflowId: cardEntityWorkflowId(cardNo) }),
    }),
  ]);
  expect((await card.describe()).status.name).toBe('RUNNING');
  // Run again while the card's workflow runs: delivered again, ignored there, and no finding.
  const again = await h.withCardWorker(async () => {
    const second = await reconcile(h, since, { eventGraceMs: 0 });
    expect((await card.query(cardSnapshotQuery)).status).toBe('blocked');
    return second;
  });
  expect(ofKind(again, FINDING_KINDS.missedEvent)).toEqual([]);
});

it('an order made outside cardflow and a dashboard adjustment: reported as external, nothing changed', async () => {
  const { h, since } = await world();
  const cardNo = await virtualCard(h.provider, { deposit: '15' });
  await h.helper('creditMerchantWallet', { amount: '250.00', remark: 'dashboard adjustment' });
  const commits = h.sandbox.commits().length;
  const money = h.sandbox.engine.moneySnapshot();
  const wallet = await walletAccount(h.provider);

  const report = await h.withCardWorker(() => reconcile(h, since));

  const external = ofKind(report, FINDING_KINDS.externalOrder);
  expect(external.map((f) => f.ids.cardNo)).toEqual([cardNo, cardNo]);
  const adjustment = ofKind(report, FINDING_KINDS.externalLedgerEntry).filter((f) => f.amount === '250.00');
  expect(adjustment).toEqual([
    expect.objectContaining({ ids: expect.objectContaining({ accountId: wallet.accountId }) }),
  ]);
  expect(adjustment[0]!.detail).toContain('fixed IN 250.00');
  expect(ofKind(report, FINDING_KINDS.balanceMismatch)).toEqual([]);
  expect(report.driftCount).toBeGreaterThan(0);
  // Read only: no new mutation at the provider, the same money everywhere.
  expect(h.sandbox.commits()).toHaveLength(commits);
  expect(h.sandbox.engine.moneySnapshot()).toEqual(money);
  expect((await walletAccount(h.provider)).totalBalance).toBe(wallet.totalBalance);
});

it('an authorization fee and a card cancelled at a high-risk merchant: explained, balances recomputed to the cent', async () => {
  const { h, since } = await world();
  const spent = await virtualCard(h.provider, { deposit: '10' });
  // The whole balance spent: the 0.20 authorization fee falls on the merchant's account.
  await h.helper('authorizeCard', { cardNo: spent, type: 'auth', amount: '10', merchantName: 'Coffee Shop' });
  const risky = await virtualCard(h.provider, { deposit: '10' });
  await h.helper('authorizeCard', { cardNo: risky, type: 'auth', amount: '1', merchantName: 'Binance' });
  const ledger = async () => (await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 100 })).records;
  const entries = await eventually(
    ledger,
    (all) => all.some((e) => e.bizType === 'card_auth_fee_patch') && all.some((e) => e.bizType === 'card_cancel'),
    'the fee and the cancellation in the ledger',
  );
  const fee = entries.find((e) => e.bizType === 'card_auth_fee_patch')!;
  const cancel = entries.find((e) => e.bizType === 'card_cancel')!;
  expect(fee.amount).toBe('0.20');

  const report = await h.withCardWorker(() => reconcile(h, since));

  const named = report.findings.map((f) => f.ids.txId);
  expect(named).not.toContain(fee.txId);
  expect(named).not.toContain(cancel.txId);
  expect(ofKind(report, FINDING_KINDS.unexplainedLedgerEntry)).toEqual([]);
  expect(ofKind(report, FINDING_KINDS.balanceMismatch)).toEqual([]);
  const wallet = await walletAccount(h.provider);
  const summary = report.accounts.find((a) => a.accountId === wallet.accountId)!;
  expect(summary.provider).toBe(2);
  expect(summary.recomputedBalance).toBe(summary.providerBalance);
  expect(summary.providerBalance).toBe(wallet.totalBalance);
});

it('a floor crossed: the warning appears and cardflow reconcile exits 3', async () => {
  const { h } = await world({ walletBalance: '500.00' });
  const out: string[] = [];
  const cli = async (args: string[], command = 'reconcile') =>
    (
      await runCliOn(
        { client: h.client, namespace: testTemporalServer().namespace },
        [command, ...args, '--task-queue', h.taskQueue],
        {
          env: { CARDFLOW_BALANCE_FLOOR: '1000.00' },
          out,
          err: out,
        },
      )
    ).code;
  const code = await h.withCardWorker(() => cli(['--since', '1m', '--json']));
  expect(code).toBe(ExitCodes.drift);
  const report = JSON.parse(out.join('\n')) as ReconcileReport;
  expect(ofKind(report, FINDING_KINDS.belowFloor)).toEqual([
    expect.objectContaining({ amount: '500.00', ids: { accountId: (await walletAccount(h.provider)).accountId } }),
  ]);
  out.length = 0;
  expect(await h.withCardWorker(() => cli(['--since', '1m']))).toBe(ExitCodes.drift);
  expect(out.join('\n')).toMatch(/below floor .*available 500\.00 USD is below the floor 1000\.00/);

  // A finished run's report, read back through its query and result.
  const runs: string[] = [];
  for await (const info of h.client.workflow.list({ query: `TaskQueue = '${h.taskQueue}'` }))
    runs.push(info.workflowId);
  expect(runs).toHaveLength(2);
  out.length = 0;
  expect(await h.withCardWorker(() => cli([runs[0]!], 'status'))).toBe(ExitCodes.done);
  expect(out.join('\n')).toMatch(/\(reconciliation\): reconciled: .*ledger 1; 2 finding\(s\)/);
  expect(out.join('\n')).toMatch(/below floor .*available 500\.00 USD/);
});

it('onboardings about to spend more than the wallet holds: warned before any of them fails', async () => {
  const { h, since } = await world({ walletBalance: '200.00' });
  const report = await h.withCardWorker(async () => {
    // Each alone passes its balance check; both parked in review will need 300 of the 200.
    for (const label of ['first', 'second'])
      await startOnboardingWorkflow(h, {
        customerRef: customerRef(`commit-${label}`),
        cardTypeId: CARD_TYPES.b2bWithDeposit,
        holder: b2bHolder(uniqueEmail('review.stall')),
        initialDeposit: '150',
        wait: FAST_WAIT,
      });
    await eventually(
      async () => (await h.provider.queryCardholders({ pageNum: 1, pageSize: 10 })).records.length,
      (n) => n === 2,
      'both holders in review',
    );
    return reconcile(h, since);
  });
  expect(ofKind(report, FINDING_KINDS.belowCommitments)).toEqual([
    expect.objectContaining({
      amount: '200.00',
      detail: expect.stringContaining('below the 300 running workflows are about to spend'),
    }),
  ]);
  expect(ofKind(report, FINDING_KINDS.belowFloor)).toEqual([]);
});

it('a clean run after fault injection: no finding, across continue-as-new', async () => {
  const { h, since } = await world();
  // The test's own lookup runs before the faults: a dropped answer to it would fail the test, not a
  // workflow.
  const wallet = await walletAccount(h.provider);
  h.sandbox.setFaults({
    dropResponseRate: 0.3,
    webhookDuplicateRate: 0.5,
    webhookReorderRate: 0.5,
    webhookDropRate: 0.3,
  });
  await h.withCardWorker(async () => {
    const run = <T>(type: string, label: string, args: object) =>
      h.client.workflow.execute(type, {
        workflowId: id(label),
        taskQueue: h.taskQueue,
        args: [{ wait: FAST_WAIT, ...args }],
      }) as Promise<T>;
    const card = await run<CardIssuanceResult>(WorkflowTypes.cardIssuance, 'issue', {
      cardTypeId: CARD_TYPES.noHolderNoDeposit,
    });
    for (const amount of ['12.00', '30.50'])
      await run<CardDepositResult>(WorkflowTypes.cardDeposit, 'deposit', {
        cardNo: card.cardNo,
        amount,
        cardTypeId: CARD_TYPES.noHolderNoDeposit,
      });
    const margin = await run<SharedAccountResult>(WorkflowTypes.sharedAccount, 'shared', { accountName: id('team') });
    await run<FundTransferResult>(WorkflowTypes.fundTransfer, 'transfer', {
      type: 'TRANSFER',
      amount: '40.00',
      payerAccountId: wallet.accountId,
      payeeAccountId: margin.accountId,
    });
  });
  h.sandbox.setFaults({ reset: true });

  const run = await h.withCardWorker(async () => {
    const started = await h.client.workflow.start(WorkflowTypes.reconciliation, {
      workflowId: id('reconcile'),
      taskQueue: h.taskQueue,
      args: [{ since, stepsPerRun: 1 }],
    });
    await started.result();
    // A completed run still answers its report.
    return { started, report: (await started.query(reconcileReportQuery))! };
  });
  const { started: handle, report } = run;
  expect(report.findings).toEqual([]);
  expect(report.findingCount).toBe(0);
  expect(report.runs).toBeGreaterThan(1);
  expect(report.read.cardOperations).toBeGreaterThanOrEqual(3);
  expect(report.accounts).toHaveLength(2);
  for (const account of report.accounts) {
    expect(account.external).toBe(0);
    expect(account.recomputedBalance).toBe(account.providerBalance);
  }
  const described = await handle.describe();
  expect(described.searchAttributes.CardflowFindings).toEqual([0]);
  // One step per run here: each run's history stays a handful of events, however many steps the
  // whole takes.
  const runs = [];
  for await (const info of h.client.workflow.list({ query: `WorkflowId = '${handle.workflowId}'` })) runs.push(info);
  expect(runs.length).toBe(report.runs);
  for (const info of runs) expect(info.historyLength).toBeLessThanOrEqual(20);
});

it('the schedule is created idempotently and each run reads on from the previous one, with an overlap, past an on-demand run given its own start', async () => {
  const { h } = await world();
  const scheduleId = id('reconcile-schedule');
  const settings = { scheduleId, intervalMs: 3_600_000, config: {}, taskQueue: h.taskQueue };
  expect(await ensureReconcileSchedule(h.client, settings)).toEqual({ scheduleId, created: true });
  expect(await ensureReconcileSchedule(h.client, { ...settings, intervalMs: 7_200_000 })).toEqual({
    scheduleId,
    created: false,
  });
  const schedule = h.client.schedule.getHandle(scheduleId);
  try {
    expect((await schedule.describe()).spec.intervals?.map((i) => i.every)).toEqual([7_200_000]);
    const completed = async () => {
      const runs: ReconcileReport[] = [];
      for await (const info of h.client.workflow.list({
        query: `WorkflowType = 'reconciliation' AND TaskQueue = '${h.taskQueue}' AND ExecutionStatus = 'Completed'`,
      }))
        runs.push((await h.client.workflow.getHandle(info.workflowId, info.runId).result()) as ReconcileReport);
      // Scheduled runs only: an on-demand run given its own start is not part of the chain.
      return runs.filter((r) => !r.sinceGiven).sort((a, b) => a.window.end - b.window.end);
    };
    const [first, second] = await h.withCardWorker(async () => {
      await schedule.trigger();
      await eventually(completed, (runs) => runs.length === 1, 'the first scheduled run', 60_000);
      const narrow = await reconcile(h, Date.now() - 1_000);
      expect(narrow.sinceGiven).toBe(true);
      await schedule.trigger();
      return eventually(completed, (runs) => runs.length === 2, 'the second scheduled run', 60_000);
    });
    // Read on from the first scheduled run, with the overlap, not from the narrow one in between.
    expect(second!.window.start).toBe(first!.window.end - 10 * 60_000);
  } finally {
    await schedule.delete();
  }
});

it('money a cancelled onboarding left on its card is a stranded_money finding until an operator acknowledges it', async () => {
  const { h, since } = await world();
  const ref = customerRef('stranded');
  const out: string[] = [];
  const cli = cliOn(h, out);
  const { progress, first, second } = await h.withCardWorker(async () => {
    // A physical card made with its initial deposit of 50, then cancelled while it awaits delivery.
    const handle = await startOnboardingWorkflow(h, {
      customerRef: ref,
      cardTypeId: PHYSICAL_TYPE,
      holderId: await approvedPhysicalHolder(h.provider),
      cardNumber: printedCardNumber(),
      initialDeposit: '50',
      wait: FAST_WAIT,
    });
    await eventually(
      () => handle.query(progressQuery),
      (p) => p.stage === 'awaiting_delivery' || p.stage === 'failed',
      'awaiting_delivery',
    );
    await handle.cancel();
    await handle.result().catch(() => undefined);
    const ended = await handle.query(progressQuery);
    const found = await reconcile(h, since);
    const record = ended.compensation?.strandedRecord ?? '';
    expect(await cli(['acknowledge', record, '--by', 'ops-oncall', '--note', 'customer refunded by card'])).toBe(
      ExitCodes.done,
    );
    return { progress: ended, first: found, second: await reconcile(h, since) };
  });
  const record = progress.compensation?.strandedRecord;
  expect(progress.compensation?.remaining).toEqual([
    expect.objectContaining({ where: 'card', account: progress.cardNo, amount: '50.00' }),
  ]);
  expect(ofKind(first, FINDING_KINDS.strandedMoney)).toEqual([
    expect.objectContaining({
      ids: { workflowId: record, customerRef: ref, cardNo: progress.cardNo },
      amount: '50.00',
      currency: 'USD',
      detail: expect.stringContaining('cancelled by an operator'),
    }),
  ]);
  expect(out.join('\n')).toContain(`${record} acknowledged by ops-oncall (customer refunded by card)`);
  expect((await h.client.workflow.getHandle(record!).describe()).status.name).toBe('COMPLETED');
  expect(ofKind(second, FINDING_KINDS.strandedMoney)).toEqual([]);
});

describe('an on-chain deposit after its onboarding ended', () => {
  /** An on_chain onboarding's address, once it waits for the customer's payment. */
  async function awaitingPayment(h: CardHarness, ref: string) {
    const handle = await startOnboardingWorkflow(h, {
      customerRef: ref,
      cardTypeId: SUBSCRIPTION_TYPE,
      funding: { source: 'on_chain', coinKey: 'USDT_TRC20', expectedAmount: '120' },
      wait: FAST_WAIT,
    });
    await eventually(
      () => handle.query(progressQuery),
      (p) => (p.stage === 'awaiting_payment' && p.funding?.address !== undefined) || p.stage === 'failed',
      'awaiting_payment',
    );
    const address = (await getPaymentInstructions(h.client, ref))?.address;
    if (!address) throw new Error(`${ref} shows no deposit address`);
    return { handle, address };
  }

  /** The customer pays 120 USDT to `address`; resolves once the provider has credited it. */
  async function customerPays(h: CardHarness, address: string): Promise<string> {
    const tx = await h.helper<{ orderNo: string }>('creditWalletDeposit', {
      coinKey: 'USDT_TRC20',
      amount: '120',
      address,
    });
    const listed = async () =>
      (await h.provider.listWalletTransactions({ pageNum: 1, pageSize: 100 })).records.find(
        (r) => r.orderNo === tx.orderNo,
      )?.status;
    await eventually(listed, (s) => s === 'success' || s === 'fail', 'the deposit credited');
    return tx.orderNo;
  }

  it('cancelled while awaiting payment, then paid: one late_deposit finding names the customer, the WALLET and the credit', async () => {
    const { h, since } = await world();
    const ref = customerRef('late');
    const wallet = await walletAccount(h.provider);
    const { report, orderNo } = await h.withCardWorker(async () => {
      const { handle, address } = await awaitingPayment(h, ref);
      await handle.cancel();
      await handle.result().catch(() => undefined);
      const funding = h.client.workflow.getHandle(childWorkflowId(onboardingWorkflowId(ref), 'funding'));
      await eventually(
        async () => (await funding.describe()).status.name,
        (s) => s !== 'RUNNING',
        'the funding child closed',
      );
      const orderNo = await customerPays(h, address);
      return { orderNo, report: await reconcile(h, since) };
    });
    // 120 less USDT_TRC20's 0.5% and 1: 118.40 credited to the merchant WALLET, taken by no one.
    expect(ofKind(report, FINDING_KINDS.lateDeposit)).toEqual([
      expect.objectContaining({
        ids: expect.objectContaining({ orderNo, customerRef: ref, accountId: wallet.accountId }),
        amount: '118.40',
        currency: 'USD',
      }),
    ]);
  });

  it('a completed onboarding’s own deposit is no late deposit', async () => {
    const { h, since } = await world();
    const ref = customerRef('paid');
    const { report, result } = await h.withCardWorker(async () => {
      const { handle, address } = await awaitingPayment(h, ref);
      await customerPays(h, address);
      const result = (await handle.result()) as OnboardingResult;
      return { result, report: await reconcile(h, since) };
    });
    expect(result.onChainDeposit?.receivedAmount).toBe('118.40');
    expect(ofKind(report, FINDING_KINDS.lateDeposit)).toEqual([]);
  });
});

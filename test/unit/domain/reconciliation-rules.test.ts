import type { LedgerEntry } from '../../../provider/schemas/account';
import { deriveMerchantOrderNo } from '../../../domain/merchant-order-no';
import { cardDepositWorkflow, fundTransferWorkflow } from '../../../domain/workflows';
import {
  DEFAULT_RECONCILE_CONFIG,
  FINDING_KINDS,
  MAX_REPORTED_FINDINGS,
  emptyReport,
  withFindings,
  type Finding,
} from '../../../domain/reconciliation';
import {
  balanceFindings,
  currentOwner,
  explainLedgerEntry,
  isCardflowOrderNo,
  judgeOrder,
  lateDepositFinding,
  orderStepOf,
  strandedFindings,
  walkLedger,
  type LedgerContext,
  type OwnerRun,
  type ProviderOrder,
} from '../../../domain/reconciliation-rules';
import { cardholderResult, cardOperationRecord, walletTransactionRecord } from '../../fixtures/provider-events';

const NOW = 1_700_000_000_000;
const config = DEFAULT_RECONCILE_CONFIG;
const ours = cardDepositWorkflow.orderKeys('onboarding-a/deposit').deposit;
const running: OwnerRun = { workflowId: 'onboarding-a/deposit', runId: 'r2', status: 'RUNNING' };
const failed: OwnerRun = { workflowId: 'onboarding-a/deposit', runId: 'r1', status: 'FAILED' };
const completed: OwnerRun = { ...running, status: 'COMPLETED' };

function operation(overrides: Parameters<typeof cardOperationRecord>[0], ageMs: number): ProviderOrder {
  return {
    event: { category: 'card_transaction', record: cardOperationRecord({ merchantOrderNo: ours, ...overrides }) },
    time: NOW - ageMs,
  };
}

describe('whose an order is', () => {
  it("tells cardflow's keys from others' and finds the step that derived one", () => {
    expect(isCardflowOrderNo(ours)).toBe(true);
    expect(isCardflowOrderNo('SHOP-20240101-000001')).toBe(false);
    expect(isCardflowOrderNo(`${ours}x`)).toBe(false);
    expect(orderStepOf('onboarding-a/deposit', ours)).toBe(cardDepositWorkflow.orderSteps.deposit);
    expect(orderStepOf('onboarding-b/deposit', ours)).toBeUndefined();
    expect(isCardflowOrderNo(deriveMerchantOrderNo('transfer-x', fundTransferWorkflow.orderSteps.transfer))).toBe(true);
  });

  it('speaks for an order through its running run, else its completed one', () => {
    expect(currentOwner([failed, running])).toBe(running);
    expect(currentOwner([failed, completed])).toBe(completed);
    expect(currentOwner([failed])).toBe(failed);
    expect(currentOwner([])).toBeUndefined();
  });
});

describe('judgeOrder', () => {
  it('re-delivers a final operation its running owner still waits on, once the grace has passed', () => {
    const late = judgeOrder(operation({ status: 'success' }, config.eventGraceMs + 1), [running], NOW, config);
    expect(late.redeliver).toBe(true);
    expect(late.finding).toMatchObject({ kind: FINDING_KINDS.missedEvent, ids: { workflowId: running.workflowId } });
    const early = judgeOrder(operation({ status: 'success' }, 1_000), [running], NOW, config);
    expect(early).toEqual({ redeliver: false });
  });

  it('finds nothing when the owner completed with the order done', () => {
    expect(judgeOrder(operation({ status: 'success' }, 3_600_000), [failed, completed], NOW, config)).toEqual({
      redeliver: false,
    });
  });

  it('reports a succeeded order whose workflow failed, and an order no workflow lists', () => {
    expect(judgeOrder(operation({ status: 'success' }, 3_600_000), [failed], NOW, config).finding?.kind).toBe(
      FINDING_KINDS.outcomeMismatch,
    );
    expect(judgeOrder(operation({ status: 'success' }, 3_600_000), [], NOW, config).finding?.kind).toBe(
      FINDING_KINDS.orphanOrder,
    );
  });

  it("reports another merchantOrderNo as external, and leaves the provider's own orders alone", () => {
    const external = judgeOrder(operation({ merchantOrderNo: 'SHOP-20240101-000001' }, 0), [], NOW, config);
    expect(external).toMatchObject({ redeliver: false, finding: { kind: FINDING_KINDS.externalOrder } });
    const riskCancel = judgeOrder(operation({ merchantOrderNo: null, type: 'cancel' }, 0), [], NOW, config);
    expect(riskCancel).toEqual({ redeliver: false });
  });

  it("sends a card's own operation past the event grace to the card's workflow, with the finding for when that started it", () => {
    const own = (type: 'blocked' | 'cancel' | 'deposit', age: number) =>
      judgeOrder(operation({ merchantOrderNo: null, type }, age), [], NOW, config);
    expect(own('blocked', config.eventGraceMs - 1)).toEqual({ redeliver: false });
    expect(own('blocked', config.eventGraceMs + 1)).toMatchObject({
      redeliver: false,
      toCard: { finding: { kind: FINDING_KINDS.missedEvent } },
    });
    expect(own('cancel', config.eventGraceMs + 1).toCard).toBeDefined();
    // An operation a merchant sends is followed by its sender, not started from here.
    expect(own('deposit', config.eventGraceMs + 1)).toEqual({ redeliver: false });
  });

  it('reports an operation pending past its SLA as stuck, not before', () => {
    const pending = (age: number) => judgeOrder(operation({ status: 'processing' }, age), [running], NOW, config);
    expect(pending(config.operationSlaMs + 1).finding?.kind).toBe(FINDING_KINDS.stuckOrder);
    expect(pending(config.operationSlaMs - 1)).toEqual({ redeliver: false });
  });

  it('re-delivers a passed review but not a rejection, whose workflow rightly waits for a correction', () => {
    const holder = (status: 'pass_audit' | 'reject' | 'under_review', age: number): ProviderOrder => ({
      event: { category: 'card_holder', record: cardholderResult({ merchantOrderNo: ours, status }) },
      time: NOW - age,
    });
    expect(judgeOrder(holder('pass_audit', config.eventGraceMs + 1), [running], NOW, config).redeliver).toBe(true);
    expect(judgeOrder(holder('reject', config.eventGraceMs + 1), [running], NOW, config).redeliver).toBe(false);
    expect(judgeOrder(holder('under_review', config.reviewSlaMs + 1), [running], NOW, config).finding?.kind).toBe(
      FINDING_KINDS.stuckReview,
    );
  });
});

function entry(overrides: Partial<LedgerEntry>): LedgerEntry {
  return {
    txId: '1',
    accountId: 'A1',
    currency: 'USD',
    amount: '10.00',
    beforeBalance: '100.00',
    afterBalance: '90.00',
    orderNo: 'P1',
    bizType: 'card_deposit',
    direction: 'OUT',
    remark: null,
    createTime: NOW,
    ...overrides,
  };
}

describe('explainLedgerEntry', () => {
  const context: LedgerContext = {
    cardOperation: (orderNo) =>
      ({
        P1: { merchantOrderNo: ours, type: 'deposit' },
        P2: { merchantOrderNo: 'SHOP-20240101-000001', type: 'deposit' },
        P3: { merchantOrderNo: null, type: 'cancel' },
      })[orderNo],
    authorizationKnown: (tradeNo) => tradeNo === 'T1',
  };

  it('explains card orders by whose merchantOrderNo their operation carries', () => {
    expect(explainLedgerEntry(entry({ orderNo: 'P1' }), context)).toBe('cardflow');
    expect(explainLedgerEntry(entry({ orderNo: 'P2' }), context)).toBe('external');
    expect(explainLedgerEntry(entry({ orderNo: 'P3', bizType: 'card_cancel', direction: 'IN' }), context)).toBe(
      'provider',
    );
    expect(explainLedgerEntry(entry({ orderNo: 'P9' }), context)).toBe('unexplained');
  });

  it("explains an authorization's fee by its authorization, a transfer by the key in its remark", () => {
    expect(explainLedgerEntry(entry({ orderNo: 'T1', bizType: 'card_auth_fee_patch' }), context)).toBe('provider');
    expect(explainLedgerEntry(entry({ orderNo: 'T9', bizType: 'card_auth_fee_patch' }), context)).toBe('unexplained');
    const transfer = deriveMerchantOrderNo('transfer-x', fundTransferWorkflow.orderSteps.transfer);
    expect(explainLedgerEntry(entry({ bizType: 'fund_transfer', remark: `${transfer} top-up` }), context)).toBe(
      'cardflow',
    );
    expect(explainLedgerEntry(entry({ bizType: 'fund_transfer', remark: 'manual' }), context)).toBe('external');
    expect(explainLedgerEntry(entry({ bizType: 'fixed', direction: 'IN' }), context)).toBe('external');
  });
});

describe('walkLedger', () => {
  // Newest first, as the ledger query answers.
  const entries = [
    entry({ txId: '3', beforeBalance: '80.00', afterBalance: '79.85', amount: '0.15', bizType: 'card_auth_fee_patch' }),
    entry({ txId: '2', beforeBalance: '90.00', afterBalance: '80.00', amount: '10.00' }),
    entry({ txId: '1', beforeBalance: '40.00', afterBalance: '90.00', amount: '50.00', direction: 'IN' }),
  ];

  it('recomputes the opening balance and the movement to the cent across pages', () => {
    const first = walkLedger(entries.slice(0, 2), { expectedAfter: '79.85', delta: '0' });
    const second = walkLedger(entries.slice(2), first.chain);
    expect([...first.breaks, ...second.breaks]).toEqual([]);
    expect(second.chain).toEqual({ expectedAfter: '40.00', delta: '39.85' });
  });

  it('names an entry that does not add up and a gap between entries', () => {
    const wrong = [entries[0]!, { ...entries[1]!, afterBalance: '80.01' }];
    const { breaks } = walkLedger(wrong, { expectedAfter: '79.85', delta: '0' });
    expect(breaks.map((b) => b.entry.txId)).toEqual(['2', '2']);
    expect(walkLedger(entries, { expectedAfter: '100.00', delta: '0' }).breaks[0]?.problem).toMatch(/79.85/);
  });
});

describe('balanceFindings', () => {
  const wallet = { accountId: 'W', accountType: 'WALLET', currency: 'USD', availableBalance: '99.99' };

  it('warns under the floor and under the pending commitments, exactly', () => {
    expect(balanceFindings(wallet, '100', undefined).map((f) => f.kind)).toEqual([FINDING_KINDS.belowFloor]);
    expect(balanceFindings(wallet, '99.99', '99.99')).toEqual([]);
    expect(balanceFindings(wallet, undefined, '100.00').map((f) => f.kind)).toEqual([FINDING_KINDS.belowCommitments]);
  });
});

describe('strandedFindings', () => {
  it('names each amount an open record holds: customer, card or account, amount, and how to acknowledge it', () => {
    const findings = strandedFindings({
      workflowId: 'onboarding-c1/stranded.r1',
      input: {
        customerRef: 'c1',
        sourceWorkflowId: 'onboarding-c1',
        reason: 'cancelled by an operator',
        left: [
          { where: 'card', account: '4001', amount: '50.00', currency: 'USD', why: 'no card withdraw' },
          { where: 'MARGIN', account: '7002', amount: '0.01', currency: 'USD', why: 'the return failed' },
        ],
      },
    });
    expect(findings).toEqual([
      expect.objectContaining({
        kind: FINDING_KINDS.strandedMoney,
        ids: { workflowId: 'onboarding-c1/stranded.r1', customerRef: 'c1', cardNo: '4001' },
        amount: '50.00',
        currency: 'USD',
        detail: 'onboarding-c1 (cancelled by an operator) left 50.00 USD in card 4001: no card withdraw',
        action: expect.stringContaining('cardflow acknowledge onboarding-c1/stranded.r1'),
      }),
      expect.objectContaining({ ids: expect.objectContaining({ accountId: '7002' }), amount: '0.01' }),
    ]);
  });
});

describe('lateDepositFinding', () => {
  const credited = walletTransactionRecord({ orderNo: 'W9', status: 'success', updateTime: NOW });
  const closed = (status: string, closeTime: number, workflowId = 'onboarding-c1/funding'): OwnerRun => ({
    workflowId,
    runId: 'r1',
    status,
    closeTime,
    customerRef: 'c1',
  });

  it('reports a credited deposit that arrived after every funding of its address had ended: customer, WALLET, amount', () => {
    const runs = [closed('CANCELLED', NOW - 60_000), closed('CANCELLED', NOW - 59_000, 'onboarding-c1')];
    expect(lateDepositFinding(credited, runs, '1001')).toEqual({
      kind: FINDING_KINDS.lateDeposit,
      ids: { orderNo: 'W9', workflowId: 'onboarding-c1', customerRef: 'c1', accountId: '1001' },
      amount: '118.40',
      currency: 'USD',
      detail: expect.stringContaining("after customer c1's funding onboarding-c1/funding ended CANCELLED"),
      action: expect.stringContaining('cardflow retry'),
    });
    expect(lateDepositFinding(credited, runs, undefined)?.ids.accountId).toBe('WALLET USD');
  });

  it('after a funding that completed with an earlier deposit: reported, no customer named', () => {
    const finding = lateDepositFinding(credited, [{ ...closed('COMPLETED', NOW - 1), customerRef: 'c2' }], '1001');
    expect(finding?.ids).toEqual({ orderNo: 'W9', workflowId: 'onboarding-c1/funding', accountId: '1001' });
    expect(finding?.detail).toContain('completed with an earlier deposit');
  });

  it('names no customer when several fundings of the shared address stopped', () => {
    const runs = [closed('FAILED', NOW - 2), { ...closed('TERMINATED', NOW - 1, 'funding-x'), customerRef: 'c2' }];
    const finding = lateDepositFinding(credited, runs, '1001');
    expect(finding?.ids.customerRef).toBeUndefined();
    expect(finding?.detail).toContain('customers c1, c2 ended without it');
  });

  it('not the deposit a funding took (it succeeded while the funding ran; its compensation names what stayed)', () => {
    expect(lateDepositFinding(credited, [closed('COMPLETED', NOW + 5_000)], '1001')).toBeUndefined();
    expect(lateDepositFinding(credited, [closed('FAILED', NOW + 5_000)], '1001')).toBeUndefined();
    expect(lateDepositFinding(credited, [closed('CANCELLED', NOW)], '1001')).toBeUndefined();
  });

  it('nothing while a funding of the address still runs, for an address no funding listed, or a deposit not credited', () => {
    const running = { workflowId: 'funding-y', runId: 'r2', status: 'RUNNING' };
    expect(lateDepositFinding(credited, [closed('CANCELLED', NOW - 1), running], '1001')).toBeUndefined();
    expect(lateDepositFinding(credited, [], '1001')).toBeUndefined();
    const runs = [closed('CANCELLED', NOW - 1)];
    for (const other of [
      { status: 'processing' as const },
      { status: 'fail' as const },
      { receivedAmount: '0' },
      { type: 'WITHDRAW' as const },
    ])
      expect(lateDepositFinding({ ...credited, ...other }, runs, '1001')).toBeUndefined();
  });
});

describe('report', () => {
  it('counts every finding but keeps a bounded list; repaired ones are not drift', () => {
    const finding = (repaired: boolean): Finding => ({
      kind: repaired ? FINDING_KINDS.missedEvent : FINDING_KINDS.orphanOrder,
      ids: {},
      detail: '',
      action: '',
      ...(repaired ? { repaired } : {}),
    });
    const many = Array.from({ length: MAX_REPORTED_FINDINGS + 5 }, (_, i) => finding(i % 2 === 0));
    const report = withFindings(emptyReport({ start: 0, end: 1 }), many);
    expect(report.findings).toHaveLength(MAX_REPORTED_FINDINGS);
    expect(report.omittedFindings).toBe(5);
    expect(report.findingCount).toBe(MAX_REPORTED_FINDINGS + 5);
    expect(report.repairedCount).toBe(Math.ceil((MAX_REPORTED_FINDINGS + 5) / 2));
    expect(report.driftCount + report.repairedCount).toBe(report.findingCount);
  });
});

/**
 * The lookup rules of the mutations without a merchantOrderNo (docs/exactly-once.md), with
 * MockActivityEnvironment and a stub provider: a cardholder correction recognised from the holder,
 * an upload's recorded fileId reused, a transfer found in the ledger when its balance check fails.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { ProviderBusinessError, ProviderTransportError } from '../../../provider/errors';
import type { CardholderQueryRecord } from '../../../provider/schemas/cardholder';
import { correctionOutcome, createCardholderActivities } from '../../../activities/cardholders';
import type { ActivityDeps, ProviderPort } from '../../../activities/deps';
import { createTransferActivities } from '../../../activities/transfers';
import { createWorkOrderActivities } from '../../../activities/work-orders';
import { createDirectoryFileStore } from '../../../platform/storage/file-store';
import { b2bHolder } from '../../fixtures/holders';
import { CARD_TYPE_IDS } from '../../../tools/sandbox/data/card-types';

const deps = (provider: Partial<ProviderPort>, extra: Partial<ActivityDeps> = {}): ActivityDeps => ({
  provider: provider as ProviderPort,
  ...extra,
});

const corrected = b2bHolder('fixed@example.com');
const ACCEPTED_AT = 1_700_000_000_000;

function holderRecord(over: Partial<CardholderQueryRecord>): CardholderQueryRecord {
  const { shape: _shape, ...fields } = corrected;
  return {
    holderId: '1989887271659823105',
    cardTypeId: CARD_TYPE_IDS.b2bVirtual,
    ...fields,
    statusFlowLocation: 'admin',
    status: 'wait_audit',
    statusStr: '',
    createTime: ACCEPTED_AT - 60_000,
    updateTime: ACCEPTED_AT + 5,
    ...over,
  };
}

describe('correctionOutcome', () => {
  it('applied: our fields, out of reject, or changed since the correction (even rejected again)', () => {
    expect(correctionOutcome(holderRecord({}), corrected, ACCEPTED_AT)).toBe('applied');
    expect(
      correctionOutcome(holderRecord({ status: 'pass_audit', statusFlowLocation: 'channel' }), corrected, ACCEPTED_AT),
    ).toBe('applied');
    expect(correctionOutcome(holderRecord({ status: 'reject' }), corrected, ACCEPTED_AT)).toBe('applied');
  });

  it('not applied: still the rejected holder, unchanged since, or still showing other data', () => {
    expect(
      correctionOutcome(holderRecord({ status: 'reject', updateTime: ACCEPTED_AT - 1 }), corrected, ACCEPTED_AT),
    ).toBe('not_applied');
    expect(
      correctionOutcome(holderRecord({ status: 'reject', email: 'old@example.com' }), corrected, ACCEPTED_AT),
    ).toBe('not_applied');
  });

  it('conflict: out of reject with data that is not ours', () => {
    expect(correctionOutcome(holderRecord({ email: 'someone-else@example.com' }), corrected, ACCEPTED_AT)).toBe(
      'conflict',
    );
  });
});

describe('updateCardholder', () => {
  const query = (record: CardholderQueryRecord) => (async () => ({ total: '1', records: [record] })) as never;

  /**
   * Runs updateCardholder (attempt `attempt`) for our correction against a provider whose update
   * call does `update` and whose query finds `found`; `calls.sent` counts the update calls.
   */
  function correct(update: () => Promise<never>, found: CardholderQueryRecord, attempt = 1) {
    const calls = { sent: 0 };
    const activities = createCardholderActivities(
      deps({
        updateCardholder: async () => {
          calls.sent += 1;
          return update();
        },
        queryCardholders: query(found),
      }),
    );
    const outcome: ReturnType<typeof activities.updateCardholder> = new MockActivityEnvironment({ attempt }).run(
      activities.updateCardholder,
      {
        holderId: '1989887271659823105',
        holder: corrected,
        correctionAt: ACCEPTED_AT,
      },
    );
    return { outcome, calls };
  }

  it('a refusal after the provider applied the correction (its answer lost, then 40005) is our update, not a failure', async () => {
    const { outcome, calls } = correct(async () => {
      throw new ProviderBusinessError({ code: 40005, msg: 'update is allowed only when status=reject' });
    }, holderRecord({}));
    expect(await outcome).toMatchObject({ holderId: '1989887271659823105', status: 'wait_audit' });
    expect(calls.sent).toBe(1);
  });

  it('a retry finds the correction applied and sends nothing', async () => {
    const { outcome, calls } = correct(
      async () => {
        throw new Error('must not be called');
      },
      holderRecord({ status: 'under_review', statusFlowLocation: 'channel' }),
      2,
    );
    expect((await outcome).status).toBe('under_review');
    expect(calls.sent).toBe(0);
  });

  it('an ambiguous outcome that did not apply fails retryably, to send again; a change by someone else is a conflict', async () => {
    const retried = await correct(
      async () => {
        throw new ProviderTransportError('socket hang up', { code: 'ECONNRESET' });
      },
      holderRecord({ status: 'reject', updateTime: ACCEPTED_AT - 10, email: 'old@example.com' }),
    ).outcome.catch((e: unknown) => e);
    expect(retried).toMatchObject({ type: 'ProviderTransportError', nonRetryable: false });

    const conflict = await correct(
      async () => {
        throw new ProviderBusinessError({ code: 40005, msg: 'not in reject' });
      },
      holderRecord({ email: 'dashboard@example.com' }),
    ).outcome.catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ApplicationFailure);
    expect(conflict).toMatchObject({ type: 'CorrectionConflict', nonRetryable: true });
  });
});

describe('uploadStoredFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'upload-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('records the fileId; a later attempt or run of the same workflow reuses it without uploading', async () => {
    const store = createDirectoryFileStore(dir);
    const { ref } = await store.put(Buffer.from('%PDF-1.4\n'), 'note.pdf');
    let uploads = 0;
    const activities = createWorkOrderActivities(
      deps(
        {
          uploadFile: async () => ({ fileId: `F${++uploads}` }),
        },
        { fileStore: store },
      ),
    );
    const env = () => new MockActivityEnvironment({ workflowExecution: { workflowId: 'activation-C1', runId: 'r1' } });
    expect(await env().run(activities.uploadStoredFile, { ref })).toEqual({ fileId: 'F1' });
    expect(await env().run(activities.uploadStoredFile, { ref })).toEqual({ fileId: 'F1' });
    expect(uploads).toBe(1);
    const other = new MockActivityEnvironment({ workflowExecution: { workflowId: 'activation-C2', runId: 'r1' } });
    expect(await other.run(activities.uploadStoredFile, { ref })).toEqual({ fileId: 'F2' });
  });

  it('a reference the store does not hold fails without retrying, naming the file', async () => {
    const activities = createWorkOrderActivities(deps({}, { fileStore: createDirectoryFileStore(dir) }));
    const error = await new MockActivityEnvironment()
      .run(activities.uploadStoredFile, { ref: `${'0'.repeat(64)}.pdf` })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      type: 'InvalidInput',
      nonRetryable: true,
      message: expect.stringContaining('not in the file store'),
    });
  });
});

describe('transferFunds', () => {
  const wallet = {
    accountId: '1',
    accountName: 'wallet',
    accountType: 'WALLET',
    currency: 'USD',
    totalBalance: '5.00',
    availableBalance: '5.00',
    frozenBalance: '0',
    digital: 2,
  };
  const leg = (accountId: string, direction: 'IN' | 'OUT') => ({
    txId: `${accountId}${direction}`,
    accountId,
    amount: '10.01',
    beforeBalance: '0',
    afterBalance: '0',
    orderNo: 'P1',
    bizType: 'fund_transfer',
    direction,
    remark: 'CFabc',
    createTime: 1,
  });

  it('a short balance that is the transfer already made is found in the ledger, and nothing is sent', async () => {
    let sent = 0;
    const activities = createTransferActivities(
      deps({
        getAccount: (async () => wallet) as never,
        transferFunds: (async () => {
          sent += 1;
          return true;
        }) as never,
        listLedgerEntries: (async () => ({ total: '2', records: [leg('1', 'OUT'), leg('2', 'IN')] })) as never,
      }),
    );
    const result = await new MockActivityEnvironment().run(activities.transferFunds, {
      merchantOrderNo: 'CFabc',
      type: 'TRANSFER' as const,
      amount: '10.01',
      payerAccountId: '1',
      payeeAccountId: '2',
    });
    expect(result).toEqual({ merchantOrderNo: 'CFabc', sent: false });
    expect(sent).toBe(0);
  });

  it('a short balance with no such transfer is refused before anything is sent', async () => {
    const activities = createTransferActivities(
      deps({
        getAccount: (async () => wallet) as never,
        listLedgerEntries: async () => ({ total: '0', records: [] }),
      }),
    );
    const error = await new MockActivityEnvironment()
      .run(activities.transferFunds, {
        merchantOrderNo: 'CFabc',
        type: 'TRANSFER' as const,
        amount: '10.01',
        payerAccountId: '1',
        payeeAccountId: '2',
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'InsufficientBalance', nonRetryable: true });
  });
});

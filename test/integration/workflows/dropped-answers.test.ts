/**
 * Every mutating operation cardflow sends (docs/exactly-once.md), with the provider committing it
 * and its answer lost: once, and twice in a row (the mutation's answer, then the answer of the
 * read its activity resolves the ambiguity with). Each scenario runs on a fresh sandbox, so the
 * sandbox's commit log shows every effect at the provider; the workflow must complete with the
 * right result, and the operation must have been committed exactly once. The one operation with
 * neither a key nor a lookup, the file upload, is held to what it can promise: one referenced file,
 * a spare one per lost answer.
 */
import type { Client } from '@temporalio/client';
import { add, cmp } from '../../../provider/money';
import type { Commit } from '../../../tools/sandbox';
import {
  cardholderStatusQuery,
  correctCardholderUpdate,
  type CardholderOnboardingResult,
} from '../../../domain/cardholder-onboarding';
import type { CardDepositResult } from '../../../domain/card-deposit';
import type { CardIssuanceResult } from '../../../domain/card-issuance';
import type { CardOperationOutcome } from '../../../domain/card-operations';
import type { FundTransferResult } from '../../../domain/fund-transfer';
import { activationStatusQuery, type PhysicalCardActivationResult } from '../../../domain/physical-card-activation';
import type { SharedAccountResult } from '../../../domain/shared-account';
import { fundingStatusQuery, type WalletFundingResult } from '../../../domain/wallet-funding';
import { WorkflowTypes } from '../../../domain/workflows';
import { idvHolder } from '../../fixtures/holders';
import {
  account,
  activePhysicalCard,
  CARD_TYPES,
  eventually,
  FAST_WAIT,
  physicalCard,
  startCardHarness,
  SUBSCRIPTION_TYPE,
  testOrderNo,
  virtualCard,
  walletAccount,
  type CardHarness,
} from '../support/card-harness';
import { cardholdersByEmail } from '../support/harness';
import { b2bHolder, uniqueEmail } from '../support/holders';

jest.setTimeout(120_000);

const PDF = Buffer.from('%PDF-1.4\n% proof of delivery\n');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7]);

/**
 * One row of docs/exactly-once.md: the operation, the reads that resolve its ambiguity, a scenario.
 */
interface Row {
  operation: string;
  /**
   * Reads the activity makes to find an earlier attempt's effect (the "twice" variant loses one
   * answer of these).
   */
  lookups: string[];
  /**
   * Prepares what the operation needs, calls `arm()` right before the workflow sends the mutation,
   * runs the workflow to completion and returns the check of the outcome, given the commits of
   * the operation made after `arm()`.
   */
  scenario: (h: CardHarness, arm: () => void) => Promise<(commits: Commit[]) => Promise<void>>;
}

let n = 0;
const id = (label: string) => `${label}-${Date.now().toString(36)}-${++n}`;

function execute<T>(client: Client, taskQueue: string, type: string, workflowId: string, args: object): Promise<T> {
  return client.workflow.execute(type, { taskQueue, workflowId, args: [{ wait: FAST_WAIT, ...args }] }) as Promise<T>;
}

async function cardRecords(h: CardHarness, cardNo: string, type: string) {
  return (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, cardNo, type: type as never })).records;
}

/**
 * A card operation (`workflowType` with `args`) on the card `card` prepares: the workflow returns
 * `outcome` under the order number of the one commit, and the card holds one record of
 * `recordType`.
 */
function cardOperationScenario(
  workflowType: string,
  card: (h: CardHarness) => Promise<string>,
  outcome: Record<string, unknown>,
  recordType: string,
  args: (h: CardHarness) => object = () => ({}),
): Row['scenario'] {
  return async (h, arm) => {
    const cardNo = await card(h);
    arm();
    const result = await h.withCardWorker(() =>
      execute<CardOperationOutcome>(h.client, h.taskQueue, workflowType, id(String(outcome.kind)), {
        cardNo,
        ...args(h),
      }),
    );
    return async (commits) => {
      expect(result).toMatchObject(outcome);
      expect(commits[0]!.refs.merchantOrderNo).toBe(result.merchantOrderNo);
      expect(await cardRecords(h, cardNo, recordType)).toHaveLength(1);
    };
  };
}

/** A virtual card the provider has frozen. */
async function frozenCard(h: CardHarness): Promise<string> {
  const cardNo = await virtualCard(h.provider);
  await h.provider.freezeCard({ cardNo, merchantOrderNo: testOrderNo() });
  await eventually(
    async () => (await h.provider.getCardInfo({ cardNo })).status,
    (s) => s === 'Freeze',
    'the fixture freeze',
  );
  return cardNo;
}

/** A cardholder created while answers drop: passed, and the only holder of its email. */
async function creationScenario(h: CardHarness, arm: () => void, label: string, holder: object & { email: string }) {
  arm();
  const result = await h.withCardWorker(() =>
    execute<CardholderOnboardingResult>(h.client, h.taskQueue, WorkflowTypes.cardholderOnboarding, id(label), {
      cardTypeId: CARD_TYPES.b2bWithDeposit,
      holder,
    }),
  );
  return async (commits: Commit[]) => {
    expect(result.status).toBe('pass_audit');
    expect(commits[0]!.refs.holderId).toBe(result.holderId);
    expect((await cardholdersByEmail(h.provider, holder.email)).map((x) => x.holderId)).toEqual([result.holderId]);
  };
}

async function correctionScenario(
  h: CardHarness,
  arm: () => void,
  holders: { rejected: object; corrected: object & { email: string } },
) {
  const result = await h.withCardWorker(async () => {
    const handle = await h.client.workflow.start(WorkflowTypes.cardholderOnboarding, {
      taskQueue: h.taskQueue,
      workflowId: id('correction'),
      args: [{ cardTypeId: CARD_TYPES.b2bWithDeposit, holder: holders.rejected, wait: FAST_WAIT }],
    });
    await eventually(
      () => handle.query(cardholderStatusQuery),
      (s) => s.stage === 'awaiting_correction',
      'the reject',
    );
    arm();
    const after = await handle.executeUpdate(correctCardholderUpdate, { args: [{ holder: holders.corrected }] });
    expect(after.resubmissions).toBe(1);
    return (await handle.result()) as CardholderOnboardingResult;
  });
  return async (commits: Commit[]) => {
    expect(result).toMatchObject({ status: 'pass_audit', resubmissions: 1 });
    expect(commits[0]!.refs.holderId).toBe(result.holderId);
    const found = await cardholdersByEmail(h.provider, holders.corrected.email);
    expect(found.map((x) => [x.holderId, x.status])).toEqual([[result.holderId, 'pass_audit']]);
  };
}

async function workOrderScenario(h: CardHarness, arm: () => void, files: (h: CardHarness) => Promise<object[]>) {
  const { cardNo } = await physicalCard(h.provider);
  const workOrderFiles = await files(h);
  arm();
  const result = await h.withCardWorker(() =>
    execute<PhysicalCardActivationResult>(h.client, h.taskQueue, WorkflowTypes.physicalCardActivation, id('wo'), {
      cardNo,
      route: 'work_order',
      workOrder: { content: 'Card received by the holder', files: workOrderFiles },
    }),
  );
  expect(result).toMatchObject({ cardNo, route: 'work_order', cardStatus: 'Normal' });
  const orders = (await h.provider.listWorkOrders({ target: cardNo, pageSize: 100 })).records;
  expect(orders).toHaveLength(1);
  expect(orders[0]).toMatchObject({ tradeType: 'CARD_ACTIVE', tradeStatus: 'success' });
  return result;
}

const ROWS: Row[] = [
  {
    operation: 'createCardholder',
    lookups: ['queryCardholders'],
    scenario: (h, arm) => creationScenario(h, arm, 'holder', b2bHolder(uniqueEmail('drop.create'))),
  },
  {
    operation: 'createCardholderIdv',
    lookups: ['queryCardholders'],
    scenario: (h, arm) => creationScenario(h, arm, 'idv', idvHolder(uniqueEmail('drop.idv'))),
  },
  {
    operation: 'updateCardholder',
    lookups: ['queryCardholders'],
    scenario: (h, arm) =>
      correctionScenario(h, arm, {
        rejected: b2bHolder(uniqueEmail('reject.admin')),
        corrected: b2bHolder(uniqueEmail('drop.fixed')),
      }),
  },
  {
    operation: 'updateCardholderIdv',
    lookups: ['queryCardholders'],
    scenario: (h, arm) =>
      correctionScenario(h, arm, {
        rejected: idvHolder(uniqueEmail('reject.admin')),
        corrected: idvHolder(uniqueEmail('drop.idvfixed')),
      }),
  },
  {
    operation: 'createCard',
    lookups: ['listCardTransactions'],
    scenario: async (h, arm) => {
      const walletBefore = (await walletAccount(h.provider)).availableBalance;
      arm();
      const result = await h.withCardWorker(() =>
        execute<CardIssuanceResult>(h.client, h.taskQueue, WorkflowTypes.cardIssuance, id('card'), {
          cardTypeId: CARD_TYPES.noHolderNoDeposit,
        }),
      );
      return async (commits) => {
        expect(commits[0]!.refs).toMatchObject({ cardNo: result.cardNo, merchantOrderNo: result.merchantOrderNo });
        expect(await cardRecords(h, result.cardNo, 'create')).toHaveLength(1);
        // The card fee was charged once.
        const fee = (await h.provider.listCardTypes()).find((t) => t.cardTypeId === CARD_TYPES.noHolderNoDeposit)!;
        expect(cmp(add((await walletAccount(h.provider)).availableBalance, fee.cardPrice), walletBefore)).toBe(0);
      };
    },
  },
  {
    operation: 'depositCard',
    lookups: ['listCardTransactions'],
    scenario: async (h, arm) => {
      const cardNo = await virtualCard(h.provider);
      arm();
      const result = await h.withCardWorker(() =>
        execute<CardDepositResult>(h.client, h.taskQueue, WorkflowTypes.cardDeposit, id('deposit'), {
          cardNo,
          amount: '10',
          cardTypeId: SUBSCRIPTION_TYPE,
        }),
      );
      return async (commits) => {
        expect(commits[0]!.refs.merchantOrderNo).toBe(result.merchantOrderNo);
        expect(await cardRecords(h, cardNo, 'deposit')).toHaveLength(1);
        expect(cmp((await h.provider.getCardBalance({ cardNo })).amount, '10')).toBe(0);
      };
    },
  },
  {
    operation: 'freezeCard',
    lookups: ['listCardTransactions'],
    scenario: cardOperationScenario(
      WorkflowTypes.cardFreeze,
      (h) => virtualCard(h.provider),
      { kind: 'freeze', status: 'success', cardStatus: 'Freeze' },
      'Freeze',
    ),
  },
  {
    operation: 'unfreezeCard',
    lookups: ['listCardTransactions'],
    scenario: cardOperationScenario(
      WorkflowTypes.cardUnfreeze,
      frozenCard,
      { kind: 'unfreeze', status: 'success', cardStatus: 'Normal' },
      'UnFreeze',
    ),
  },
  {
    operation: 'updatePin',
    lookups: ['listCardTransactions'],
    scenario: cardOperationScenario(
      WorkflowTypes.cardPinUpdate,
      async (h) => (await activePhysicalCard(h)).cardNo,
      { kind: 'updatePin', status: 'success' },
      'update_pin',
      (h) => ({ sealedPin: h.seal('907153') }),
    ),
  },
  {
    operation: 'activatePhysicalCard',
    lookups: ['getCardInfo'],
    scenario: async (h, arm) => {
      const { cardNo } = await physicalCard(h.provider);
      const result = await h.withCardWorker(async () => {
        const handle = await h.client.workflow.start(WorkflowTypes.physicalCardActivation, {
          taskQueue: h.taskQueue,
          workflowId: id('activate'),
          args: [{ cardNo, route: 'activation_code', sealedPin: h.seal('135790'), wait: FAST_WAIT }],
        });
        await eventually(
          () => handle.query(activationStatusQuery),
          (s) => s.stage === 'awaiting_code',
          'awaiting_code',
        );
        await h.helper('issueActivationCode', { cardNo });
        arm();
        return (await handle.result()) as PhysicalCardActivationResult;
      });
      return async (commits) => {
        expect(result).toMatchObject({ cardNo, route: 'activation_code', cardStatus: 'Normal' });
        expect(commits[0]!.refs.merchantOrderNo).toBe(result.merchantOrderNo);
        expect((await h.provider.getCardInfo({ cardNo })).status).toBe('Normal');
      };
    },
  },
  {
    operation: 'submitWorkOrder',
    lookups: ['listWorkOrders'],
    scenario: async (h, arm) => {
      const result = await workOrderScenario(h, arm, async (world) => [
        {
          fileId: (
            await world.provider.uploadFile({
              category: 'card',
              file: { filename: 'card.png', contentType: 'image/png', data: PNG },
            })
          ).fileId,
        },
      ]);
      return async (commits) => {
        expect(commits[0]!.refs.merchantOrderNo).toBe(result.merchantOrderNo);
      };
    },
  },
  {
    operation: 'transferFunds',
    lookups: ['listLedgerEntries'],
    scenario: async (h, arm) => {
      const margin = (await h.provider.createSharedAccount({ accountName: id('pool') })).accountId;
      const wallet = await walletAccount(h.provider);
      arm();
      const result = await h.withCardWorker(() =>
        execute<FundTransferResult>(h.client, h.taskQueue, WorkflowTypes.fundTransfer, id('transfer'), {
          type: 'TRANSFER',
          amount: '10.01',
          payerAccountId: wallet.accountId,
          payeeAccountId: margin,
        }),
      );
      return async (commits) => {
        expect(commits[0]!.refs.merchantOrderNo).toBe(result.merchantOrderNo);
        expect(cmp((await account(h.provider, margin)).availableBalance, '10.01')).toBe(0);
        expect(cmp(add((await walletAccount(h.provider)).availableBalance, '10.01'), wallet.availableBalance)).toBe(0);
        const legs = (await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 100, bizType: 'fund_transfer' }))
          .records;
        expect(legs.filter((e) => (e.remark ?? '').startsWith(result.merchantOrderNo))).toHaveLength(2);
      };
    },
  },
  {
    operation: 'createSharedAccount',
    lookups: ['getAccountInfo'],
    scenario: async (h, arm) => {
      const accountName = id('Shared budget');
      arm();
      const result = await h.withCardWorker(() =>
        execute<SharedAccountResult>(h.client, h.taskQueue, WorkflowTypes.sharedAccount, id('shared'), {
          accountName,
        }),
      );
      return async (commits) => {
        expect(result.accountName).toBe(accountName);
        expect(commits[0]!.refs.accountId).toBe(result.accountId);
        const named = (await h.provider.getAccountInfo()).filter((a) => a.accountName === accountName);
        expect(named.map((a) => a.accountId)).toEqual([result.accountId]);
      };
    },
  },
  {
    operation: 'createWalletAddress',
    lookups: ['listWalletAddresses'],
    scenario: async (h, arm) => {
      arm();
      const result = await h.withCardWorker(async () => {
        const handle = await h.client.workflow.start(WorkflowTypes.walletFunding, {
          taskQueue: h.taskQueue,
          workflowId: id('funding'),
          args: [{ coinKey: 'USDT_BEP20', expectedAmount: '20', wait: FAST_WAIT }],
        });
        await eventually(
          () => handle.query(fundingStatusQuery),
          (s) => s.stage === 'awaiting_deposit',
          'awaiting_deposit',
        );
        await h.helper('creditWalletDeposit', { coinKey: 'USDT_BEP20', amount: '20' });
        return (await handle.result()) as WalletFundingResult;
      });
      return async (commits) => {
        expect(commits[0]!.refs.address).toBe(result.address);
        const addresses = (await h.provider.listWalletAddresses()).filter((a) => a.coinKey === 'USDT_BEP20');
        expect(addresses.map((a) => a.address)).toEqual([result.address]);
      };
    },
  },
];

describe.each(ROWS)('$operation: committed, its answer lost', (row) => {
  it.each([
    ['once', 1],
    ['twice in a row', 2],
  ])('%s: completes, and the provider committed it exactly once', async (_label, losses) => {
    const h = await startCardHarness();
    try {
      let after = 0;
      const arm = () => {
        after = h.sandbox.commits().length;
        h.sandbox.setFaults({
          reset: true,
          dropResponseRate: 1,
          operations: losses === 1 ? [row.operation] : [row.operation, ...row.lookups],
          remaining: losses,
          inOrder: true,
        });
      };
      const check = await row.scenario(h, arm);
      expect(h.sandbox.faults().remaining).toBe(0); // every loss happened
      h.sandbox.setFaults({ reset: true });
      const commits = h.sandbox.commits({ operation: row.operation }).filter((c) => c.seq > after);
      expect(commits.map((c) => c.dropped)).toEqual([true]);
      await check(commits);
    } finally {
      await h.stop();
    }
  });
});

describe('uploadFile: no key and no lookup at the provider', () => {
  it.each([1, 2])(
    'with %i answers lost: the work order references one file, each lost answer leaves one spare upload',
    async (losses) => {
      const h = await startCardHarness();
      try {
        let after = 0;
        const result = await workOrderScenario(
          h,
          () => {
            after = h.sandbox.commits().length;
            h.sandbox.setFaults({ reset: true, dropResponseRate: 1, operations: ['uploadFile'], remaining: losses });
          },
          async (world) => [await world.fileStore.put(PDF, 'delivery-note.pdf')],
        );
        h.sandbox.setFaults({ reset: true });
        const uploads = h.sandbox.commits({ operation: 'uploadFile' }).filter((c) => c.seq > after);
        expect(uploads.map((c) => c.dropped)).toEqual([...Array<boolean>(losses).fill(true), false]);
        expect(result.fileIds).toEqual([uploads[losses]!.refs.fileId]);
      } finally {
        await h.stop();
      }
    },
  );
});

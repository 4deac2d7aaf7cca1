/**
 * Every mutating operation a merchant runs through cardflow's card and fund workflows survives a
 * worker crash without duplicating anything: cardholder create and update (correction), for B2B
 * and IDV holders, card create, shared account, transfers both ways, wallet address, card
 * deposits, freeze, unfreeze, PIN, activation by code, work order, supporting file upload, and an
 * Update of the card entity.
 *
 * The real worker process (`workers/main.ts`) reaches the provider through a gate
 * (test/integration/support/worker-process.ts) that forwards each mutation, lets the sandbox
 * commit it, and holds the answer. Once every mutation below is committed and unanswered, the
 * worker is killed with SIGKILL: each activity was sent and its outcome never recorded. A second
 * worker process retries them (after their 3 s heartbeat timeout) and must find, not
 * repeat, what the dead one did. The sandbox's own state then shows each mutation exactly once:
 * ledger legs and balances to the cent, operation records per merchantOrderNo, holders, work
 * orders, addresses, shared accounts. The upload, which has neither key nor lookup, is made again
 * and leaves one spare file that nothing references.
 *
 * One kill serves every workflow (they are started together).
 * The workflows are split over two task queues, each with its own worker process killed at the
 * same moment, so that no worker holds every held answer on its connections while the others
 * still need reads.
 */
import { randomBytes } from 'node:crypto';
import { testCodecKeys } from '../support/temporal-env';
import { WorkflowUpdateStage, type Client, type WorkflowHandle } from '@temporalio/client';
import { operations } from '../../../provider/operations';
import { add, cmp, sub } from '../../../provider/money';
import { cardSnapshotQuery, freezeUpdate } from '../../../domain/card-entity';
import {
  cardholderStatusQuery,
  correctCardholderUpdate,
  type CardholderOnboardingResult,
} from '../../../domain/cardholder-onboarding';
import type { CardDepositResult } from '../../../domain/card-deposit';
import type { CardIssuanceResult } from '../../../domain/card-issuance';
import type { CardOperationOutcome } from '../../../domain/card-operations';
import type { FundTransferResult } from '../../../domain/fund-transfer';
import type { PhysicalCardActivationResult } from '../../../domain/physical-card-activation';
import type { SharedAccountResult } from '../../../domain/shared-account';
import type { WalletFundingResult } from '../../../domain/wallet-funding';
import { WorkflowTypes } from '../../../domain/workflows';
import { cardholdersByEmail, encryptingClient } from '../support/harness';
import { idvHolder } from '../../fixtures/holders';
import { b2bHolder, uniqueEmail } from '../support/holders';
import {
  startProviderGate,
  startWorkerProcess,
  type ProviderGate,
  type WorkerProcess,
} from '../support/worker-process';
import {
  account,
  activePhysicalCard,
  CARD_TYPES,
  eventually,
  FAST_WAIT,
  physicalCard,
  startCardHarness,
  workerProcessEnv,
  SUBSCRIPTION_TYPE,
  testOrderNo,
  virtualCard,
  walletAccount,
  type CardHarness,
} from '../support/card-harness';
import { cardEntityWorkflowId, activationWorkflowId } from '../../../domain/workflow-ids';

// Two worker start-ups (each bundles the workflows), on a shared machine.
jest.setTimeout(300_000);

const codecKeys = testCodecKeys('lifecycle-crash');
const run = randomBytes(3).toString('hex');

/** The mutations held, by operation name: how many answers the first worker must be denied. */
const HELD = {
  transferFunds: 3, // TRANSFER, COLLECTION, the wallet funding's transfer child
  depositCard: 2, // a cardDeposit, the wallet funding's deposit child
  freezeCard: 2, // cardFreeze, the card entity's freeze Update
  unfreezeCard: 1,
  updatePin: 1,
  activatePhysicalCard: 1,
  submitWorkOrder: 1,
  createSharedAccount: 1,
  createWalletAddress: 1,
  createCardholder: 1,
  updateCardholder: 1, // the correction of a rejected holder
  createCardholderIdv: 1,
  updateCardholderIdv: 1, // the correction of a rejected IDV holder
  uploadFile: 1, // a stored supporting file of a second work order
  createCard: 1,
} as const satisfies Partial<Record<keyof typeof operations, number>>;

let h: CardHarness;
let gate: ProviderGate;
let client: Client;
const workers: WorkerProcess[] = [];

interface Fixtures {
  walletId: string;
  margin: string;
  freezeCard: string;
  unfreezeCard: string;
  pinCard: string;
  codeCard: string;
  orderCard: string;
  /** An uploaded file for the work order of orderCard (the upload itself is uploadCard's). */
  orderFileId: string;
  uploadCard: string;
  depositCard: string;
  entityCard: string;
  fundedCard: string;
}
let f: Fixtures;

/** Task queue A (h.taskQueue) and B, each served by its own worker process. */
type Queue = 'a' | 'b';
const queueName = (queue: Queue) => (queue === 'a' ? h.taskQueue : `${h.taskQueue}-b`);

function workerProcess(queue: Queue, extra: Record<string, string> = {}): WorkerProcess {
  const worker = startWorkerProcess({
    ...workerProcessEnv(h, { providerUrl: gate.url, taskQueue: queueName(queue), codecKeys }),
    ...extra,
  });
  workers.push(worker);
  return worker;
}

function start(queue: Queue, type: string, workflowId: string, args: Record<string, unknown>): Promise<WorkflowHandle> {
  return client.workflow.start(type, {
    taskQueue: queueName(queue),
    workflowId: `${workflowId}-${run}`,
    args: [{ wait: FAST_WAIT, ...args }],
  });
}

/**
 * `eventually` with the patience of worker restarts: queries fail while no worker runs; a timeout
 * shows the workers' output.
 */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  try {
    const value = await eventually(
      () => read().catch(() => undefined),
      (v) => v !== undefined && ok(v),
      what,
      150_000,
    );
    return value as T;
  } catch (error) {
    throw new Error(`${String(error)}\nworker output:\n${workers.map((w) => w.output().slice(-4000)).join('\n---\n')}`);
  }
}

/**
 * The attempt on which each `activityType` activity of a workflow completed (history:
 * ActivityTaskStarted records the last attempt).
 */
async function attempts(workflowId: string, activityType: string): Promise<number[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const scheduled = new Set<string>();
  const found: number[] = [];
  for (const event of history.events ?? []) {
    if (event.activityTaskScheduledEventAttributes?.activityType?.name === activityType)
      scheduled.add(String(event.eventId));
    const started = event.activityTaskStartedEventAttributes;
    if (started && scheduled.has(String(started.scheduledEventId))) found.push(started.attempt ?? 0);
  }
  return found;
}

async function operationsOf(merchantOrderNo: string) {
  return (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, merchantOrderNo })).records.filter(
    (r) => r.merchantOrderNo === merchantOrderNo,
  );
}

async function recordsOf(cardNo: string, type: 'Freeze' | 'UnFreeze' | 'update_pin' | 'deposit') {
  return (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, cardNo, type })).records;
}

async function ledgerLegs(merchantOrderNo: string, bizType: 'fund_transfer' | 'fund_collection') {
  return (await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 100, bizType })).records.filter((e) =>
    (e.remark ?? '').startsWith(merchantOrderNo),
  );
}

beforeAll(async () => {
  h = await startCardHarness();
  gate = await startProviderGate(h.sandbox.env.CARDFLOW_PROVIDER_BASE_URL!);
  client = encryptingClient(h, codecKeys);

  // Fixtures straight through the provider API (no workflow, no gate).
  const margin = (await h.provider.createSharedAccount({ accountName: 'Crash pool' })).accountId;
  await h.helper('creditMerchantWallet', { amount: '200', accountId: margin });
  await h.provider.createWalletAddress({ coinKey: 'USDT_TRC20' }); // the two TRC20 fundings reuse it; BEP20 has none yet
  const unfreezeCard = await virtualCard(h.provider, { deposit: '20' });
  await h.provider.freezeCard({ merchantOrderNo: testOrderNo(), cardNo: unfreezeCard });
  await eventually(
    async () => (await h.provider.getCardInfo({ cardNo: unfreezeCard })).status,
    (s) => s === 'Freeze',
    'frozen fixture',
  );
  const pinCard = (await activePhysicalCard(h)).cardNo;
  const codeCard = (await physicalCard(h.provider)).cardNo;
  await h.helper('issueActivationCode', { cardNo: codeCard });
  f = {
    walletId: (await walletAccount(h.provider)).accountId,
    margin,
    freezeCard: await virtualCard(h.provider, { deposit: '20' }),
    unfreezeCard,
    pinCard,
    codeCard,
    orderCard: (await physicalCard(h.provider)).cardNo,
    orderFileId: (
      await h.provider.uploadFile({
        category: 'card',
        file: {
          filename: 'card.png',
          contentType: 'image/png',
          data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]),
        },
      })
    ).fileId,
    uploadCard: (await physicalCard(h.provider)).cardNo,
    depositCard: await virtualCard(h.provider),
    entityCard: await virtualCard(h.provider, { deposit: '20' }),
    fundedCard: await virtualCard(h.provider),
  };
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await gate?.close();
  await h?.stop();
});

it('every mutation committed by a killed worker happens exactly once after the restart', async () => {
  // The HTTP timeout above the time the answers are held, so the first workers never give up by
  // themselves.
  const first = [
    workerProcess('a', { CARDFLOW_PROVIDER_TIMEOUT_MS: '55000' }),
    workerProcess('b', { CARDFLOW_PROVIDER_TIMEOUT_MS: '55000' }),
  ];
  await Promise.all(first.map((w) => w.polling(150_000)));

  // Two fundings on the TRC20 address wait for their deposits (told apart by amount).
  const fundingTransfer = await start('a', WorkflowTypes.walletFunding, 'crash-funding-transfer', {
    coinKey: 'USDT_TRC20',
    expectedAmount: '150',
    transfer: { payeeAccountId: f.margin },
  });
  const fundingDeposit = await start('b', WorkflowTypes.walletFunding, 'crash-funding-deposit', {
    coinKey: 'USDT_TRC20',
    expectedAmount: '60',
    cardDeposit: { cardNo: f.fundedCard, cardTypeId: SUBSCRIPTION_TYPE, amount: '30' },
  });
  for (const funding of [fundingTransfer, fundingDeposit])
    await until(
      () => funding.query<{ stage: string }>('fundingStatus'),
      (s) => s.stage === 'awaiting_deposit',
      'awaiting_deposit',
    );
  // A holder rejected by the platform waits for its correction.
  const rejectedEmail = uniqueEmail('reject.admin');
  const holderUpdate = await start('a', WorkflowTypes.cardholderOnboarding, 'crash-holder-update', {
    cardTypeId: CARD_TYPES.b2bWithDeposit,
    holder: b2bHolder(rejectedEmail),
  });
  const rejectedIdvEmail = uniqueEmail('reject.admin');
  const idvUpdate = await start('a', WorkflowTypes.cardholderOnboarding, 'crash-idv-update', {
    cardTypeId: CARD_TYPES.b2bWithDeposit,
    holder: idvHolder(rejectedIdvEmail),
  });
  for (const rejected of [holderUpdate, idvUpdate])
    await until(
      () => rejected.query(cardholderStatusQuery),
      (s) => s.stage === 'awaiting_correction',
      'awaiting_correction',
    );
  const entity = await client.workflow.start(WorkflowTypes.cardEntity, {
    taskQueue: queueName('b'),
    workflowId: cardEntityWorkflowId(f.entityCard),
    args: [{ cardNo: f.entityCard, wait: FAST_WAIT }],
  });
  await until(
    () => entity.query(cardSnapshotQuery),
    (s) => s.status === 'Normal',
    'card entity ready',
  );

  const walletBefore = (await walletAccount(h.provider)).availableBalance;
  const marginBefore = (await account(h.provider, f.margin)).availableBalance;

  gate.hold(Object.keys(HELD).map((name) => operations[name as keyof typeof HELD].path));
  await h.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', amount: '150' });
  await h.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', amount: '60' });
  const sealedPin = h.seal('246810');
  const createdEmail = uniqueEmail('crash.create');
  const correctedEmail = uniqueEmail('crash.corrected');
  const idvEmail = uniqueEmail('crash.idv');
  const correctedIdvEmail = uniqueEmail('crash.idvcorrected');
  const stored = await h.fileStore.put(Buffer.from('%PDF-1.4\n% delivered\n'), 'delivery-note.pdf');
  const uploadsBefore = h.sandbox.commits({ operation: 'uploadFile' }).length;
  const handles = {
    holderCreate: await start('a', WorkflowTypes.cardholderOnboarding, 'crash-holder-create', {
      cardTypeId: CARD_TYPES.b2bWithDeposit,
      holder: b2bHolder(createdEmail),
    }),
    holderIdvCreate: await start('a', WorkflowTypes.cardholderOnboarding, 'crash-idv-create', {
      cardTypeId: CARD_TYPES.b2bWithDeposit,
      holder: idvHolder(idvEmail),
    }),
    shared: await start('a', WorkflowTypes.sharedAccount, 'crash-shared', { accountName: `Crash shared ${run}` }),
    out: await start('a', WorkflowTypes.fundTransfer, 'crash-transfer', {
      type: 'TRANSFER',
      amount: '125.37',
      payerAccountId: f.walletId,
      payeeAccountId: f.margin,
    }),
    back: await start('a', WorkflowTypes.fundTransfer, 'crash-collection', {
      type: 'COLLECTION',
      amount: '25.05',
      payerAccountId: f.margin,
      payeeAccountId: f.walletId,
    }),
    fundingAddress: await start('a', WorkflowTypes.walletFunding, 'crash-funding-address', {
      coinKey: 'USDT_BEP20',
      expectedAmount: '40',
    }),
    freeze: await start('b', WorkflowTypes.cardFreeze, 'crash-freeze', { cardNo: f.freezeCard }),
    unfreeze: await start('b', WorkflowTypes.cardUnfreeze, 'crash-unfreeze', { cardNo: f.unfreezeCard }),
    pin: await start('b', WorkflowTypes.cardPinUpdate, 'crash-pin', { cardNo: f.pinCard, sealedPin }),
    byCode: await start('b', WorkflowTypes.physicalCardActivation, activationWorkflowId(f.codeCard), {
      cardNo: f.codeCard,
      route: 'activation_code',
      sealedPin,
    }),
    byOrder: await start('b', WorkflowTypes.physicalCardActivation, activationWorkflowId(f.orderCard), {
      cardNo: f.orderCard,
      route: 'work_order',
      workOrder: { files: [{ fileId: f.orderFileId }] },
    }),
    byUpload: await start('b', WorkflowTypes.physicalCardActivation, activationWorkflowId(f.uploadCard), {
      cardNo: f.uploadCard,
      route: 'work_order',
      workOrder: { files: [{ ref: stored.ref }] },
    }),
    deposit: await start('a', WorkflowTypes.cardDeposit, 'crash-deposit', {
      cardNo: f.depositCard,
      amount: '20',
      cardTypeId: SUBSCRIPTION_TYPE,
    }),
    issue: await start('b', WorkflowTypes.cardIssuance, 'crash-issue', { cardTypeId: SUBSCRIPTION_TYPE }),
  };
  const correction = await holderUpdate.startUpdate(correctCardholderUpdate, {
    args: [{ holder: b2bHolder(correctedEmail) }],
    waitForStage: WorkflowUpdateStage.ACCEPTED,
  });
  const idvCorrection = await idvUpdate.startUpdate(correctCardholderUpdate, {
    args: [{ holder: idvHolder(correctedIdvEmail) }],
    waitForStage: WorkflowUpdateStage.ACCEPTED,
  });
  const entityFreeze = await entity.startUpdate(freezeUpdate, {
    args: [{ requestId: 'crash-1' }],
    waitForStage: WorkflowUpdateStage.ACCEPTED,
  });

  // Every mutation committed by the sandbox, none answered: kill both workers there.
  await gate.waitForHeld(
    Object.fromEntries(Object.entries(HELD).map(([name, n]) => [operations[name as keyof typeof HELD].path, n])),
  );
  await Promise.all(first.map((w) => w.stop('SIGKILL')));
  expect(first.map((w) => w.child.signalCode)).toEqual(['SIGKILL', 'SIGKILL']);
  gate.release();

  const second = [workerProcess('a'), workerProcess('b')];
  await until(
    () => handles.fundingAddress.query<{ stage: string }>('fundingStatus'),
    (s) => s.stage === 'awaiting_deposit',
    'BEP20 address',
  );
  await h.helper('creditWalletDeposit', { coinKey: 'USDT_BEP20', amount: '40' });
  const [
    holderCreated,
    idvCreated,
    shared,
    out,
    back,
    fundingAddress,
    freeze,
    unfreeze,
    pin,
    byCode,
    byOrder,
    byUpload,
    deposit,
    issued,
  ] = (await Promise.all(Object.values(handles).map((handle) => handle.result()))) as [
    CardholderOnboardingResult,
    CardholderOnboardingResult,
    SharedAccountResult,
    FundTransferResult,
    FundTransferResult,
    WalletFundingResult,
    CardOperationOutcome,
    CardOperationOutcome,
    CardOperationOutcome,
    PhysicalCardActivationResult,
    PhysicalCardActivationResult,
    PhysicalCardActivationResult,
    CardDepositResult,
    CardIssuanceResult,
  ];
  const [funded, fundedDeposit] = (await Promise.all([fundingTransfer.result(), fundingDeposit.result()])) as [
    WalletFundingResult,
    WalletFundingResult,
  ];
  const frozen = await entityFreeze.result();
  await correction.result();
  await idvCorrection.result();
  const holderCorrected = (await holderUpdate.result()) as CardholderOnboardingResult;
  const idvCorrected = (await idvUpdate.result()) as CardholderOnboardingResult;
  // The same request again after the crash: the first answer, nothing sent.
  const repeated = await entity.executeUpdate(freezeUpdate, { args: [{ requestId: 'crash-1' }] });
  expect(repeated.merchantOrderNo).toBe(frozen.merchantOrderNo);

  // The kill landed after each send and before its outcome was recorded: only a later attempt
  // completed it.
  const completions: Array<{ workflowId: string; type: string; attempts: number[] }> = [];
  for (const [workflowId, type] of [
    [handles.holderCreate.workflowId, 'createCardholder'],
    [holderUpdate.workflowId, 'updateCardholder'],
    [handles.holderIdvCreate.workflowId, 'createCardholder'],
    [idvUpdate.workflowId, 'updateCardholder'],
    [handles.byUpload.workflowId, 'uploadStoredFile'],
    [handles.shared.workflowId, 'ensureSharedAccount'],
    [handles.out.workflowId, 'transferFunds'],
    [handles.back.workflowId, 'transferFunds'],
    [`${fundingTransfer.workflowId}/transfer`, 'transferFunds'],
    [handles.fundingAddress.workflowId, 'prepareDepositAddress'],
    [handles.freeze.workflowId, 'sendCardOperation'],
    [handles.unfreeze.workflowId, 'sendCardOperation'],
    [handles.pin.workflowId, 'sendCardOperation'],
    [entity.workflowId, 'sendCardOperation'],
    [handles.byCode.workflowId, 'activateWithCode'],
    [handles.byOrder.workflowId, 'submitWorkOrder'],
    [handles.deposit.workflowId, 'depositCard'],
    [handles.issue.workflowId, 'createCard'],
    [`${fundingDeposit.workflowId}/deposit`, 'depositCard'],
  ] as const) {
    completions.push({ workflowId, type, attempts: await attempts(workflowId, type) });
  }
  expect(completions.filter((c) => c.attempts.length !== 1 || c.attempts[0]! < 2)).toEqual([]);

  // Cardholders: one created per email; the corrected one is the rejected holder, resubmitted once.
  expect(await cardholdersByEmail(h.provider, createdEmail)).toHaveLength(1);
  const corrected = await cardholdersByEmail(h.provider, correctedEmail);
  expect(corrected.map((c) => [c.holderId, c.status])).toEqual([[holderCorrected.holderId, 'pass_audit']]);
  expect(await cardholdersByEmail(h.provider, rejectedEmail)).toHaveLength(0);
  expect([holderCreated.status, holderCorrected.resubmissions]).toEqual(['pass_audit', 1]);
  // The same for IDV holders (create and update by share token).
  expect((await cardholdersByEmail(h.provider, idvEmail)).map((c) => c.holderId)).toEqual([idvCreated.holderId]);
  const idvFixed = await cardholdersByEmail(h.provider, correctedIdvEmail);
  expect(idvFixed.map((c) => [c.holderId, c.status])).toEqual([[idvCorrected.holderId, 'pass_audit']]);
  expect(await cardholdersByEmail(h.provider, rejectedIdvEmail)).toHaveLength(0);
  expect([idvCreated.status, idvCorrected.resubmissions]).toEqual(['pass_audit', 1]);

  // Transfers: each retry was told "Duplicate order number" (sent: false); two ledger legs each.
  const childTransfer = (await client.workflow
    .getHandle(`${fundingTransfer.workflowId}/transfer`)
    .result()) as FundTransferResult;
  expect([out.sent, back.sent, childTransfer.sent]).toEqual([false, false, false]);
  expect(await ledgerLegs(out.merchantOrderNo, 'fund_transfer')).toHaveLength(2);
  expect(await ledgerLegs(back.merchantOrderNo, 'fund_collection')).toHaveLength(2);
  expect(await ledgerLegs(funded.transfer!.merchantOrderNo, 'fund_transfer')).toHaveLength(2);
  // USDT_TRC20: 0.5% + 1 -> 150 => 148.25, 60 => 58.70; USDT_BEP20: 0.5% + 0.50 -> 40 => 39.30.
  expect(cmp(funded.receivedAmount, '148.25')).toBe(0);
  expect(cmp(fundedDeposit.receivedAmount, '58.70')).toBe(0);
  expect(cmp(fundingAddress.receivedAmount, '39.30')).toBe(0);
  // SUBSCRIPTION deposits: 2% + 0.50 -> 20 => 0.90, 30 => 1.10.
  expect(cmp(deposit.fee, '0.90')).toBe(0);
  expect(cmp(fundedDeposit.deposit!.fee, '1.10')).toBe(0);
  // Wallet: three credits and the collection in; the transfer, the funding's transfer, both
  // deposits with their fees and one card fee (2) out.
  const walletExpected = sub(
    add(walletBefore, '148.25', '58.70', '39.30', '25.05'),
    add('125.37', '148.25', '20', '0.90', '30', '1.10', '2'),
  );
  expect(cmp((await walletAccount(h.provider)).availableBalance, walletExpected)).toBe(0);
  expect(
    cmp((await account(h.provider, f.margin)).availableBalance, sub(add(marginBefore, '125.37', '148.25'), '25.05')),
  ).toBe(0);

  // Card operations: one record per merchantOrderNo, one of each kind per card, balances.
  for (const key of [
    issued.merchantOrderNo,
    freeze.merchantOrderNo,
    unfreeze.merchantOrderNo,
    pin.merchantOrderNo,
    frozen.merchantOrderNo,
    deposit.merchantOrderNo,
    fundedDeposit.deposit!.merchantOrderNo,
  ]) {
    expect({ key, records: (await operationsOf(key)).length }).toEqual({ key, records: 1 });
  }
  expect(issued.cardStatus).toBe('Normal');
  expect(await recordsOf(f.freezeCard, 'Freeze')).toHaveLength(1);
  expect(await recordsOf(f.unfreezeCard, 'UnFreeze')).toHaveLength(1);
  expect(await recordsOf(f.pinCard, 'update_pin')).toHaveLength(1);
  expect(await recordsOf(f.entityCard, 'Freeze')).toHaveLength(1);
  expect(await recordsOf(f.depositCard, 'deposit')).toHaveLength(1);
  expect(await recordsOf(f.fundedCard, 'deposit')).toHaveLength(1);
  expect(cmp((await h.provider.getCardBalance({ cardNo: f.depositCard })).amount, '20')).toBe(0);
  expect(cmp((await h.provider.getCardBalance({ cardNo: f.fundedCard })).amount, '30')).toBe(0);
  expect([freeze.cardStatus, unfreeze.cardStatus, frozen.cardStatus]).toEqual(['Freeze', 'Normal', 'Freeze']);

  // Activation: both cards Normal, one work order; one address per coin; one shared account of the
  // name.
  expect([byCode.cardStatus, byOrder.cardStatus]).toEqual(['Normal', 'Normal']);
  for (const cardNo of [f.codeCard, f.orderCard])
    expect((await h.provider.getCardInfo({ cardNo })).status).toBe('Normal');
  expect((await h.provider.listWorkOrders({ target: f.orderCard, pageSize: 100 })).records).toHaveLength(1);
  // The upload has no key and no lookup: the one whose answer died with the worker was made again.
  // The work order (one) references the answered upload; the other is a spare nothing refers to.
  expect(byUpload.cardStatus).toBe('Normal');
  expect((await h.provider.listWorkOrders({ target: f.uploadCard, pageSize: 100 })).records).toHaveLength(1);
  const uploads = h.sandbox.commits({ operation: 'uploadFile' }).slice(uploadsBefore);
  expect(uploads).toHaveLength(2);
  expect(byUpload.fileIds).toEqual([uploads[1]!.refs.fileId]);
  expect(byOrder.fileIds).toEqual([f.orderFileId]);
  const addresses = await h.provider.listWalletAddresses();
  expect(addresses.filter((a) => a.coinKey === 'USDT_BEP20')).toHaveLength(1);
  expect(addresses.filter((a) => a.coinKey === 'USDT_TRC20')).toHaveLength(1);
  expect(
    (await h.provider.getAccountInfo()).filter(
      (a) => a.accountType === 'MARGIN' && a.accountName === `Crash shared ${run}`,
    ),
  ).toHaveLength(1);
  expect(shared.created).toBe(false); // the retry found the account the dead worker created

  await entity.terminate('test over');
  await Promise.all(second.map((w) => w.stop('SIGTERM')));
  expect(second.map((w) => w.child.exitCode)).toEqual([0, 0]);
});

/**
 * The lifecycle client functions and `cardflow` commands on the real dev server against the
 * sandbox: every start is idempotent by its business key (a repeated transfer moves money once,
 * to the cent), status is read through each workflow's query, the per-card workflow takes
 * freeze / unfreeze / PIN / deposit as Updates, and the CLI drives transfer, activation and card
 * commands end to end through `runCli`, outcomes checked in the sandbox.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { add, cmp, sub } from '../../../provider/money';
import { awaitActivation, getActivationStatus, startActivation } from '../../../client/activation';
import {
  cardEntityHandle,
  CardWorkflowClosedError,
  depositToCard,
  freezeCard,
  getCardSnapshot,
  refreshCard,
  unfreezeCard,
  updateCardPin,
} from '../../../client/card-entity';
import { awaitCardOperation, getCardOperationStatus, startCardOperation } from '../../../client/card-operations';
import { inputFiles } from '../../support/input-files';
import { runCliOn } from '../../support/run-cli';
import {
  awaitDepositAddress,
  awaitFunding,
  awaitSharedAccount,
  awaitTransfer,
  getFundingStatus,
  getTransferStatus,
  startSharedAccount,
  startTransfer,
  startWalletFunding,
  type TransferRequest,
} from '../../../client';
import { harnessPerFile } from '../support/harness';
import { testTemporalServer } from '../support/temporal-env';
import { temporal } from '@temporalio/proto';
import { collectPayloads, exportHistoryBytes } from '../platform/codec/history-scan';
import {
  account,
  eventually,
  FAST_WAIT,
  physicalCard,
  startCardHarness,
  SUBSCRIPTION_TYPE,
  virtualCard,
  walletAccount,
} from '../support/card-harness';
import { physicalCardActivationWorkflow } from '../../../domain/workflows';
import { transferWorkflowId, activationWorkflowId } from '../../../domain/workflow-ids';

jest.setTimeout(180_000);

const h = harnessPerFile(startCardHarness);
const { file } = inputFiles('cardflow-cli-lifecycle-');
let margin: string;
let wallet: string;
const ref = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  wallet = (await walletAccount(h.provider)).accountId;
});

function opts() {
  return { taskQueue: h.taskQueue };
}

async function ledgerFor(merchantOrderNo: string, bizType: 'fund_transfer' | 'fund_collection') {
  const page = await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 100, bizType });
  return page.records.filter((e) => (e.remark ?? '').startsWith(merchantOrderNo));
}

async function cardRecords(cardNo: string, type: 'Freeze' | 'UnFreeze' | 'update_pin' | 'deposit') {
  return (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, cardNo, type })).records;
}

/**
 * Runs the CLI against the harness's client and task queue; returns the exit code and output (`out`
 * fills as it runs).
 */
function cli(args: string[], stdin?: string, out: string[] = []) {
  return runCliOn(
    { client: h.client, namespace: testTemporalServer().namespace },
    [...args, '--task-queue', h.taskQueue],
    {
      env: { CARDFLOW_MERCHANT_PUBLIC_KEY: h.sandbox.keys.merchant.publicKeyPem },
      out,
      ...(stdin === undefined ? {} : { stdin }),
    },
  );
}

it('client: shared account, then a transfer started twice moves the money once, confirmed in the ledger to the cent', async () => {
  await h.withCardWorker(async () => {
    const name = `Pool ${randomUUID().slice(0, 6)}`;
    const first = await startSharedAccount(h.client, { accountName: name }, opts());
    const again = await startSharedAccount(h.client, { accountName: name }, opts());
    expect([first.started, again.started]).toEqual([true, false]);
    const created = await awaitSharedAccount(h.client, name);
    expect(created).toMatchObject({ accountName: name, created: true });
    margin = created.accountId;

    const walletBefore = (await walletAccount(h.provider)).availableBalance;
    const transferRef = ref('budget');
    const request: TransferRequest = {
      transferRef,
      type: 'TRANSFER',
      amount: '12.34',
      payerAccountId: wallet,
      payeeAccountId: margin,
      wait: FAST_WAIT,
    };
    const started = await startTransfer(h.client, request, opts());
    const repeated = await startTransfer(h.client, request, opts());
    expect(started).toMatchObject({ started: true, workflowId: transferWorkflowId(transferRef) });
    expect(repeated.started).toBe(false);
    const result = await awaitTransfer(h.client, transferRef);
    expect(result).toMatchObject({ type: 'TRANSFER', amount: '12.34', sent: true });
    expect(await getTransferStatus(h.client, transferRef)).toMatchObject({
      stage: 'completed',
      merchantOrderNo: result.merchantOrderNo,
    });
    // Started again after it completed: still the same execution, nothing moves.
    expect((await startTransfer(h.client, request, opts())).started).toBe(false);
    expect(await ledgerFor(result.merchantOrderNo, 'fund_transfer')).toHaveLength(2);
    expect(cmp((await walletAccount(h.provider)).availableBalance, sub(walletBefore, '12.34'))).toBe(0);
    expect(cmp((await account(h.provider, margin)).availableBalance, '12.34')).toBe(0);
  });
});

/**
 * Once the funding waits for its on-chain deposit, credits `amount` of USDT_TRC20 and returns the
 * funding's result.
 */
async function creditDepositAndAwait(fundingRef: string, amount: string) {
  await eventually(
    () => getFundingStatus(h.client, fundingRef),
    (s) => s.stage === 'awaiting_deposit',
    'awaiting_deposit',
  );
  await h.helper('creditWalletDeposit', { coinKey: 'USDT_TRC20', amount });
  return awaitFunding(h.client, fundingRef);
}

it('client: wallet funding shows the deposit address, then credits the on-chain deposit after fees', async () => {
  await h.withCardWorker(async () => {
    const fundingRef = ref('topup');
    const started = await startWalletFunding(
      h.client,
      { fundingRef, coinKey: 'USDT_TRC20', expectedAmount: '200', wait: FAST_WAIT },
      opts(),
    );
    expect(started.started).toBe(true);
    const status = await awaitDepositAddress(h.client, fundingRef, { pollMs: 100 });
    expect(status.address).toMatch(/\S/);
    const result = await creditDepositAndAwait(fundingRef, '200');
    expect(result.address).toBe(status.address);
    expect(cmp(result.receivedAmount, '198')).toBe(0); // 0.5% + 1 fixed fee
  });
});

it('client: activation with a clear PIN sealed by the client, standalone freeze/unfreeze, and the card workflow Updates', async () => {
  const { cardNo } = await physicalCard(h.provider);
  const virtual = await virtualCard(h.provider, { deposit: '20' });
  const key = h.sandbox.keys.merchant.publicKeyPem;
  await h.withCardWorker(async () => {
    // A clear PIN without the key is refused before anything starts.
    await expect(
      startActivation(h.client, { cardNo, route: 'activation_code', pin: '246810' }, opts()),
    ).rejects.toThrow(/pin: needs the merchant public key/);
    const started = await startActivation(
      h.client,
      { cardNo, route: 'activation_code', pin: '246810', wait: FAST_WAIT },
      { ...opts(), merchantPublicKey: key },
    );
    expect(started.started).toBe(true);
    await eventually(
      () => getActivationStatus(h.client, cardNo),
      (s) => s.stage === 'awaiting_code',
      'awaiting_code',
    );
    // The card's workflow reads the card un_activated; the activation's result tells it the card is
    // Normal.
    const entity = { ...opts(), wait: FAST_WAIT, merchantPublicKey: key };
    expect((await refreshCard(h.client, cardNo, entity)).status).toBe('un_activated');
    await h.helper('issueActivationCode', { cardNo });
    expect(await awaitActivation(h.client, cardNo)).toMatchObject({ cardNo, cardStatus: 'Normal' });
    await eventually(
      () => getCardSnapshot(h.client, cardNo),
      (s) => s.status === 'Normal',
      'the card workflow learns the activation',
    );

    const freeze = await startCardOperation(
      h.client,
      'freeze',
      { cardNo: virtual, requestRef: 'f1', clientRemark: 'lost', wait: FAST_WAIT },
      opts(),
    );
    expect(
      (await startCardOperation(h.client, 'freeze', { cardNo: virtual, requestRef: 'f1', wait: FAST_WAIT }, opts()))
        .started,
    ).toBe(false);
    expect(await freeze.handle.result()).toMatchObject({ kind: 'freeze', cardStatus: 'Freeze' });
    expect(await getCardOperationStatus(h.client, 'freeze', virtual, 'f1')).toMatchObject({ stage: 'completed' });
    await startCardOperation(h.client, 'unfreeze', { cardNo: virtual, requestRef: 'u1', wait: FAST_WAIT }, opts());
    expect(await awaitCardOperation(h.client, 'unfreeze', virtual, 'u1')).toMatchObject({ cardStatus: 'Normal' });

    // The per-card workflow: started by the first Update, later ones reach it.
    expect(await freezeCard(h.client, virtual, { requestId: 'e1' }, entity)).toMatchObject({
      kind: 'freeze',
      cardStatus: 'Freeze',
    });
    const refused = await freezeCard(h.client, virtual, { requestId: 'e2' }, entity).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((refused as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'OperationNotAllowed' });
    expect(await unfreezeCard(h.client, virtual, { requestId: 'e3' }, entity)).toMatchObject({ cardStatus: 'Normal' });
    const deposit = await depositToCard(
      h.client,
      virtual,
      { requestId: 'd1', amount: '5', cardTypeId: SUBSCRIPTION_TYPE },
      entity,
    );
    const again = await depositToCard(
      h.client,
      virtual,
      { requestId: 'd1', amount: '5', cardTypeId: SUBSCRIPTION_TYPE },
      entity,
    );
    expect(again.merchantOrderNo).toBe(deposit.merchantOrderNo);
    expect(cmp(deposit.balance!.amount, '25')).toBe(0);
    const fresh = await refreshCard(h.client, virtual, entity);
    expect(fresh.status).toBe('Normal');
    expect(cmp(fresh.balance!.amount, '25')).toBe(0);
    expect(await getCardSnapshot(h.client, virtual)).toMatchObject({ cardNo: virtual, status: 'Normal' });
    expect(await updateCardPin(h.client, cardNo, { requestId: 'p1', pin: '135791' }, entity)).toMatchObject({
      kind: 'updatePin',
      status: 'success',
    });
  });
  expect(await cardRecords(virtual, 'Freeze')).toHaveLength(2);
  expect(await cardRecords(virtual, 'deposit')).toHaveLength(2); // the fixture's and d1, once
  expect(await cardRecords(cardNo, 'update_pin')).toHaveLength(1);
  expect((await h.provider.getCardInfo({ cardNo })).status).toBe('Normal');
});

it('CLI: transfer --watch follows to the ledger result; the same file again moves nothing; status <workflowId> reads it back', async () => {
  const transferRef = ref('cli-collect');
  const f = file('transfer.json', {
    transferRef,
    type: 'COLLECTION',
    amount: '2.05',
    payerAccountId: margin,
    payeeAccountId: wallet,
    wait: FAST_WAIT,
  });
  const walletBefore = (await walletAccount(h.provider)).availableBalance;
  await h.withCardWorker(async () => {
    const first = await cli(['transfer', '--file', f, '--watch']);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain(`started: ${transferWorkflowId(transferRef)}`);
    expect(first.out).toMatch(/completed \(order CF/);
    expect(first.out).toMatch(/COLLECTION 2\.05 USD confirmed in the ledger/);
    const second = await cli(['transfer', '--file', f]);
    expect(second.code).toBe(0);
    expect(second.out).toContain('already exists');
    const status = await cli(['status', transferWorkflowId(transferRef)]);
    expect(status.code).toBe(0);
    expect(status.out).toContain('(fundTransfer): completed');
  });
  const result = await awaitTransfer(h.client, transferRef);
  expect(await ledgerFor(result.merchantOrderNo, 'fund_collection')).toHaveLength(2); // started twice, moved once
  expect(cmp((await walletAccount(h.provider)).availableBalance, add(walletBefore, '2.05'))).toBe(0);
});

it('CLI: activate --pin-stdin --watch activates the card; card freeze/unfreeze/deposit/status drive its workflow; a refused operation exits 1', async () => {
  const { cardNo } = await physicalCard(h.provider);
  const virtual = await virtualCard(h.provider, { deposit: '10' });
  await h.helper('issueActivationCode', { cardNo });
  const f = file('activation.json', { cardNo, route: 'activation_code', noPinPaymentAmount: '250', wait: FAST_WAIT });
  await h.withCardWorker(async () => {
    const activated = await cli(['activate', '--file', f, '--pin-stdin', '--watch'], '864202\n');
    expect(activated.err).toBe('');
    expect(activated.code).toBe(0);
    expect(activated.out).toContain(`card ${cardNo} is Normal: activated by activation code`);
    expect(activated.out).not.toContain('864202');

    await refreshCard(h.client, virtual, { ...opts(), wait: FAST_WAIT }); // the card workflow, with the tests' fast waits
    const frozen = await cli(['card', 'freeze', virtual, '--request', 'c1', '--remark', 'lost']);
    expect(frozen).toMatchObject({ code: 0, err: '' });
    expect(frozen.out).toContain('card is Freeze');
    expect((await cli(['card', 'freeze', virtual, '--request', 'c1'])).code).toBe(0); // the same request: answered, not repeated
    const refused = await cli(['card', 'freeze', virtual, '--request', 'c2']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('OperationNotAllowed');
    expect((await cli(['card', 'unfreeze', virtual, '--request', 'c3'])).code).toBe(0);
    const deposited = await cli([
      'card',
      'deposit',
      virtual,
      '--request',
      'c4',
      '--amount',
      '7.50',
      '--card-type',
      SUBSCRIPTION_TYPE,
    ]);
    expect(deposited.code).toBe(0);
    expect(deposited.out).toMatch(/balance 17\.5/);
    const status = await cli(['card', 'status', virtual]);
    expect(status.code).toBe(0);
    expect(status.out).toMatch(new RegExp(`card ${virtual}: Normal \\(balance 17\\.5`));
  });
  const card = await h.provider.getCardInfo({ cardNo });
  expect(card.status).toBe('Normal');
  expect(cmp(card.noPinPaymentAmount, '250')).toBe(0);
  const history = collectPayloads(
    temporal.api.history.v1.History.decode(await exportHistoryBytes(h.client, activationWorkflowId(cardNo))),
  );
  const text = history.map((p) => Buffer.from(p.data ?? []).toString('utf8')).join('\n');
  expect(text).toContain(cardNo);
  expect(text).not.toContain('864202'); // sealed by the CLI before the start
  expect(await cardRecords(virtual, 'Freeze')).toHaveLength(1);
  expect(await cardRecords(virtual, 'UnFreeze')).toHaveLength(1);
  expect(cmp((await h.provider.getCardBalance({ cardNo: virtual })).amount, '17.5')).toBe(0);
});

it('CLI: fund-wallet prints the deposit address to pay and returns; the funding completes when the deposit lands', async () => {
  const fundingRef = ref('cli-topup');
  const f = file('funding.json', { fundingRef, coinKey: 'USDT_TRC20', expectedAmount: '50', wait: FAST_WAIT });
  await h.withCardWorker(async () => {
    const run = await cli(['fund-wallet', '--file', f]);
    expect(run).toMatchObject({ code: 0, err: '' });
    const address = /pay 50 USDT_TRC20 to (\S+)/.exec(run.out)?.[1];
    expect(address).toBeTruthy();
    const result = await creditDepositAndAwait(fundingRef, '50');
    expect(result.address).toBe(address);
    expect(cmp(result.receivedAmount, '48.75')).toBe(0); // 50 - 0.25 - 1
    // The same file again: the completed funding is reported, not a new address to pay.
    const again = await cli(['fund-wallet', '--file', f]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('already exists');
    expect(again.out).toMatch(/received 48\.75 USD from 50(\.0+)? USDT_TRC20/);
    expect(again.out).not.toContain('pay 50');
  });
});

it('a card whose workflow ended (card cancelled) is not started again: the client says so and the CLI exits 1', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '5' });
  await h.withCardWorker(async () => {
    await refreshCard(h.client, cardNo, { ...opts(), wait: FAST_WAIT });
    await h.helper('cancelCard', { cardNo, reason: 'closed by the customer' });
    expect(await cardEntityHandle(h.client, cardNo).result()).toMatchObject({ cardNo, status: 'cancel' });
    await expect(freezeCard(h.client, cardNo, { requestId: 'late' }, opts())).rejects.toThrow(CardWorkflowClosedError);
    const late = await cli(['card', 'freeze', cardNo, '--request', 'late']);
    expect(late.code).toBe(1);
    expect(late.err).toContain(`the workflow of card ${cardNo} has ended`);
    const status = await cli(['card', 'status', cardNo]);
    expect(status.out).toContain(`card ${cardNo}: cancel`);
  });
  expect(await cardRecords(cardNo, 'Freeze')).toHaveLength(0);
});

it('CLI: shared-account --watch prints the account; the same name again finds the same execution', async () => {
  const name = `Ops ${randomUUID().slice(0, 6)}`;
  const f = file('account.json', { accountName: name });
  await h.withCardWorker(async () => {
    const first = await cli(['shared-account', '--file', f, '--watch']);
    expect(first).toMatchObject({ code: 0, err: '' });
    const accountId = new RegExp(`shared account "${name}": (\\d+) \\(USD, created\\)`).exec(first.out)?.[1];
    expect(accountId).toBeTruthy();
    const again = await cli(['shared-account', '--file', f, '--watch']);
    expect(again.out).toContain('already exists');
    expect(again.out).toContain(`shared account "${name}": ${accountId}`);
  });
  expect(
    (await h.provider.getAccountInfo()).filter((a) => a.accountType === 'MARGIN' && a.accountName === name),
  ).toHaveLength(1);
});

it('CLI: activate --watch by work order shows each stage and exits 1 with the provider description when the work order fails', async () => {
  const { cardNo } = await physicalCard(h.provider);
  const f = file('work-order.json', {
    cardNo,
    route: 'work_order',
    workOrder: { files: [{ ref: 'card-photo.png' }] },
    wait: FAST_WAIT,
  });
  const saved = h.sandbox.delays.workOrderMs;
  h.sandbox.delays.workOrderMs = 10 * 60_000; // hold the work order until decided below
  try {
    const run = await h.withCardWorker(async () => {
      const lines: string[] = [];
      const watching = cli(['activate', '--file', f, '--watch'], undefined, lines);
      // Decide once the watcher has shown the stage (it looks once a second).
      await eventually(
        async () => lines.join('\n'),
        (text) => text.includes('awaiting_work_order'),
        'the awaiting_work_order line',
      );
      const merchantOrderNo = physicalCardActivationWorkflow.orderKeys(activationWorkflowId(cardNo)).workOrder;
      await h.helper('decideWorkOrder', {
        orderNo: merchantOrderNo,
        outcome: 'fail',
        description: 'Photo of the card is unreadable',
      });
      return watching;
    });
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/awaiting_work_order \(route work_order, order CF/);
    expect(run.err).toContain(`${activationWorkflowId(cardNo)} failed: OperationFailed: `);
    expect(run.err).toContain('Photo of the card is unreadable');
  } finally {
    h.sandbox.delays.workOrderMs = saved;
  }
  expect((await h.provider.getCardInfo({ cardNo })).status).toBe('un_activated');
});

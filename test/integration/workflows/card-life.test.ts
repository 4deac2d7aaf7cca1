/**
 * A card's whole life on the dev server, on cards no client has touched (made through the
 * provider API): the card's first own event starts its workflow through the receiver
 * (signal-with-start), every authorization type, fee record, withdrawal and overdraft lands in it
 * exactly once, also when each webhook is delivered again under a new request id and in reverse
 * order, and its balance is the sandbox's; a bank block refuses an unfreeze and is lifted through
 * the OTHER work order; a cancel reports what came back to the account; a reissue makes one card.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { cmp } from '../../../provider/money';
import { cardSnapshotQuery, type CardEntityResult, type CardSnapshot } from '../../../domain/card-entity';
import { cardEntityWorkflowId } from '../../../domain/workflow-ids';
import { refreshCard, requestCardUnblock, unfreezeCard } from '../../../client/card-entity';
import { CardReissueRefusedError, reissueCard } from '../../../client/reissue';
import { eventually, FAST_WAIT, startCardHarness, virtualCard } from '../support/card-harness';
import { deliverAgain, harnessPerFile } from '../support/harness';

const h = harnessPerFile(startCardHarness);

const CARD_CATEGORIES = ['card_auth_transaction', 'card_fee_patch', 'card_transaction'];

/** The card's workflow's view, once it runs. */
async function snapshotOf(cardNo: string): Promise<CardSnapshot | undefined> {
  try {
    return await h.client.workflow.getHandle(cardEntityWorkflowId(cardNo)).query(cardSnapshotQuery);
  } catch {
    return undefined;
  }
}

async function sandboxBalance(cardNo: string): Promise<string> {
  const card = await h.provider.getCardInfo({ cardNo, onlySimpleInfo: false });
  return card.balanceInfo?.amount ?? '0';
}

const options = () => ({ taskQueue: h.taskQueue, wait: FAST_WAIT });

it('an untouched card: every authorization type, fee, withdrawal and overdraft lands once, also repeated and reordered; balances are the sandbox’s', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '100' });
  await h.withCardWorker(async () => {
    const held = await h.helper<{ tradeNo: string }>('authorizeCard', {
      cardNo,
      type: 'auth',
      amount: '20',
      merchantName: 'Book Shop',
      settle: false,
    });
    await h.helper('issue3ds', { cardNo, type: 'third_3ds_otp', amount: '20' });
    await h.helper('settleAuthorization', { tradeNo: held.tradeNo, settleAmount: '21.50' });
    const voided = await h.helper<{ tradeNo: string }>('authorizeCard', {
      cardNo,
      type: 'auth',
      amount: '7',
      settle: false,
    });
    await h.helper('authorizeCard', { cardNo, type: 'Void', originTradeNo: voided.tradeNo });
    await h.helper('authorizeCard', { cardNo, type: 'refund', amount: '3', originTradeNo: held.tradeNo });
    await h.helper('authorizeCard', { cardNo, type: 'verification' });
    await h.helper('authorizeCard', { cardNo, type: 'maintain_fee', amount: '1.25' });
    await h.helper('authorizeCard', { cardNo, type: 'auth', amount: '5000' }); // declined: more than the balance
    const withdrawal = await h.helper<{ orderNo: string }>('withdrawCard', { cardNo, amount: '10' });
    await eventually(
      async () =>
        (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 10, orderNo: withdrawal.orderNo })).records[0]
          ?.status,
      (status) => status === 'success',
      'the withdrawal',
    );
    // Spend all that is left and settle 1 more: the fee is offset from the platform reserve (and
    // reversed to the merchant's reserve), and the shortfall comes as an overdraft statement.
    const left = await eventually(
      () => sandboxBalance(cardNo),
      (b) => cmp(b, '0') > 0,
      'the balance after the withdrawal',
    );
    const all = await h.helper<{ tradeNo: string }>('authorizeCard', {
      cardNo,
      type: 'auth',
      amount: left,
      settle: false,
    });
    await h.helper('settleAuthorization', { tradeNo: all.tradeNo, settleAmount: `${Number(left) + 1}` });
    await h.sandbox.deliveries.idle();

    const handle = h.client.workflow.getHandle(cardEntityWorkflowId(cardNo));
    const seen = (await eventually(
      () => snapshotOf(cardNo),
      (s) =>
        s !== undefined &&
        cmp(s.totals?.overdraft ?? '0', '1') === 0 &&
        cmp(s.totals?.withdrawn ?? '0', '10') === 0 &&
        s.balance !== undefined &&
        cmp(s.balance.amount, '0') === 0,
      'the card workflow started by its first event, with every event learned',
    )) as CardSnapshot;
    expect(seen.totals).toMatchObject({
      voided: '7',
      refunded: '3',
      maintainFees: '1.25',
      declined: 1,
      verifications: 1,
    });
    expect(cmp(seen.totals!.settleDifference, '2.5')).toBe(0);
    expect(cmp(seen.totals!.held, '0')).toBe(0);
    expect(cmp(seen.totals!.feeReversals, '0')).toBeGreaterThan(0);
    expect(cmp(seen.totals!.feesFromPlatformReserve, seen.totals!.feeReversals)).toBe(0);
    expect(cmp(seen.totals!.feesFromCard, '0')).toBeGreaterThan(0);
    // The fixture's deposit came before the workflow ran: only its first catch-up can have learned
    // it.
    expect(seen.entries?.filter((e) => e.type === 'deposit').map((e) => e.amount)).toEqual(['100.00']);

    // Every webhook of the card again, newest first, under new request ids: nothing changes.
    const delivered = h.sandbox.deliveries
      .log()
      .filter((d) => CARD_CATEGORIES.includes(d.category) && d.payload.cardNo === cardNo)
      .reverse();
    for (const d of delivered) await deliverAgain(h, d);
    // An Update runs after the signals delivered before it; `refresh` also catches up from the
    // queries (repeats again).
    const after = await refreshCard(h.client, cardNo, options());
    expect(after.totals).toEqual(seen.totals);
    expect(after.entries).toEqual(seen.entries);
    expect(after.authorizationCount).toBe(seen.authorizationCount);

    const keys = (after.entries ?? []).map((e) => `${e.kind} ${e.ref} ${e.status} ${e.effect}`);
    expect(new Set(keys).size).toBe(keys.length);
    const auths = await h.provider.listCardAuthTransactions({ pageNum: 1, pageSize: 100, cardNo });
    expect(after.authorizationCount).toBe(new Set(auths.records.map((a) => a.tradeNo)).size);
    expect(cmp(after.balance!.amount, await sandboxBalance(cardNo))).toBe(0);
    expect((await handle.describe()).status.name).toBe('RUNNING');
  });
});

it('a bank block: unfreeze is refused naming the block, then requestUnblock lifts it through the OTHER work order', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '20' });
  await h.withCardWorker(async () => {
    await h.helper('blockCard', { cardNo, reason: 'Suspected fraud' });
    const blocked = await eventually(
      () => snapshotOf(cardNo),
      (s) => s?.blocked === true,
      'the block, learned by the workflow its blocked record started',
    );
    expect(blocked?.status).toBe('blocked');

    const refused = await unfreezeCard(h.client, cardNo, { requestId: 'unfreeze-1' }, options()).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    const cause = (refused as WorkflowUpdateFailedError).cause as { type?: string; message?: string };
    expect(cause.type).toBe('OperationNotAllowed');
    expect(cause.message).toContain('blocked by the issuing bank');
    expect(cause.message).toContain('requestUnblock');
    const unfreezes = await h.provider.listCardTransactions({ pageNum: 1, pageSize: 10, cardNo, type: 'UnFreeze' });
    expect(unfreezes.records).toHaveLength(0);

    const lifted = await requestCardUnblock(
      h.client,
      cardNo,
      { requestId: 'unblock-1', files: [{ ref: 'delivery-note.pdf' }], content: 'The holder confirms the purchases' },
      options(),
    );
    expect(lifted).toMatchObject({ cardNo, kind: 'unblock', cardStatus: 'Normal' });
    expect(lifted.fileIds).toHaveLength(1);
    const orders = await h.provider.listWorkOrders({ target: cardNo, tradeType: 'OTHER', pageSize: 10 });
    expect(orders.records.map((o) => o.tradeStatus)).toEqual(['success']);
    const card = await h.provider.getCardInfo({ cardNo });
    expect(card).toMatchObject({ status: 'Normal', blocked: false });
    const after = await snapshotOf(cardNo);
    expect(after).toMatchObject({ status: 'Normal' });
    expect(after?.blocked).toBeFalsy();
    // The same request again is answered once: no second work order.
    const again = await requestCardUnblock(
      h.client,
      cardNo,
      { requestId: 'unblock-1', files: [{ ref: 'delivery-note.pdf' }] },
      options(),
    );
    expect(again.workOrderNo).toBe(lifted.workOrderNo);
  });
});

it('a cancel reports the amount returned to the account; a reissue is refused while the card holds money, then makes exactly one card', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '25' });
  await h.withCardWorker(async () => {
    const early = await reissueCard(h.client, cardNo, options()).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(CardReissueRefusedError);
    expect((early as Error).message).toContain('still holds 25');

    await h.helper('cancelCard', { cardNo, reason: 'closed by the customer' });
    const result = (await h.client.workflow.getHandle(cardEntityWorkflowId(cardNo)).result()) as CardEntityResult;
    expect(result).toMatchObject({ cardNo, status: 'cancel', reason: 'closed by the customer' });
    const ledger = await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 10, bizType: 'card_cancel' });
    const entry = ledger.records.find((e) => e.orderNo === result.cancellation?.orderNo);
    expect(entry).toBeDefined();
    expect(cmp(result.cancellation!.returnedAmount!, entry!.amount)).toBe(0);
    expect(cmp(result.cancellation!.returnedAmount!, '25')).toBe(0);
    // A late repeat of the cancel finds the workflow completed: acknowledged, nothing started
    // again.
    const cancel = h.sandbox.deliveries
      .log()
      .find((d) => d.category === 'card_transaction' && d.payload.cardNo === cardNo && d.payload.type === 'cancel');
    await deliverAgain(h, cancel!);
    const latest = await h.client.workflow.getHandle(cardEntityWorkflowId(cardNo)).describe();
    expect(latest.status.name).toBe('COMPLETED');

    const creates = async () =>
      (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, type: 'create' })).records.length;
    const before = await creates();
    const [first, second] = await Promise.all([
      reissueCard(h.client, cardNo, options()),
      reissueCard(h.client, cardNo, options()),
    ]);
    expect(second.card.cardNo).toBe(first.card.cardNo);
    expect(first.card.cardNo).not.toBe(cardNo);
    expect(await creates()).toBe(before + 1);
    // The cancelled card is reported as it is, not frozen.
    expect(first.oldCard).toMatchObject({ outcome: 'not_frozen', status: 'cancel' });
    const again = await reissueCard(h.client, cardNo, options());
    expect(again.card.cardNo).toBe(first.card.cardNo);
    expect(await creates()).toBe(before + 1);
    // The new card is followed from its issuance on.
    await eventually(
      () => snapshotOf(first.card.cardNo),
      (s) => s?.status === 'Normal',
      'the new card’s workflow, started by its issuance',
    );
  });
});

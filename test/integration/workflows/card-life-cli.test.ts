/**
 * The card's life through the `cardflow` CLI on the dev server, on cards no client has touched
 * (made through the provider API, changed by the sandbox's helpers): `card unblock` lifts a bank
 * block through the OTHER work order after `card unfreeze` was refused naming the block, once per
 * request id; `card reissue` is refused while the old card holds money and, once it is withdrawn,
 * makes exactly one new card however often it is asked.
 */
import { cardSnapshotQuery, type CardSnapshot } from '../../../domain/card-entity';
import { cardEntityWorkflowId } from '../../../domain/workflow-ids';
import { eventually, startCardHarness, virtualCard } from '../support/card-harness';
import { cliOn, harnessPerFile } from '../support/harness';

const h = harnessPerFile(startCardHarness);

/** The card's workflow's view, once it runs. */
async function snapshotOf(cardNo: string): Promise<CardSnapshot | undefined> {
  try {
    return await h.client.workflow.getHandle(cardEntityWorkflowId(cardNo)).query(cardSnapshotQuery);
  } catch {
    return undefined;
  }
}

it('card unblock: a blocked card refuses card unfreeze naming the block, then the work order lifts it, once per request', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '20' });
  const out: string[] = [];
  const cli = cliOn(h, out);
  const otherOrders = async () =>
    (await h.provider.listWorkOrders({ target: cardNo, tradeType: 'OTHER', pageSize: 10 })).records;
  await h.withCardWorker(async () => {
    await h.helper('blockCard', { cardNo, reason: 'Suspected fraud' });
    await eventually(
      () => snapshotOf(cardNo),
      (s) => s?.blocked === true,
      'the block, learned by the workflow its blocked record started',
    );

    expect(await cli(['card', 'unfreeze', cardNo, '--request', 'unfreeze-1'])).toBe(1);
    expect(out.join('\n')).toContain('blocked by the issuing bank');
    expect(
      (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 10, cardNo, type: 'UnFreeze' })).records,
    ).toHaveLength(0);

    out.length = 0;
    expect(await cli(['card', 'unblock', cardNo, '--request', 'unblock-1', '--file', 'delivery-note.pdf'])).toBe(0);
    expect(out.join('\n')).toMatch(new RegExp(`block of card ${cardNo} lifted by work order \\S+ .*card is Normal`));
    const [order] = await otherOrders();
    expect(order?.tradeStatus).toBe('success');
    expect(await h.provider.getCardInfo({ cardNo })).toMatchObject({ status: 'Normal', blocked: false });
    expect((await snapshotOf(cardNo))?.blocked).toBeFalsy();

    // The same request again is answered with the same work order; a new one finds nothing to lift.
    out.length = 0;
    expect(await cli(['card', 'unblock', cardNo, '--request', 'unblock-1', '--file', 'delivery-note.pdf'])).toBe(0);
    expect(out.join('\n')).toContain(`work order ${order!.orderNo}`);
    expect(await cli(['card', 'unblock', cardNo, '--request', 'unblock-2', '--file', 'delivery-note.pdf'])).toBe(1);
    expect(out.join('\n')).toContain('OperationNotAllowed');
    expect(await otherOrders()).toHaveLength(1);
  });
});

it('card reissue: refused while the old card holds money; once it is withdrawn, exactly one new card however often it is asked, and the old card frozen', async () => {
  const cardNo = await virtualCard(h.provider, { deposit: '25' });
  const out: string[] = [];
  const cli = cliOn(h, out);
  const creates = async () =>
    (await h.provider.listCardTransactions({ pageNum: 1, pageSize: 100, type: 'create' })).records.length;
  await h.withCardWorker(async () => {
    const before = await creates();
    expect(await cli(['card', 'reissue', cardNo])).toBe(1);
    expect(out.join('\n')).toContain('still holds 25');
    expect(await creates()).toBe(before);

    await h.helper('withdrawCard', { cardNo, amount: '25' });
    await eventually(
      async () => (await h.provider.getCardInfo({ cardNo, onlySimpleInfo: false })).balanceInfo?.amount,
      (amount) => amount !== undefined && Number(amount) === 0,
      'the withdrawal of the whole balance',
    );

    const reissued = async (): Promise<string> => {
      out.length = 0;
      expect(await cli(['card', 'reissue', cardNo])).toBe(0);
      const made = new RegExp(`card ${cardNo} reissued as card (\\d+) \\(Normal\\)`).exec(out.join('\n'));
      expect(made).not.toBeNull();
      return made![1]!;
    };
    const first = await reissued();
    expect(first).not.toBe(cardNo);
    // The old card is frozen once the new one is active.
    expect(out.join('\n')).toContain(`card ${cardNo} frozen`);
    expect((await h.provider.getCardInfo({ cardNo })).status).toBe('Freeze');
    expect(await reissued()).toBe(first);
    expect(await creates()).toBe(before + 1);
    // The new card is followed from its issuance on.
    await eventually(
      () => snapshotOf(first),
      (s) => s?.status === 'Normal',
      'the new card’s workflow, started by its issuance',
    );
  });
});

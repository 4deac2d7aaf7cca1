/**
 * A cancelled card's balance, followed by its workflow on each path the spec describes: a
 * `card_cancel` entry (under the cancel's orderNo or one of its own), a `withdraw` record with
 * subType REFUND and its `card_withdraw` entry, a `card_refund` entry; and a balance that never
 * comes back, which ends the wait at its deadline with a `strandedMoney` record instead of a hang.
 */
import { cmp } from '../../../provider/money';
import type { CardEntityResult } from '../../../domain/card-entity';
import { strandedStatusQuery } from '../../../domain/stranded-money';
import { cardEntityWorkflowId } from '../../../domain/workflow-ids';
import { refreshCard } from '../../../client/card-entity';
import { FAST_WAIT, startCardHarness, virtualCard } from '../support/card-harness';
import { harnessPerFile } from '../support/harness';

const h = harnessPerFile(startCardHarness);

/** A card of 25 followed by its workflow, cancelled with its balance leaving by `returnBy`. */
async function cancelledCard(returnBy: string): Promise<{ cardNo: string; result: CardEntityResult }> {
  const cardNo = await virtualCard(h.provider, { deposit: '25' });
  await refreshCard(h.client, cardNo, { taskQueue: h.taskQueue, wait: { ...FAST_WAIT, cancelReturnMs: 4_000 } });
  await h.helper('cancelCard', { cardNo, reason: 'closed by the customer', returnBy });
  const result = (await h.client.workflow.getHandle(cardEntityWorkflowId(cardNo)).result()) as CardEntityResult;
  expect(result).toMatchObject({ cardNo, status: 'cancel', reason: 'closed by the customer' });
  return { cardNo, result };
}

it.each([
  ['cancel', 'card_cancel', 'card'],
  ['cancel_own_order', 'card_cancel', 'amount'],
  ['withdraw', 'card_withdraw', 'card'],
  ['refund', 'card_refund', 'amount'],
] as const)(
  'a balance that leaves by %s is matched as %s (by %s) and reported returned',
  async (returnBy, path, by) => {
    await h.withCardWorker(async () => {
      const { result } = await cancelledCard(returnBy);
      const cancellation = result.cancellation!;
      expect(cancellation.returnedBy).toMatchObject({ path, matchedBy: by });
      expect(cmp(cancellation.returnedAmount!, '25')).toBe(0);
      expect(cancellation.unreturned).toBeUndefined();
      const ledger = await h.provider.listLedgerEntries({ pageNum: 1, pageSize: 50, bizType: path });
      expect(ledger.records.map((e) => e.orderNo)).toContain(cancellation.returnedBy!.orderNo);
    });
  },
);

it('a balance never seen back ends the wait at its deadline as a strandedMoney finding, not a hang', async () => {
  await h.withCardWorker(async () => {
    const { cardNo, result } = await cancelledCard('never');
    const cancellation = result.cancellation!;
    expect(cancellation.returnedAmount).toBeUndefined();
    expect(cancellation.unreturned?.amount).toBeDefined();
    expect(cmp(cancellation.unreturned!.amount!, '25')).toBe(0);
    const record = cancellation.unreturned!.strandedRecord;
    const stranded = await h.client.workflow.getHandle(record).query(strandedStatusQuery);
    expect(stranded.stage).toBe('unacknowledged');
    expect(stranded.left).toEqual([expect.objectContaining({ where: 'card', account: cardNo })]);
    expect(cmp(stranded.left[0]!.amount, '25')).toBe(0);
  });
});

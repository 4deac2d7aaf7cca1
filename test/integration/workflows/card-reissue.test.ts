/**
 * A physical card reissued through the client alone: the old card is lost and cancelled, its
 * balance back; the reissue takes the number printed on the new card, waits for its delivery
 * (the `activateCard` Update, the PIN sealed by the client) and activates it, as an onboarding
 * does; the cancelled old card is reported as it is, not frozen.
 */
import type { CardEntityResult } from '../../../domain/card-entity';
import { cardReissueStatusQuery, type CardReissueResult } from '../../../domain/card-reissue';
import { cardEntityWorkflowId } from '../../../domain/workflow-ids';
import { refreshCard } from '../../../client/card-entity';
import { activateReissuedCard, startCardReissue } from '../../../client/reissue';
import {
  activePhysicalCard,
  eventually,
  FAST_WAIT,
  printedCardNumber,
  startCardHarness,
} from '../support/card-harness';
import { harnessPerFile } from '../support/harness';

const h = harnessPerFile(startCardHarness);

const options = () => ({ taskQueue: h.taskQueue, wait: FAST_WAIT });

it('physical reissue: the printed number, the delivery wait, the activation; the cancelled old card left as it is', async () => {
  const { cardNo } = await activePhysicalCard(h);
  await h.withCardWorker(async () => {
    await refreshCard(h.client, cardNo, options());
    await h.helper('cancelCard', { cardNo, reason: 'lost by the customer' });
    const ended = (await h.client.workflow.getHandle(cardEntityWorkflowId(cardNo)).result()) as CardEntityResult;
    expect(ended.cancellation?.returnedAmount).toBeDefined();

    const printed = printedCardNumber();
    const workflowId = await startCardReissue(h.client, cardNo, {
      ...options(),
      cardNumber: printed,
      initialDeposit: '50',
    });
    const handle = h.client.workflow.getHandle(workflowId);
    const waiting = await eventually(
      () => handle.query(cardReissueStatusQuery).catch(() => undefined),
      (s) => s?.stage === 'awaiting_delivery',
      'the reissue awaiting the card’s delivery',
    );
    const newCardNo = waiting!.cardNo!;
    expect(newCardNo).not.toBe(cardNo);
    expect((await h.provider.getCardInfo({ cardNo: newCardNo })).status).toBe('un_activated');
    // A repeat finds the same reissue: never a second card.
    expect(await startCardReissue(h.client, cardNo, { ...options(), cardNumber: printed })).toBe(workflowId);

    await h.helper('issueActivationCode', { cardNo: newCardNo });
    const accepted = await activateReissuedCard(
      h.client,
      cardNo,
      { route: 'activation_code', pin: '246810' },
      { merchantPublicKey: h.sandbox.keys.merchant.publicKey },
    );
    expect(accepted.route).toBe('activation_code');
    const result = (await handle.result()) as CardReissueResult;
    expect(result).toMatchObject({
      oldCardNo: cardNo,
      card: { cardNo: newCardNo },
      activation: { route: 'activation_code' },
      oldCard: { outcome: 'not_frozen', status: 'cancel' },
    });
    expect((await h.provider.getCardInfo({ cardNo: newCardNo })).status).toBe('Normal');
  });
});

/**
 * The thin integration's workflows, in the featured baseline's shape
 * (tools/bench/baseline.workflow.ts): a parent with two activities (the card type, the wallet's
 * balance), then a cardholder child and a card child, each started with its merchantOrderNo as a
 * search attribute and answered by a webhook's signal; one stage upsert at the end; the card's own
 * workflow, started by the activity that made the card, sent the card's events and parked. No
 * validation beyond what the calls need.
 */
import {
  condition,
  executeChild,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { CardflowOrderNos, CardflowStage } from '../../domain/search-attributes';
import type { ThinActivities } from './thin.activities';
import { isFinal, thinEventSignal } from './thin-events';

const { cardTypeCurrency, checkBalance, createCardholder, createCard } = proxyActivities<ThinActivities>({
  startToCloseTimeout: '30s',
});

/** The status a webhook brings once it is final, unless `known` is final already. */
async function finalStatus(known: string): Promise<string> {
  let status = known;
  setHandler(thinEventSignal, (event) => {
    if (isFinal(event.status)) status = event.status;
  });
  await condition(() => isFinal(status));
  return status;
}

export interface ThinOnboardingInput {
  /** 32 hex digits: the merchantOrderNos are derived from it. */
  ref: string;
  cardTypeId: string;
  /** The cardholder's fields as the provider takes them (cardHolderModel included). */
  holder: Record<string, string>;
  initialDeposit: string;
}

export async function thinCardholder(input: {
  merchantOrderNo: string;
  cardTypeId: string;
  holder: Record<string, string>;
}): Promise<string> {
  const { holderId, status } = await createCardholder(input);
  if ((await finalStatus(status)) !== 'pass_audit') throw new Error(`cardholder ${holderId} rejected`);
  return holderId;
}

export async function thinCard(input: {
  merchantOrderNo: string;
  cardTypeId: string;
  holderId: string;
  amount: string;
  currency: string;
}): Promise<{ cardNo: string; balance?: number }> {
  const card = await createCard(input);
  if ((await finalStatus(card.status)) !== 'success' || !card.cardNo) throw new Error('card creation failed');
  return { cardNo: card.cardNo, ...(card.balance === undefined ? {} : { balance: card.balance }) };
}

export async function thinOnboarding(input: ThinOnboardingInput): Promise<{ holderId: string; cardNo: string }> {
  const { workflowId } = workflowInfo();
  const currency = await cardTypeCurrency({ cardTypeId: input.cardTypeId });
  await checkBalance({ currency, amount: input.initialDeposit });
  const holderOrderNo = `TH${input.ref}H`;
  const holderId = await executeChild(thinCardholder, {
    workflowId: `${workflowId}/holder`,
    args: [{ merchantOrderNo: holderOrderNo, cardTypeId: input.cardTypeId, holder: input.holder }],
    typedSearchAttributes: [{ key: CardflowOrderNos, value: [holderOrderNo] }],
  });
  const cardOrderNo = `TH${input.ref}C`;
  const { cardNo } = await executeChild(thinCard, {
    workflowId: `${workflowId}/card`,
    args: [
      { merchantOrderNo: cardOrderNo, cardTypeId: input.cardTypeId, holderId, amount: input.initialDeposit, currency },
    ],
    typedSearchAttributes: [{ key: CardflowOrderNos, value: [cardOrderNo] }],
  });
  upsertSearchAttributes([{ key: CardflowStage, value: 'completed' }]);
  return { holderId, cardNo };
}

/** A card's own workflow: takes the card's events and stays parked, as a card nobody touches. */
export async function thinCardWorkflow(): Promise<void> {
  setHandler(thinEventSignal, () => undefined);
  await condition(() => false);
}

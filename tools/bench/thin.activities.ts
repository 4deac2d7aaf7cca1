/**
 * The thin integration's activities: the seven provider calls an onboarding makes, written plainly.
 * Each mutation records its merchantOrderNo against the calling workflow in `routes` (an in-memory
 * map the receiver in the same process reads) before it sends, so the webhook that answers it finds
 * its workflow; a card made here gets its own parked workflow, as a card cardflow makes does.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { CardflowCardNo } from '../../domain/search-attributes';
import type { ThinProvider } from './thin-provider';
import { isFinal, thinCardWorkflowId } from './thin-events';

/** merchantOrderNo -> id of the workflow waiting for its webhooks. */
export type ThinRoutes = Map<string, string>;

function callerOf(): { workflowId: string; taskQueue: string } {
  const { info } = Context.current();
  if (!info.workflowExecution) throw new Error('a thin activity runs for a workflow');
  return { workflowId: info.workflowExecution.workflowId, taskQueue: info.taskQueue };
}

export function thinActivities(provider: ThinProvider, client: Client, routes: ThinRoutes) {
  async function walletBalance(currency: string): Promise<number> {
    const wallet = (await provider.getAccountInfo()).find((a) => a.accountType === 'WALLET' && a.currency === currency);
    if (!wallet) throw ApplicationFailure.nonRetryable(`no ${currency} wallet`, 'NoWallet');
    return Number(wallet.availableBalance);
  }

  return {
    async cardTypeCurrency(input: { cardTypeId: string }): Promise<string> {
      const cardType = (await provider.listCardTypes()).find((t) => t.cardTypeId === input.cardTypeId);
      if (!cardType) throw ApplicationFailure.nonRetryable(`card type ${input.cardTypeId} not found`, 'NoCardType');
      return cardType.rechargeCurrency;
    },

    async checkBalance(input: { currency: string; amount: string }): Promise<void> {
      if ((await walletBalance(input.currency)) < Number(input.amount))
        throw ApplicationFailure.nonRetryable(`wallet below ${input.amount}`, 'InsufficientBalance');
    },

    async createCardholder(input: {
      merchantOrderNo: string;
      cardTypeId: string;
      holder: Record<string, string>;
    }): Promise<{ holderId: string; status: string }> {
      routes.set(input.merchantOrderNo, callerOf().workflowId);
      const { holderId, status } = await provider.createCardholder({
        merchantOrderNo: input.merchantOrderNo,
        cardTypeId: input.cardTypeId,
        ...input.holder,
      });
      return { holderId, status };
    },

    /**
     * Balance checked, card created, its operation read and, once it succeeded, the card read and
     * its workflow started. A final status seen here needs no webhook: its route goes.
     */
    async createCard(input: {
      merchantOrderNo: string;
      cardTypeId: string;
      holderId: string;
      amount: string;
      currency: string;
    }): Promise<{ cardNo: string | null; status: string; balance?: number }> {
      const caller = callerOf();
      if ((await walletBalance(input.currency)) < Number(input.amount))
        throw ApplicationFailure.nonRetryable(`wallet below ${input.amount}`, 'InsufficientBalance');
      routes.set(input.merchantOrderNo, caller.workflowId);
      const { merchantOrderNo, cardTypeId, holderId, amount } = input;
      const created = await provider.createCard({ merchantOrderNo, cardTypeId, holderId, amount });
      const { records } = await provider.listCardTransactions({ merchantOrderNo });
      const now = records.find((r) => r.merchantOrderNo === merchantOrderNo) ?? created;
      const cardNo = now.cardNo ?? created.cardNo;
      if (isFinal(now.status)) routes.delete(merchantOrderNo);
      if (now.status !== 'success' || !cardNo) return { cardNo, status: now.status };
      const card = await provider.getCardInfo({ cardNo });
      await client.workflow.start('thinCardWorkflow', {
        taskQueue: caller.taskQueue,
        workflowId: thinCardWorkflowId(cardNo),
        workflowIdConflictPolicy: 'USE_EXISTING',
        typedSearchAttributes: [{ key: CardflowCardNo, value: cardNo }],
      });
      return { cardNo, status: now.status, ...(card.balanceInfo ? { balance: card.balanceInfo.amount } : {}) };
    },
  };
}

export type ThinActivities = ReturnType<typeof thinActivities>;

/**
 * Card operations (spec: /card/v2/freeze, /card/v2/unfreeze, /card/physicalCard/updatePin):
 * idempotent by merchantOrderNo (the operation record is looked up after an ambiguous outcome),
 * and a long-poll over the card's status. The PIN is opened here and only here.
 */
import { cancellationSignal } from '@temporalio/activity';
import type { CardOperationKind } from '../domain/card-operations';
import { createCardActivities } from './cards';
import { cardOperationOf } from '../domain/provider-records';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { callIdempotent } from './idempotent';
import { longPoll, type PollSettings } from './long-poll';
import { openSealed } from './secrets';
import type { CardOperation } from './types';

export interface CardStatusView {
  cardNo: string;
  status: string;
  blocked: boolean;
}

export function createCardOperationActivities(deps: ActivityDeps) {
  const { provider } = deps;
  const cards = createCardActivities(deps);

  async function readStatus(cardNo: string): Promise<CardStatusView> {
    const card = await provider.getCardInfo({ cardNo, onlySimpleInfo: true }, { signal: cancellationSignal() });
    return { cardNo: card.cardNo, status: card.status, blocked: card.blocked };
  }

  return convertingFailures({
    /**
     * Sends freeze, unfreeze or update PIN with `merchantOrderNo`; an earlier attempt's record is
     * returned instead of sending twice.
     */
    async sendCardOperation(input: {
      kind: CardOperationKind;
      merchantOrderNo: string;
      cardNo: string;
      clientRemark?: string;
      sealedPin?: string;
    }): Promise<CardOperation> {
      const { kind, merchantOrderNo, cardNo } = input;
      const { value } = await callIdempotent<CardOperation>({
        routes: deps.routes,
        merchantOrderNo,
        lookup: async () => (await cards.getCardOperation({ merchantOrderNo })) ?? undefined,
        send: async () => {
          const signal = cancellationSignal();
          const remark = input.clientRemark === undefined ? {} : { clientRemark: input.clientRemark };
          if (kind === 'freeze')
            return cardOperationOf(
              await provider.freezeCard({ cardNo, merchantOrderNo, ...remark }, { signal }),
              merchantOrderNo,
            );
          if (kind === 'unfreeze')
            return cardOperationOf(
              await provider.unfreezeCard({ cardNo, merchantOrderNo, ...remark }, { signal }),
              merchantOrderNo,
            );
          const pin = openSealed(input.sealedPin ?? '', deps.merchantPrivateKey, 'sealedPin');
          return cardOperationOf(
            await provider.updatePin({ cardNo, merchantOrderNo, pin }, { signal }),
            merchantOrderNo,
          );
        },
      });
      return value;
    },

    /** The card's status (no balance, no sensitive data). */
    async getCardStatus(input: { cardNo: string }): Promise<CardStatusView> {
      return await readStatus(input.cardNo);
    },

    /** Polls the card until its status is one of `until` (e.g. Normal after an activation). */
    async awaitCardStatus(input: { cardNo: string; until: string[]; poll: PollSettings }): Promise<CardStatusView> {
      return longPoll({
        poll: input.poll,
        reprobes: deps.reprobes,
        what: `card status ${input.until.join(' or ')}`,
        probe: () => readStatus(input.cardNo),
        done: (card) => input.until.includes(card.status),
        describe: (card) => card.status,
      });
    },
  });
}

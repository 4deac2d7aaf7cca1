/**
 * Physical card activation by code (spec: /card/physicalCard/activeCard, and the card's
 * activation_code record in /card/third3dsTransaction). The code and the PIN are decrypted in
 * {@link activateWithCode} only, used for the one call, and never returned or logged.
 */
import { cancellationSignal } from '@temporalio/activity';
import type { Card3dsRecord } from '../provider/schemas/card-records';
import { FailureTypes } from '../domain/failure-types';
import { activationCodeRefOf, type ActivationCodeRef } from '../domain/provider-records';
import type { ActivityDeps } from './deps';
import { convertingFailures } from './failures';
import { nonRetryable } from '../domain/failures';
import { callIdempotent } from './idempotent';
import { longPoll, type PollSettings } from './long-poll';
import { recordRoute } from './routes';
import { openSealed } from './secrets';

export type { ActivationCodeRef } from '../domain/provider-records';

export interface ActivationOutcome {
  merchantOrderNo: string;
  cardNo: string;
  /**
   * processing, success or fail as answered; `success` when a lookup found the card already Normal.
   */
  status: string;
  remark?: string;
}

export function createActivationActivities(deps: ActivityDeps) {
  const { provider } = deps;

  async function codeRecords(cardNo: string, tradeNo?: string): Promise<Card3dsRecord[]> {
    const page = await provider.listCard3dsRecords(
      { pageNum: 1, pageSize: 100, cardNo, type: 'activation_code', ...(tradeNo ? { tradeNo } : {}) },
      { signal: cancellationSignal() },
    );
    return page.records.filter((r) => r.cardNo === cardNo && r.type === 'activation_code');
  }

  /** The newest unexpired activation code record of the card, or undefined. */
  async function latestCode(cardNo: string): Promise<ActivationCodeRef | undefined> {
    const now = Date.now();
    const newest = (await codeRecords(cardNo))
      .filter((r) => r.expirationTime > now)
      .sort((a, b) => b.transactionTime - a.transactionTime)[0];
    return newest ? activationCodeRefOf(newest) : undefined;
  }

  return convertingFailures({
    /**
     * Polls until the card has an unexpired activation_code record; returns its tradeNo (never the
     * value). The card's route to this workflow is recorded first, so the code's card_3ds webhook
     * reaches the activation as well as the card's own workflow, and the poll is only its fallback.
     */
    async awaitActivationCode(input: { cardNo: string; poll: PollSettings }): Promise<ActivationCodeRef> {
      await recordRoute(deps.routes, 'card', input.cardNo);
      return longPoll<ActivationCodeRef | undefined>({
        poll: input.poll,
        reprobes: deps.reprobes,
        what: 'the activation code record',
        probe: () => latestCode(input.cardNo),
        done: (ref) => ref !== undefined,
        describe: (ref) => (ref ? 'issued' : 'not issued'),
      }) as Promise<ActivationCodeRef>;
    },

    /**
     * Activates with the code of record `activationCodeTradeNo` and the sealed PIN. Idempotent by
     * merchantOrderNo: activation has no record of its own to query, so after an ambiguous outcome
     * (or on a retry) a card already Normal counts as done; a "Duplicate order number" while the
     * card is still un_activated is retried until the earlier activation shows.
     */
    async activateWithCode(input: {
      merchantOrderNo: string;
      cardNo: string;
      sealedPin: string;
      activationCodeTradeNo: string;
      noPinPaymentAmount?: string;
    }): Promise<ActivationOutcome> {
      const { merchantOrderNo, cardNo } = input;
      const { value } = await callIdempotent<ActivationOutcome>({
        routes: deps.routes,
        merchantOrderNo,
        lookup: async () => {
          const card = await provider.getCardInfo({ cardNo, onlySimpleInfo: true }, { signal: cancellationSignal() });
          return card.status === 'Normal'
            ? { merchantOrderNo, cardNo, status: 'success', remark: 'card is Normal' }
            : undefined;
        },
        send: async () => {
          const record = (await codeRecords(cardNo, input.activationCodeTradeNo)).find(
            (r) => r.tradeNo === input.activationCodeTradeNo,
          );
          if (!record) {
            throw nonRetryable(
              FailureTypes.invalidInput,
              `activation code record ${input.activationCodeTradeNo} of the card was not found`,
            );
          }
          const activeCode = openSealed(record.values, deps.merchantPrivateKey, 'activation code');
          const pin = openSealed(input.sealedPin, deps.merchantPrivateKey, 'sealedPin');
          const result = await provider.activatePhysicalCard(
            {
              merchantOrderNo,
              cardNo,
              pin,
              activeCode,
              ...(input.noPinPaymentAmount === undefined ? {} : { noPinPaymentAmount: input.noPinPaymentAmount }),
            },
            { signal: cancellationSignal() },
          );
          return {
            merchantOrderNo,
            cardNo,
            status: result.status,
            ...(result.remark ? { remark: result.remark } : {}),
          };
        },
      });
      return value;
    },
  });
}

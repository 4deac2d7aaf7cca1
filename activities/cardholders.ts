/**
 * Cardholder activities (spec: Cardholders): create (v2 B2B/B2C, or IDV), update after a
 * reject, read, and the long-poll over the review. There is no review webhook in the spec,
 * so the review is polled (card_holder webhooks, where they arrive, only shorten the wait).
 */
import { activityInfo, cancellationSignal } from '@temporalio/activity';
import type { Cardholder, CardholderQueryRecord } from '../api/schemas/cardholder';
import type { CardholderData } from '../domain/cardholder-data';
import type { ActivityDeps } from './deps';
import { isAmbiguous, toActivityFailure } from './failures';
import { callIdempotent } from './idempotent';
import { longPoll, type PollSettings } from './long-poll';
import type { CardholderReview } from './types';

function reviewOf(record: Cardholder | CardholderQueryRecord): CardholderReview {
  const description = ('description' in record ? record.description : undefined) ?? record.respMsg ?? undefined;
  return {
    holderId: record.holderId,
    status: record.status,
    statusFlowLocation: record.statusFlowLocation,
    ...(description ? { description } : {}),
    ...(record.merchantOrderNo ? { merchantOrderNo: record.merchantOrderNo } : {}),
  };
}

/** The request fields of a holder, without our `shape` discriminator. */
function fieldsOf(holder: CardholderData): Record<string, string> {
  const { shape: _shape, ...fields } = holder;
  return fields;
}

export type ReviewStatus = CardholderReview['status'];

export function createCardholderActivities({ provider }: ActivityDeps) {
  async function query(filter: { holderId?: string; merchantOrderNo?: string }): Promise<CardholderReview | undefined> {
    const page = await provider.queryCardholders(
      { pageNum: 1, pageSize: 10, ...filter },
      { signal: cancellationSignal() },
    );
    const record = page.records.find((r) =>
      filter.merchantOrderNo !== undefined
        ? r.merchantOrderNo === filter.merchantOrderNo
        : r.holderId === filter.holderId,
    );
    return record ? reviewOf(record) : undefined;
  }

  async function getCardholder(input: { holderId: string }): Promise<CardholderReview> {
    try {
      const review = await query({ holderId: input.holderId });
      if (!review) throw new Error(`cardholder ${input.holderId} not found`);
      return review;
    } catch (error) {
      throw toActivityFailure(error);
    }
  }

  return {
    /** Creates the cardholder for review; after an ambiguous outcome, finds it by merchantOrderNo. */
    async createCardholder(input: {
      merchantOrderNo: string;
      cardTypeId: string;
      holder: CardholderData;
    }): Promise<CardholderReview> {
      const { merchantOrderNo, cardTypeId, holder } = input;
      const signal = cancellationSignal();
      const { value } = await callIdempotent<CardholderReview>({
        merchantOrderNo,
        lookup: () => query({ merchantOrderNo }),
        send: async () =>
          reviewOf(
            holder.shape === 'IDV'
              ? await provider.createCardholderIdv({ merchantOrderNo, cardTypeId, ...fieldsOf(holder) } as never, {
                  signal,
                })
              : await provider.createCardholder(
                  { merchantOrderNo, cardTypeId, cardHolderModel: holder.shape, ...fieldsOf(holder) } as never,
                  { signal },
                ),
          ),
      });
      return value;
    },

    /**
     * Resubmits corrected data of a rejected holder (allowed only when status=reject). The
     * update carries no merchantOrderNo; a retry first reads the holder: if it left reject,
     * the earlier attempt went through.
     */
    async updateCardholder(input: { holderId: string; holder: CardholderData }): Promise<CardholderReview> {
      const { holderId, holder } = input;
      const signal = cancellationSignal();
      try {
        if (activityInfo().attempt > 1) {
          const current = await query({ holderId });
          if (current && current.status !== 'reject') return current;
        }
        try {
          return reviewOf(
            holder.shape === 'IDV'
              ? await provider.updateCardholderIdv({ holderId, ...fieldsOf(holder) } as never, { signal })
              : await provider.updateCardholder(
                  { holderId, cardHolderModel: holder.shape, ...fieldsOf(holder) } as never,
                  { signal },
                ),
          );
        } catch (error) {
          if (!isAmbiguous(error)) throw error;
          const current = await query({ holderId });
          if (current && current.status !== 'reject') return current;
          throw error;
        }
      } catch (error) {
        throw toActivityFailure(error);
      }
    },

    getCardholder,

    /** Polls the holder until its status is one of `until` (e.g. pass_audit or reject). */
    async awaitCardholderReview(input: {
      holderId: string;
      until: ReviewStatus[];
      poll: PollSettings;
    }): Promise<CardholderReview> {
      return longPoll({
        poll: input.poll,
        what: `cardholder ${input.holderId} review`,
        probe: () => getCardholder({ holderId: input.holderId }),
        done: (review) => input.until.includes(review.status),
        describe: (review) => `${review.statusFlowLocation}/${review.status}`,
      });
    },
  };
}

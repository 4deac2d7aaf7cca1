/**
 * Cardholder activities (spec: Cardholders): create (v2 B2B/B2C, or IDV), update after a
 * reject, read, and the long-poll over the review. There is no review webhook in the spec,
 * so the review is polled (card_holder webhooks, where they arrive, only shorten the wait).
 */
import { activityInfo, cancellationSignal } from '@temporalio/activity';
import type { CardholderQueryRecord } from '../provider/schemas/cardholder';
import { ProviderBusinessError } from '../provider/errors';
import type { CardholderData } from '../domain/cardholder-data';
import { documentsToUpload } from '../domain/holder-documents';
import { FailureTypes } from '../domain/failure-types';
import type { ActivityDeps } from './deps';
import { isAmbiguous, convertingFailures } from './failures';
import { nonRetryable, retryable } from '../domain/failures';
import { callIdempotent } from './idempotent';
import { recordRoute } from './routes';
import { longPoll, type PollSettings } from './long-poll';
import { cardholderReviewOf, type CardholderReview } from '../domain/provider-records';

/**
 * The request fields of a holder, without our `shape` discriminator. A document still named by a
 * stored file's reference is refused: the workflow uploads it first, and a reference must never
 * reach the provider (domain/holder-documents.ts).
 */
function fieldsOf(holder: CardholderData): Record<string, string> {
  const { shape: _shape, ...fields } = holder;
  const pending = documentsToUpload(holder);
  if (pending.length) {
    throw nonRetryable(
      FailureTypes.invalidInput,
      pending.map((d) => ({
        path: `holder.${d.refField}`,
        message: 'the document was not uploaded before the submission',
      })),
    );
  }
  return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
}

export type ReviewStatus = CardholderReview['status'];

/**
 * The fields of a correction the provider's query record shows back (spec: Cardholder query
 * record).
 */
const VISIBLE_FIELDS = [
  'areaCode',
  'mobile',
  'email',
  'firstName',
  'lastName',
  'birthday',
  'country',
  'town',
  'address',
  'postCode',
] as const;

/**
 * Whether a correction sent to a rejected holder went through, from the holder as it is now:
 * - `applied`: its fields are the correction's and it left `reject` or changed after the
 *   correction was accepted (it may since have been reviewed, even rejected, again);
 * - `not_applied`: still in `reject`, unchanged, or showing other data: sending (again) is safe,
 *   since the provider takes an update only in `reject`;
 * - `conflict`: out of `reject` with data not ours: changed outside cardflow, so ours is not sent.
 * Fields the query record lacks (identity documents, an IDV token) cannot be compared; the status
 * and time then decide.
 */
export function correctionOutcome(
  current: CardholderQueryRecord,
  correction: CardholderData,
  correctionAt: number,
): 'applied' | 'not_applied' | 'conflict' {
  const fields = correction as Record<string, unknown>;
  const same = VISIBLE_FIELDS.every((name) => fields[name] === undefined || fields[name] === current[name]);
  const changedSince = current.updateTime > correctionAt;
  if (current.status === 'reject') return same && changedSince ? 'applied' : 'not_applied';
  return same ? 'applied' : 'conflict';
}

/** The holder lookups every cardholder activity shares (by holderId or merchantOrderNo). */
function cardholderReads(deps: ActivityDeps) {
  const { provider } = deps;
  async function queryRecord(filter: {
    holderId?: string;
    merchantOrderNo?: string;
  }): Promise<CardholderQueryRecord | undefined> {
    const page = await provider.queryCardholders(
      { pageNum: 1, pageSize: 10, ...filter },
      { signal: cancellationSignal() },
    );
    return page.records.find((r) =>
      filter.merchantOrderNo !== undefined
        ? r.merchantOrderNo === filter.merchantOrderNo
        : r.holderId === filter.holderId,
    );
  }

  async function query(filter: { holderId?: string; merchantOrderNo?: string }): Promise<CardholderReview | undefined> {
    const record = await queryRecord(filter);
    return record ? cardholderReviewOf(record) : undefined;
  }

  async function getCardholder(input: { holderId: string }): Promise<CardholderReview> {
    const review = await query({ holderId: input.holderId });
    if (!review) throw retryable(FailureTypes.cardholderNotFound, `cardholder ${input.holderId} not found`);
    return review;
  }

  return { queryRecord, query, getCardholder };
}

/**
 * Whether a correction of `holderId` already reached the provider: its review when it shows there
 * ({@link correctionOutcome}), undefined when it plainly did not; a holder changed outside
 * cardflow fails for good.
 */
async function correctionAlreadySent(
  queryRecord: ReturnType<typeof cardholderReads>['queryRecord'],
  holderId: string,
  holder: CardholderData,
  correctionAt: number,
): Promise<CardholderReview | undefined> {
  const current = await queryRecord({ holderId });
  if (!current) throw retryable(FailureTypes.cardholderNotFound, `cardholder ${holderId} not found`);
  const outcome = correctionOutcome(current, holder, correctionAt);
  if (outcome === 'conflict') {
    throw nonRetryable(
      FailureTypes.correctionConflict,
      `cardholder ${holderId} was changed outside cardflow after the correction was accepted (it is ${current.status} at ${current.statusFlowLocation} with other data); review it in the provider dashboard`,
    );
  }
  return outcome === 'applied' ? cardholderReviewOf(current) : undefined;
}

export function createCardholderActivities(deps: ActivityDeps) {
  const { provider } = deps;
  const { queryRecord, query, getCardholder } = cardholderReads(deps);

  return convertingFailures({
    /**
     * Creates the cardholder for review; after an ambiguous outcome, finds it by merchantOrderNo.
     */
    async createCardholder(input: {
      merchantOrderNo: string;
      cardTypeId: string;
      holder: CardholderData;
    }): Promise<CardholderReview> {
      const { merchantOrderNo, cardTypeId, holder } = input;
      const signal = cancellationSignal();
      const { value } = await callIdempotent<CardholderReview>({
        routes: deps.routes,
        merchantOrderNo,
        lookup: () => query({ merchantOrderNo }),
        send: async () =>
          cardholderReviewOf(
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
      // A later correction's review events may carry only the holderId.
      await recordRoute(deps.routes, 'holder', value.holderId);
      return value;
    },

    /**
     * Resubmits corrected data of a rejected holder (allowed only when status=reject). The update
     * carries no merchantOrderNo, so an ambiguous outcome (transport error, timeout, 5xx, a
     * dropped answer, a worker that died after the provider committed) and any business refusal
     * are resolved by reading the holder ({@link correctionOutcome}): when the correction shows
     * there, the earlier send went through and its review is returned; only when it plainly did
     * not is the correction sent (again). A refusal that really means "already done" (the holder
     * left `reject` because of our update) therefore never fails the workflow.
     */
    async updateCardholder(input: {
      holderId: string;
      holder: CardholderData;
      /**
       * When the workflow accepted the correction: a holder changed later than this was changed by
       * us.
       */
      correctionAt?: number;
    }): Promise<CardholderReview> {
      const { holderId, holder } = input;
      const correctionAt = input.correctionAt ?? activityInfo().scheduledTimestampMs;
      const signal = cancellationSignal();
      // The correction carries no merchantOrderNo: its review events are routed by the holderId.
      await recordRoute(deps.routes, 'holder', holderId);
      const earlier = () => correctionAlreadySent(queryRecord, holderId, holder, correctionAt);
      if (activityInfo().attempt > 1) {
        const found = await earlier();
        if (found) return found;
      }
      try {
        return cardholderReviewOf(
          holder.shape === 'IDV'
            ? await provider.updateCardholderIdv({ holderId, ...fieldsOf(holder) } as never, { signal })
            : await provider.updateCardholder(
                { holderId, cardHolderModel: holder.shape, ...fieldsOf(holder) } as never,
                {
                  signal,
                },
              ),
        );
      } catch (error) {
        if (!isAmbiguous(error) && !(error instanceof ProviderBusinessError)) throw error;
        const found = await earlier();
        if (found) return found;
        throw error;
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
        reprobes: deps.reprobes,
        what: `cardholder ${input.holderId} review`,
        probe: () => getCardholder({ holderId: input.holderId }),
        done: (review) => input.until.includes(review.status),
        describe: (review) => `${review.statusFlowLocation}/${review.status}`,
      });
    },
  });
}

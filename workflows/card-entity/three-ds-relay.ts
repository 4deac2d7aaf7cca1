/**
 * The per-card workflow's side of the 3DS relay (docs/notifications.md): it hands the record's
 * ids, never its value, to the `relayThreeDs` activity, which reads and opens the record and posts
 * the code to the backend itself. Retried quickly (the code lives minutes); the activity ends the
 * retries itself once the record has expired (ThreeDsExpired, recorded undeliverable), and the
 * schedule-to-close bounds a record that never shows.
 */
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { CardflowActivities, ThreeDsRelayOutcome } from '../../activities';
import { FailureTypes } from '../../domain/failure-types';
import { summarize } from '../../domain/failures';
import { NON_RETRYABLE_TYPES } from '../calls/profiles';

/**
 * A 3DS code expires five minutes after it is issued (the sandbox's and the provider's records).
 */
const { relayThreeDs } = proxyActivities<CardflowActivities>({
  startToCloseTimeout: '30s',
  heartbeatTimeout: '5s',
  scheduleToCloseTimeout: '10m',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 1.5,
    maximumInterval: '5s',
    nonRetryableErrorTypes: [...NON_RETRYABLE_TYPES, FailureTypes.threeDsExpired, FailureTypes.sealedSecretInvalid],
  },
});

/**
 * What became of one relayed record: its event id, or why it was not delivered (never the value).
 */
export type ThreeDsRelayResult = ({ delivered: true } & ThreeDsRelayOutcome) | { delivered: false; reason: string };

/**
 * Relays the 3DS record `tradeNo` of `cardNo` (a `card_3ds` event of type `third_3ds_otp` or
 * `auth_url`); resolves either way, so a code that expired does not fail the card's workflow.
 */
export async function relayThreeDsRecord(record: { cardNo: string; tradeNo: string }): Promise<ThreeDsRelayResult> {
  try {
    return { delivered: true, ...(await relayThreeDs({ cardNo: record.cardNo, tradeNo: record.tradeNo })) };
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    return { delivered: false, reason: summarize(error).message };
  }
}

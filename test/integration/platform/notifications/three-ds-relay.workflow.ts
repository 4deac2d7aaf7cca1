/** The per-card workflow's relay step alone: what a card entity runs when a 3DS record arrives. */
import { relayThreeDsRecord, type ThreeDsRelayResult } from '../../../../workflows/card-entity/three-ds-relay';

export async function threeDsRelayStep(record: { cardNo: string; tradeNo: string }): Promise<ThreeDsRelayResult> {
  return relayThreeDsRecord(record);
}

/**
 * What the thin integration's receiver, activities and workflows share: the signal a webhook
 * becomes, which statuses end a wait, and the card workflow's id.
 */
import { defineSignal } from '@temporalio/workflow';

/** What the receiver signals: a webhook's category and the status its record reached. */
export interface ThinEvent {
  category: string;
  status: string;
}

export const thinEventSignal = defineSignal<[ThinEvent]>('thinEvent');

/** A cardholder's review or a card operation has ended. */
export const isFinal = (status: string) => ['pass_audit', 'reject', 'success', 'fail'].includes(status);

export const thinCardWorkflowId = (cardNo: string) => `thin-card-${cardNo}`;

/**
 * Cardholder review results and query records (spec: Cardholder, Cardholder query record,
 * Occupation).
 */
import { z } from 'zod';
import { HOLDER_FLOW_LOCATIONS, HOLDER_STATUSES } from '../rules';
import { oneOf } from './fields';
import { int, longId } from './primitives';

/**
 * Review result of every cardholder create/update: platform (admin) review, then bank (channel).
 */
export const CardholderSchema = z.object({
  holderId: longId,
  merchantOrderNo: z.string().nullish(),
  cardTypeId: longId,
  statusFlowLocation: oneOf(HOLDER_FLOW_LOCATIONS),
  status: oneOf(HOLDER_STATUSES),
  description: z.string().nullish(),
  /** Equals description; deprecated. */
  respMsg: z.string().nullish(),
  /** Earlier listings: status text. */
  statusStr: z.string().nullish(),
});
export type Cardholder = z.output<typeof CardholderSchema>;

export const CardholderQueryRecordSchema = z.object({
  holderId: longId,
  merchantOrderNo: z.string().nullish(),
  cardTypeId: longId,
  areaCode: z.string(),
  mobile: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** yyyy-MM-dd. */
  birthday: z.string(),
  /** alpha-2. */
  country: z.string(),
  /** City code. */
  town: z.string(),
  address: z.string(),
  postCode: z.string(),
  statusFlowLocation: oneOf(HOLDER_FLOW_LOCATIONS),
  status: oneOf(HOLDER_STATUSES),
  statusStr: z.string(),
  respMsg: z.string().nullish(),
  createTime: int,
  updateTime: int,
  /** Shown in the example: display names of country and town. */
  countryStr: z.string().nullish(),
  townStr: z.string().nullish(),
});
export type CardholderQueryRecord = z.output<typeof CardholderQueryRecordSchema>;

export const OccupationSchema = z.object({
  occupationCode: z.string(),
  description: z.string(),
});

/**
 * A review result as a `card_holder` event carries it: the review result with the query record's
 * `updateTime`, optional since the spec does not show this event's body. The time tells a later
 * review round's state from an earlier round's (workflows/events/inbox.ts); names, e-mails and
 * phone numbers of the query record go no further.
 */
export const CardholderEventSchema = CardholderSchema.extend({
  updateTime: CardholderQueryRecordSchema.shape.updateTime.optional(),
});

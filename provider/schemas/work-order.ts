/** Work orders (spec: Work order, Work orders). */
import { z } from 'zod';
import {
  OPERATION_STATUSES,
  PAGE_NUM_DEFAULT,
  PAGE_SIZE_MAX,
  WORK_ORDER_CONTENT,
  WORK_ORDER_TARGET,
  WORK_ORDER_TITLE,
  WORK_ORDER_TRADE_TYPES,
} from '../rules';
import { merchantOrderNo, oneOf, optionalPageNumber, pageSize, optionalText, requiredText } from './fields';
import { int, lengthBetween } from './primitives';

export const WorkOrderSchema = z.object({
  merchantOrderNo: z.string(),
  orderNo: z.string(),
  title: z.string(),
  target: z.string(),
  content: z.string().nullish(),
  tradeType: oneOf(WORK_ORDER_TRADE_TYPES),
  tradeStatus: oneOf(OPERATION_STATUSES),
  /** List only. */
  description: z.string().nullish(),
  /** Equals description; to be removed. */
  remark: z.string().nullish(),
  createTime: int,
  updateTime: int,
});
export type WorkOrder = z.output<typeof WorkOrderSchema>;

// ---------------------------------------------------------------------------
// Requests

export const SubmitWorkOrderRequestSchema = z.object({
  merchantOrderNo: merchantOrderNo(),
  title: lengthBetween(WORK_ORDER_TITLE.min, WORK_ORDER_TITLE.max),
  /** The card number when asking for a manual card activation. */
  target: lengthBetween(WORK_ORDER_TARGET.min, WORK_ORDER_TARGET.max),
  content: lengthBetween(WORK_ORDER_CONTENT.min, WORK_ORDER_CONTENT.max, { multiline: true }).optional(),
  /** File ids from upload. */
  files: z.array(requiredText).optional(),
  tradeType: oneOf(WORK_ORDER_TRADE_TYPES),
});

/**
 * The spec shows no paging for the list; one integration reports `pageNo` rather than
 * `pageNum`. Callers may pass either; the parsed request carries both with the same value,
 * so the provider reads whichever it knows.
 */
export const ListWorkOrdersRequestSchema = z
  .object({
    merchantOrderNo: optionalText,
    orderNo: optionalText,
    target: optionalText,
    tradeType: oneOf(WORK_ORDER_TRADE_TYPES).optional(),
    tradeStatus: oneOf(OPERATION_STATUSES).optional(),
    pageNum: optionalPageNumber,
    pageNo: optionalPageNumber,
    pageSize: pageSize(PAGE_SIZE_MAX),
  })
  .refine((r) => r.pageNum === undefined || r.pageNo === undefined || r.pageNum === r.pageNo, {
    path: ['pageNo'],
    message: 'pageNum and pageNo must be equal when both are given',
  })
  .transform((r) => {
    const page = r.pageNum ?? r.pageNo ?? PAGE_NUM_DEFAULT;
    return { ...r, pageNum: page, pageNo: page };
  });

/**
 * The provider's card operation records and cardholder reviews reduced to what the workflows use,
 * one mapping each: an activity reading the provider and a workflow reading a webhook get the same
 * value from the same record (spec: Card operation record; Cardholder review result and query
 * record). Program types only (decimal and id strings): JSON-safe in workflow history.
 */
import type { CardOperationRecord } from '../provider/schemas/card';
import type { Card3dsRecord } from '../provider/schemas/card-records';
import type { Cardholder, CardholderQueryRecord } from '../provider/schemas/cardholder';
import type { WalletTransaction } from '../provider/schemas/wallet';
import type { WorkOrder } from '../provider/schemas/work-order';
import { nonEmpty } from './provider-event';

/** A card operation (create, deposit, freeze, ...) as the workflows follow it. */
export interface CardOperation {
  orderNo: string;
  merchantOrderNo: string;
  /** Unknown (absent or undefined) in a sparse record, e.g. some webhooks. */
  cardNo?: string | undefined;
  type: string;
  status: 'wait_process' | 'processing' | 'success' | 'fail';
  amount: string;
  fee: string;
  receivedAmount?: string;
  currency: string;
  description?: string;
  /** The provider's time of the record (absent in answers recorded before it was kept). */
  transactionTime?: number;
}

/** A cardholder's review state. */
export interface CardholderReview {
  holderId: string;
  status: 'wait_audit' | 'pass_audit' | 'under_review' | 'reject';
  statusFlowLocation: 'admin' | 'channel';
  /** The provider's description (e.g. the reject reason). */
  description?: string;
  merchantOrderNo?: string;
}

/** The operation of a record; `merchantOrderNo` stands in when the record leaves its own out. */
export function cardOperationOf(record: CardOperationRecord, merchantOrderNo: string): CardOperation {
  const description = nonEmpty(record.description) ?? nonEmpty(record.remark);
  const cardNo = nonEmpty(record.cardNo);
  const receivedAmount = nonEmpty(record.receivedAmount);
  return {
    orderNo: record.orderNo,
    merchantOrderNo: nonEmpty(record.merchantOrderNo) ?? merchantOrderNo,
    ...(cardNo ? { cardNo } : {}),
    type: record.type,
    status: record.status,
    amount: record.amount,
    fee: record.fee,
    ...(receivedAmount ? { receivedAmount } : {}),
    currency: record.currency,
    ...(description ? { description } : {}),
    transactionTime: record.transactionTime,
  };
}

/**
 * The record an operation was made from ({@link cardOperationOf} the other way): what a workflow
 * learns as if its webhook had come, keyed the same, so the webhook is then a repeat.
 */
export function cardOperationRecordOf(operation: CardOperation & { transactionTime: number }): CardOperationRecord {
  return {
    orderNo: operation.orderNo,
    merchantOrderNo: operation.merchantOrderNo,
    cardNo: operation.cardNo ?? null,
    // The operation was read from such a record, whose type is one of the spec's.
    type: operation.type as CardOperationRecord['type'],
    status: operation.status,
    amount: operation.amount,
    fee: operation.fee,
    receivedAmount: operation.receivedAmount ?? null,
    currency: operation.currency,
    description: operation.description ?? null,
    transactionTime: operation.transactionTime,
  };
}

/**
 * The review of a review result or a query record (the description, or its deprecated twin
 * respMsg).
 */
export function cardholderReviewOf(record: Cardholder | CardholderQueryRecord): CardholderReview {
  const description = nonEmpty('description' in record ? record.description : undefined) ?? nonEmpty(record.respMsg);
  const merchantOrderNo = nonEmpty(record.merchantOrderNo);
  return {
    holderId: record.holderId,
    status: record.status,
    statusFlowLocation: record.statusFlowLocation,
    ...(description ? { description } : {}),
    ...(merchantOrderNo ? { merchantOrderNo } : {}),
  };
}

/** A v2 wallet DEPOSIT reduced to what funding uses. */
export interface WalletDeposit {
  orderNo: string;
  status: 'wait_process' | 'processing' | 'success' | 'fail';
  txHash?: string;
  txAmount?: string;
  receivedAmount: string;
  receivedCurrency: string;
  message?: string;
  createTime: number;
}

export function walletDepositOf(tx: WalletTransaction): WalletDeposit {
  return {
    orderNo: tx.orderNo,
    status: tx.status,
    ...(tx.txHash ? { txHash: tx.txHash } : {}),
    ...(tx.txAmount ? { txAmount: tx.txAmount } : {}),
    receivedAmount: tx.receivedAmount,
    receivedCurrency: tx.receivedCurrency,
    ...(tx.message ? { message: tx.message } : {}),
    createTime: tx.createTime,
  };
}

/** A work order reduced to what the workflows use. */
export interface WorkOrderState {
  merchantOrderNo: string;
  orderNo: string;
  tradeStatus: 'wait_process' | 'processing' | 'success' | 'fail';
  description?: string;
}

export function workOrderStateOf(order: WorkOrder): WorkOrderState {
  const description = nonEmpty(order.description) ?? nonEmpty(order.remark);
  return {
    merchantOrderNo: order.merchantOrderNo,
    orderNo: order.orderNo,
    tradeStatus: order.tradeStatus,
    ...(description ? { description } : {}),
  };
}

/**
 * An activation code record, without its value (the code is opened only inside the activating
 * activity).
 */
export interface ActivationCodeRef {
  tradeNo: string;
  transactionTime: number;
  expirationTime: number;
}

export function activationCodeRefOf(
  record: Pick<Card3dsRecord, 'tradeNo' | 'transactionTime' | 'expirationTime'>,
): ActivationCodeRef {
  return { tradeNo: record.tradeNo, transactionTime: record.transactionTime, expirationTime: record.expirationTime };
}

/**
 * Search attribute upserts that cost an action only when something changes. What is already
 * set is tracked in workflow state seeded from the input (the attributes a parent or client set
 * at start) or from the started event ({@link startedWithAttributes}, read before any upsert),
 * never read back from `workflowInfo()` later: the decision then depends only on the history's
 * start and the code, so it replays identically. Values are business references only.
 */
import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { orderNosKey, type StartAttributes } from '../../domain/start-attributes';
import {
  CardflowCardNo,
  CardflowCustomerRef,
  CardflowFlow,
  CardflowHolderId,
  CardflowStage,
} from '../../domain/search-attributes';
import type { Flow } from '../../domain/workflows';

export interface AttributeChanges {
  customerRef?: string | undefined;
  flow?: Flow;
  stage?: string;
  holderId?: string;
  cardNo?: string;
}

const KEYS = {
  customerRef: CardflowCustomerRef,
  flow: CardflowFlow,
  stage: CardflowStage,
  holderId: CardflowHolderId,
  cardNo: CardflowCardNo,
} as const;

/**
 * The input field a starter fills with what it set as `typedSearchAttributes` at start, so the
 * workflow does not upsert it again (domain/start-attributes.ts).
 */
export interface StartedWith {
  startAttributes?: StartAttributes;
}

/**
 * What is already set: the start attributes, or (after continue-as-new, which keeps them) what an
 * earlier run set. An undefined value counts as not set, as in {@link Attributes.set}.
 */
export type KnownAttributes = {
  [K in keyof (StartAttributes & AttributeChanges)]?: (StartAttributes & AttributeChanges)[K] | undefined;
};

export class Attributes {
  private readonly known: Record<string, string> = {};
  private orderNos: string[];

  /** `atStart`: what the starter set (typedSearchAttributes at start), passed in the input. */
  constructor(atStart: KnownAttributes = {}) {
    for (const name of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
      const value = atStart[name];
      if (value) this.known[name] = value;
    }
    this.orderNos = [...(atStart.orderNos ?? [])];
  }

  /** Upserts the changed attributes in one command (one action), or nothing. */
  set(changes: AttributeChanges): void {
    const pairs: SearchAttributeUpdatePair[] = [];
    for (const name of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
      const value = changes[name];
      if (value === undefined || this.known[name] === value) continue;
      this.known[name] = value;
      pairs.push({ key: KEYS[name], value });
    }
    if (pairs.length) upsertSearchAttributes(pairs);
  }

  /**
   * Adds the merchantOrderNos to CardflowOrderNos before the call that sends them, so the webhook
   * receiver can route their events here (one command for those not listed yet; free when the
   * parent set them at start).
   */
  addOrderNo(...merchantOrderNos: string[]): void {
    const key = orderNosKey();
    const added = [...new Set(merchantOrderNos)].filter((orderNo) => !this.orderNos.includes(orderNo));
    if (!key || !added.length) return;
    this.orderNos = [...this.orderNos, ...added];
    upsertSearchAttributes([{ key, value: this.orderNos }]);
  }
}

/**
 * What the starter set as search attributes, read from the started event. Call it before the
 * workflow's first upsert (later, `workflowInfo()` also holds what the run upserted); for a
 * starter outside cardflow's code (a backend in another language, the Temporal CLI) that sets
 * none, it is empty and the workflow upserts everything itself.
 */
export function startedWithAttributes(): KnownAttributes {
  const attributes = workflowInfo().typedSearchAttributes;
  const known: KnownAttributes = {};
  const customerRef = attributes.get(CardflowCustomerRef);
  const flow = attributes.get(CardflowFlow);
  const stage = attributes.get(CardflowStage);
  const holderId = attributes.get(CardflowHolderId);
  const cardNo = attributes.get(CardflowCardNo);
  if (customerRef) known.customerRef = customerRef;
  if (flow) known.flow = flow as Flow;
  if (stage) known.stage = stage;
  if (holderId) known.holderId = holderId;
  if (cardNo) known.cardNo = cardNo;
  return known;
}

/** True when this workflow runs as a child of another workflow. */
export function isChild(): boolean {
  return workflowInfo().parent !== undefined;
}

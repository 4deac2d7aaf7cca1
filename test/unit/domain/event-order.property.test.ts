/**
 * The ordering rule (domain/event-order.ts) as the card state applies it
 * (workflows/card-entity/state.ts: learnCardRecord, learnCardRead, learnCardStatus): whatever
 * order a card's operation records arrive in, repeated and retried late, mixed with reads of the
 * card and the answers to the entity's own operations, the status ends where the provider's is,
 * and never moves back to a state older than one it reached.
 */
import fc from 'fast-check';
import {
  cardStatusAfter,
  learnCardRead,
  learnCardRecord,
  learnCardStatus,
  type CardEntityState,
} from '../../../workflows/card-entity/state';
import { advance, movesForward, ranksForward, READ_CLOCK_ALLOWANCE_MS, readTime } from '../../../domain/event-order';
import { EventInbox } from '../../../workflows/events/inbox';
import { cardOperationRecord, providerEvent, walletTransactionRecord } from '../../fixtures/provider-events';

const START = 1_700_000_000_000;
const DAY = 24 * 60 * 60 * 1000;

interface Op {
  type: 'Freeze' | 'UnFreeze' | 'blocked' | 'cancel' | 'deposit';
  status: 'processing' | 'success' | 'fail';
  transactionTime: number;
}

/** A card's operation records as the provider wrote them, oldest first (a cancel, if any, last). */
const history = fc
  .tuple(
    fc.array(
      fc.record({
        type: fc.constantFrom<Op['type']>('Freeze', 'UnFreeze', 'blocked', 'deposit'),
        failed: fc.boolean(),
        gap: fc.integer({ min: 1, max: 10 * 60_000 }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
    fc.boolean(),
  )
  .map(([steps, cancelled]) => {
    let t = START;
    const ops: Op[] = [];
    for (const step of [...steps, ...(cancelled ? [{ type: 'cancel' as const, failed: false, gap: 1000 }] : [])]) {
      t += step.gap;
      // Each operation is pushed while processing, then with its final status a little later.
      ops.push({ type: step.type, status: 'processing', transactionTime: t });
      t += 1;
      ops.push({ type: step.type, status: step.failed ? 'fail' : 'success', transactionTime: t });
    }
    return ops;
  });

/** The provider's card status at provider time `at`. */
function providerStatusAt(ops: Op[], at: number): string {
  let status = 'Normal';
  for (const op of ops) if (op.transactionTime <= at) status = cardStatusAfter(op) ?? status;
  return status;
}

type Delivery =
  | { kind: 'event'; op: Op }
  | { kind: 'read'; sentAt: number; status: string }
  | { kind: 'own'; op: Op; sentAt: number; status: string };

/**
 * Every record delivered one to three times, plus reads and own-operation answers, in any order.
 * The provider's clock runs up to the allowance behind the workflow's, or any amount ahead.
 */
const scenario = history.chain((ops) =>
  fc
    .record({
      copies: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: ops.length, maxLength: ops.length }),
      reads: fc.array(fc.record({ at: fc.integer({ min: 0, max: DAY }), lag: fc.integer({ min: 0, max: 30_000 }) }), {
        maxLength: 6,
      }),
      own: fc.array(fc.record({ index: fc.nat(), lag: fc.integer({ min: 0, max: 30_000 }) }), { maxLength: 3 }),
      skew: fc.integer({ min: -READ_CLOCK_ALLOWANCE_MS, max: 10 * 60_000 }),
      order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 64, maxLength: 64 }),
    })
    .map(({ copies, reads, own, skew, order }) => {
      const deliveries: Delivery[] = [];
      ops.forEach((op, i) => {
        for (let c = 0; c < (copies[i] ?? 1); c++) deliveries.push({ kind: 'event', op });
      });
      for (const read of reads) {
        // Sent at workflow time `sentAt`; it reaches the provider `lag` later (provider time =
        // workflow time + skew).
        const sentAt = START + read.at;
        deliveries.push({ kind: 'read', sentAt, status: providerStatusAt(ops, sentAt + skew + read.lag) });
      }
      const finals = ops.filter((op) => op.status !== 'processing' && op.type !== 'cancel');
      for (const answer of own) {
        const op = finals[answer.index % Math.max(finals.length, 1)];
        if (!op) continue;
        // The entity sent it before the record was written, and read the card after it.
        const sentAt = op.transactionTime - skew - 1;
        const status = providerStatusAt(ops, op.transactionTime + answer.lag);
        deliveries.push({ kind: 'own', op, sentAt, status });
      }
      const keyed = deliveries.map((d, i) => ({ d, k: order[i % order.length]! + i * 1e-9 }));
      keyed.sort((a, b) => a.k - b.k);
      return { ops, deliveries: keyed.map((x) => x.d) };
    }),
);

/** What the card entity does with one delivery (workflows/card-entity.ts). */
function apply(state: CardEntityState, d: Delivery): void {
  if (d.kind === 'event') learnCardRecord(state, d.op);
  else if (d.kind === 'read') learnCardRead(state, d.status, d.sentAt);
  else if (d.op.status === 'success')
    learnCardStatus(state, d.status, Math.max(d.op.transactionTime, readTime(d.sentAt)));
}

const fresh = (): CardEntityState => ({ authorizations: [], fees: [], authorizationCount: 0, completed: {}, run: 0 });

describe('card status from events, reads and own answers (fast-check)', () => {
  it("ends at the provider's status whatever the order, repeats and late retries", () => {
    fc.assert(
      fc.property(scenario, ({ ops, deliveries }) => {
        const state = fresh();
        for (const d of deliveries) apply(state, d);
        const last = ops[ops.length - 1]!;
        const expected = providerStatusAt(ops, last.transactionTime);
        if (ops.some((op) => cardStatusAfter(op) !== undefined)) expect(state.status).toBe(expected);
        else expect([undefined, 'Normal']).toContain(state.status);
      }),
      { numRuns: 500 },
    );
  });

  it('never moves back in time, and a repeat of anything already delivered changes nothing', () => {
    fc.assert(
      fc.property(scenario, fc.nat(), ({ deliveries }, pick) => {
        const state = fresh();
        const done: Delivery[] = [];
        for (const d of deliveries) {
          const before = state.statusAt ?? -Infinity;
          apply(state, d);
          expect(state.statusAt ?? -Infinity).toBeGreaterThanOrEqual(before);
          done.push(d);
          const snapshot = { status: state.status, statusAt: state.statusAt };
          apply(state, done[pick % done.length]!);
          expect({ status: state.status, statusAt: state.statusAt }).toEqual(snapshot);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps Normal when the Freeze success is retried after the unfreeze (the receiver was down)', () => {
    const freeze: Op = { type: 'Freeze', status: 'success', transactionTime: START + 1000 };
    const unfreeze: Op = { type: 'UnFreeze', status: 'success', transactionTime: START + 5000 };
    const state = fresh();
    learnCardRead(state, 'Normal', START);
    // Both operations were the entity's own, learned by polling; their webhooks were refused.
    learnCardStatus(state, 'Freeze', Math.max(freeze.transactionTime, readTime(START + 900)));
    learnCardStatus(state, 'Normal', Math.max(unfreeze.transactionTime, readTime(START + 4900)));
    expect(learnCardRecord(state, freeze)).toBe(false);
    expect(state.status).toBe('Normal');
    // A read sent before the unfreeze's record does not move it back either.
    expect(learnCardRead(state, 'Freeze', START + 2000)).toBe(false);
    expect(state.status).toBe('Normal');
  });

  it('keeps a cancelled card cancelled, and takes a cancel whenever it comes', () => {
    const state = fresh();
    learnCardRecord(state, { type: 'UnFreeze', status: 'success', transactionTime: START + 9000 });
    expect(learnCardRecord(state, { type: 'cancel', status: 'success', transactionTime: START + 1 })).toBe(true);
    expect(learnCardRead(state, 'Normal', START + DAY)).toBe(false);
    expect(state.status).toBe('cancel');
  });
});

describe('advance and movesForward', () => {
  it.each([
    [{}, 5, true],
    [{ state: 'A', at: 4 }, 5, true],
    [{ state: 'A', at: 5 }, 5, false],
    [{ state: 'A', at: 6 }, 5, false],
  ])('advance(%j, at %d) → %s', (reached, at, moved) => {
    expect(advance({ ...reached }, 'B', at)).toBe(moved);
  });

  const isFinal = (s: string) => s === 'success' || s === 'fail';
  it.each([
    [undefined, 'processing', true],
    ['wait_process', 'processing', true],
    ['processing', 'success', true],
    ['success', 'processing', false],
    ['fail', 'wait_process', false],
    ['success', 'success', true],
  ])('movesForward(%s → %s) → %s', (current, next, expected) => {
    expect(movesForward(current, next, isFinal)).toBe(expected);
  });

  const depositRank = (s: string) => ({ wait_process: 0, processing: 1, success: 2, fail: 2 })[s] ?? -1;
  it.each([
    [undefined, 'wait_process', true],
    ['awaiting', 'wait_process', true],
    ['processing', 'wait_process', false],
    ['processing', 'success', true],
    ['success', 'fail', true],
    ['success', 'processing', false],
  ])("ranksForward(%s → %s) over a deposit's ranks → %s", (current, next, expected) => {
    expect(ranksForward(current, next, depositRank)).toBe(expected);
  });

  it('a status sequence only ever moves forward, whatever order its records come in (fast-check)', () => {
    const statuses = ['wait_process', 'processing', 'success'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...statuses), { minLength: 1, maxLength: 20 }), (arrivals) => {
        let current: string | undefined;
        for (const next of arrivals) if (movesForward(current, next, isFinal)) current = next;
        expect(arrivals.includes('success') ? current : 'success').toBe('success');
      }),
    );
  });
});

describe('the inboxes keep the order too', () => {
  it('EventInbox.latest picks the newest record by its own time, not the last to arrive', () => {
    const inbox = new EventInbox(['wallet_transaction_v2'] as const);
    const newer = walletTransactionRecord({ orderNo: 'W2', updateTime: START + 2000 });
    const older = walletTransactionRecord({ orderNo: 'W1', updateTime: START + 1000 });
    inbox.add(providerEvent('wallet_transaction_v2', newer, 'r1'));
    inbox.add(providerEvent('wallet_transaction_v2', older, 'r2'));
    expect(inbox.latest('wallet_transaction_v2', () => true)?.orderNo).toBe('W2');
  });

  it('EventInbox keeps an operation final when its processing record is retried late', () => {
    const inbox = new EventInbox();
    inbox.add(providerEvent('card_transaction', cardOperationRecord({ status: 'success' }), 'r1'));
    expect(inbox.add(providerEvent('card_transaction', cardOperationRecord({ status: 'processing' }), 'r2'))).toBe(
      false,
    );
    expect(inbox.finalOperation('CF1')?.status).toBe('success');
  });
});

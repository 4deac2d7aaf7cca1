/**
 * The manual sandbox clock runs due tasks in time order and nothing early; the seeded ids repeat
 * per seed.
 */
import { createClock } from '../../../../tools/sandbox/clock';
import { createIds, isLuhnValid, mulberry32 } from '../../../../tools/sandbox/random';
import { createHarness } from './harness';
import { CARD_TYPE_IDS } from '../../../../tools/sandbox/data/card-types';

describe('manual clock', () => {
  it('runs tasks in due order, including tasks scheduled by tasks, and never before their time', async () => {
    const clock = createClock({ mode: 'manual', start: 1000 });
    const log: string[] = [];
    clock.schedule(50, () => log.push(`b@${clock.now()}`));
    clock.schedule(10, () => {
      log.push(`a@${clock.now()}`);
      clock.schedule(5, () => log.push(`a2@${clock.now()}`));
    });
    const cancel = clock.schedule(20, () => log.push('cancelled'));
    cancel();
    await clock.advance(40);
    expect(log).toEqual(['a@1010', 'a2@1015']);
    expect(clock.now()).toBe(1040);
    await clock.advance(10);
    expect(log).toEqual(['a@1010', 'a2@1015', 'b@1050']);
  });

  it('settle() runs zero-delay work without moving time', async () => {
    const clock = createClock({ mode: 'manual', start: 0 });
    let ran = 0;
    clock.schedule(0, () => clock.schedule(0, () => ran++));
    clock.schedule(1, () => (ran += 10));
    await clock.settle();
    expect([ran, clock.now()]).toEqual([1, 0]);
  });

  it('real clock settle() waits for zero-delay work', async () => {
    const clock = createClock({ mode: 'real' });
    let ran = false;
    clock.schedule(0, () => (ran = true));
    await clock.settle();
    expect(ran).toBe(true);
  });
});

describe('seeded ids', () => {
  it('repeat for a seed and differ across seeds; PANs pass the Luhn check', () => {
    const a = createIds(mulberry32(7));
    const b = createIds(mulberry32(7));
    const c = createIds(mulberry32(8));
    const first = a.longId();
    expect(first).toMatch(/^18\d{17}$/);
    expect(b.longId()).toBe(first);
    expect(c.longId()).not.toBe(first);
    const pan = a.pan('428852');
    expect(pan).toMatch(/^428852\d{10}$/);
    expect(isLuhnValid(pan)).toBe(true);
  });
});

describe('engine reproducibility', () => {
  it('gives the same ids for the same seed and different ones for another seed', () => {
    const run = (seed: number) => {
      const h = createHarness({}, seed);
      const card = h.call('createCard', {
        merchantOrderNo: 'SEEDED-ORDER-000000001',
        cardTypeId: CARD_TYPE_IDS.subscription,
        amount: '0',
      });
      return [card.cardNo, card.orderNo, h.call('getAccountInfo', {})[0]!.accountId];
    };
    expect(run(5)).toEqual(run(5));
    expect(run(5)).not.toEqual(run(6));
  });
});

/**
 * Fault injection: HTTP errors, added latency, responses dropped after
 * the change was committed, and webhooks dropped, duplicated, reordered or delayed. Decisions
 * draw from a seeded PRNG, so a run is reproducible from its seed; a rate of 1 always fires.
 */
import { exact } from '../../../domain/exact';
import { z } from 'zod';
import { plainNumbers } from './body';

export interface FaultSettings {
  /**
   * Probability [0, 1] that a provider operation answers HTTP 500 before the engine runs (nothing
   * changes).
   */
  errorRate: number;
  /**
   * Probability [0, 1] that the engine runs (the change is committed) and the socket is then
   * destroyed unanswered.
   */
  dropResponseRate: number;
  /** Wall-clock milliseconds added before each provider operation is handled. */
  latencyMs: number;
  /**
   * Limit errors, drops and latency to these operations (names from provider/operations.ts); empty
   * = all.
   */
  operations: string[];
  /**
   * How many more request faults (errors + drops) may fire; null = unlimited. Lets a test fail
   * exactly one call.
   */
  remaining: number | null;
  /**
   * Request faults fire on `operations` in the order listed, one each (then none): e.g. a
   * mutation's answer dropped, then the answer of the next read of the lookup that follows it.
   */
  inOrder: boolean;
  /** Probability [0, 1] that a webhook event is never delivered. */
  webhookDropRate: number;
  /** Probability [0, 1] that a webhook event is delivered twice (same X-WSB-REQUEST-ID). */
  webhookDuplicateRate: number;
  /** Probability [0, 1] that a webhook event is held back and delivered after the next event. */
  webhookReorderRate: number;
  /** Sandbox-clock milliseconds added before the first delivery attempt of every event. */
  webhookDelayMs: number;
}

export const NO_FAULTS: FaultSettings = {
  errorRate: 0,
  dropResponseRate: 0,
  latencyMs: 0,
  operations: [],
  remaining: null,
  inOrder: false,
  webhookDropRate: 0,
  webhookDuplicateRate: 0,
  webhookReorderRate: 0,
  webhookDelayMs: 0,
};

const rate = z.number().min(0, 'must be 0 to 1').max(1, 'must be 0 to 1');
const ms = z.number().int('must be a whole number of milliseconds').min(0, 'must be >= 0');

/** Schema of a (partial) fault update, as `POST /sandbox/faults` and `setFaults` take it. */
export const faultUpdateSchema = z
  .object({
    reset: z.boolean().optional(),
    errorRate: rate.optional(),
    dropResponseRate: rate.optional(),
    latencyMs: ms.optional(),
    operations: z.array(z.string()).optional(),
    remaining: z.number().int().min(0).nullable().optional(),
    inOrder: z.boolean().optional(),
    webhookDropRate: rate.optional(),
    webhookDuplicateRate: rate.optional(),
    webhookReorderRate: rate.optional(),
    webhookDelayMs: ms.optional(),
  })
  .strict();

export type FaultUpdate = Partial<FaultSettings> & { reset?: boolean };

/**
 * The one parser of a fault update from JSON, for `POST /sandbox/faults` and `--faults` alike:
 * numbers (lossless in a parsed body) become plain numbers, then the schema names any field
 * that breaks its rule.
 */
export function parseFaultUpdate(json: unknown): FaultUpdate {
  return exact(faultUpdateSchema.parse(plainNumbers(json)));
}

export type RequestFault = { kind: 'none' | 'error' | 'drop'; latencyMs: number };
export type WebhookFault = { drop: boolean; duplicate: boolean; reorder: boolean; delayMs: number };

/** Holds the current settings and makes every fault decision from one seeded stream. */
export class FaultInjector {
  private settings: FaultSettings = { ...NO_FAULTS, operations: [] };
  /** With `inOrder`: how many of `operations` have had their fault. */
  private fired = 0;

  constructor(
    private readonly random: () => number,
    initial?: FaultUpdate,
  ) {
    if (initial) this.update(initial);
  }

  current(): FaultSettings {
    return { ...this.settings, operations: [...this.settings.operations] };
  }

  /**
   * Merges an update (validated; throws a ZodError naming the field); `reset: true` starts from no
   * faults.
   */
  update(update: FaultUpdate): FaultSettings {
    const parsed = faultUpdateSchema.parse(update);
    const { reset, ...fields } = parsed;
    const base = reset ? { ...NO_FAULTS, operations: [] } : this.settings;
    const next: FaultSettings = { ...base };
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
    }
    this.settings = next;
    this.fired = 0;
    return this.current();
  }

  private hit(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.random() < p;
  }

  /**
   * The fault for one provider operation: HTTP 500 before the engine, drop after it, or none; plus
   * latency.
   */
  forRequest(operation: string): RequestFault {
    const s = this.settings;
    if (s.operations.length > 0 && !s.operations.includes(operation)) return { kind: 'none', latencyMs: 0 };
    if (s.inOrder && s.operations[this.fired] !== operation) return { kind: 'none', latencyMs: s.latencyMs };
    const budget = s.remaining === null || s.remaining > 0;
    let kind: RequestFault['kind'] = 'none';
    if (budget && this.hit(s.errorRate)) kind = 'error';
    else if (budget && this.hit(s.dropResponseRate)) kind = 'drop';
    if (kind !== 'none' && s.remaining !== null) s.remaining -= 1;
    if (kind !== 'none' && s.inOrder) this.fired += 1;
    return { kind, latencyMs: s.latencyMs };
  }

  /** The faults applied to one webhook event. */
  forWebhook(): WebhookFault {
    const s = this.settings;
    const drop = this.hit(s.webhookDropRate);
    return {
      drop,
      duplicate: !drop && this.hit(s.webhookDuplicateRate),
      reorder: !drop && this.hit(s.webhookReorderRate),
      delayMs: s.webhookDelayMs,
    };
  }
}

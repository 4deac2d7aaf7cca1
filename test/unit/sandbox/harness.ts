/**
 * Test harness: an engine on a manual clock with zero delays (unless given), a fixed seed,
 * a fake encryption that marks values, and the emitted events collected.
 */
import { stringifyJson, parseJson } from '../../../api/json';
import type { SandboxDelays, SandboxEngine, SandboxEvent } from '../../../sandbox/contract';
import { createClock } from '../../../sandbox/clock';
import { createSandboxEngine } from '../../../sandbox/engine';
import { mulberry32 } from '../../../sandbox/random';

export const ZERO_DELAYS: SandboxDelays = {
  reviewAdminMs: 0,
  reviewChannelMs: 0,
  cardOperationMs: 0,
  blockConfirmationMs: 0,
  workOrderMs: 0,
  webhookRetryScale: 0,
};

export interface Harness {
  engine: SandboxEngine;
  events: SandboxEvent[];
  clock: ReturnType<typeof createClock>;
  /** Calls an operation and returns its data as the program would read it off the wire (JSON round trip). */
  call(operation: string, request?: Record<string, unknown>): any;
  helper(name: string, body?: Record<string, unknown>): Promise<any>;
  settle(): Promise<void>;
}

export const START = Date.UTC(2026, 0, 15, 12, 0, 0);

/** What a JSON round trip gives: LosslessNumbers stay LosslessNumbers, as the client sees them. */
export function wire(value: unknown): any {
  return parseJson(stringifyJson(value));
}

export function createHarness(delays: Partial<SandboxDelays> = {}, seed = 42): Harness {
  const clock = createClock({ mode: 'manual', start: START });
  const events: SandboxEvent[] = [];
  const engine = createSandboxEngine({
    clock,
    random: mulberry32(seed),
    encrypt: (plain) => `enc(${plain})`,
    emit: (e) => events.push(e),
    delays: { ...ZERO_DELAYS, ...delays },
  });
  return {
    engine,
    events,
    clock,
    call: (operation, request = {}) => wire(engine.handle(operation, request)),
    helper: async (name, body = {}) => wire(await engine.helpers[name]!(body)),
    settle: () => clock.settle(),
  };
}

/**
 * Test harness: an engine on a manual clock (zero delays unless given), a fixed seed, a fake
 * encryption that marks values, and the emitted events collected. `call` goes the way the
 * shell and the client go: the operation's request schema parses the params, the engine
 * answers, the data makes a lossless JSON round trip and the client's `extractData` parses
 * it with the operation's record schema, so every call also checks the wire shape.
 */
import { extractData } from '../../../../provider/envelope';
import { parseJson, stringifyJson } from '../../../../provider/json';
import type { ParamsOf, ResultOf } from '../../../../provider/operation';
import { operations } from '../../../../provider/operations';
import {
  SandboxError,
  type SandboxDelays,
  type SandboxEngine,
  type SandboxEvent,
  type UploadedFile,
} from '../../../../tools/sandbox/contract';
import { createClock } from '../../../../tools/sandbox/clock';
import { createSandboxEngine } from '../../../../tools/sandbox/engine';
import { mulberry32 } from '../../../../tools/sandbox/random';

import { ZERO_DELAYS } from '../../../../tools/sandbox/delays';
export { ZERO_DELAYS };

export const START = Date.UTC(2026, 0, 15, 12, 0, 0);

type Ops = typeof operations;
export type OpName = keyof Ops;

export interface Harness {
  engine: SandboxEngine;
  events: SandboxEvent[];
  clock: ReturnType<typeof createClock>;
  call<K extends OpName>(name: K, params: ParamsOf<Ops[K]>, file?: UploadedFile): ResultOf<Ops[K]>;
  /** The SandboxError a call is refused with (fails the test if it succeeds). */
  refusal<K extends OpName>(name: K, params: ParamsOf<Ops[K]>): SandboxError;
  helper(name: string, body?: Record<string, unknown>): Promise<Record<string, unknown>>;
  settle(): Promise<void>;
}

/** What a JSON round trip gives (numbers become LosslessNumbers, as the client reads them). */
export function wire(value: unknown): unknown {
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
  function call<K extends OpName>(name: K, params: ParamsOf<Ops[K]>, file?: UploadedFile): ResultOf<Ops[K]> {
    const op = operations[name];
    const request = op.request.parse(params) as Record<string, unknown>;
    const data = wire(engine.handle(name, request, file));
    return extractData(op, data);
  }
  return {
    engine,
    events,
    clock,
    call,
    refusal(name, params) {
      try {
        call(name, params);
      } catch (e) {
        if (e instanceof SandboxError) return e;
        throw e;
      }
      throw new Error(`${name} was expected to be refused`);
    },
    helper: async (name, body = {}) => wire(await engine.helpers[name]!(body)) as Record<string, unknown>,
    settle: () => clock.settle(),
  };
}

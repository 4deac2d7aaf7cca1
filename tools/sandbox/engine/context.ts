/**
 * What every engine module works with: the state, the injected dependencies (clock, PRNG,
 * encryption, event sink, delays) and small shared helpers for errors, ids and events.
 */
import { SandboxError, SandboxErrorCode, type SandboxEngineDeps, type WebhookCategory } from '../contract';
import { createIds, type IdSource } from '../random';
import type { State } from './state';

export interface Ctx {
  readonly deps: SandboxEngineDeps;
  readonly state: State;
  readonly ids: IdSource;
  now(): number;
  /** Schedules a step on the sandbox clock; returns its cancel function. */
  later(delayMs: number, fn: () => void): () => void;
  emit(category: WebhookCategory, payload: Record<string, unknown>): void;
}

export function createCtx(deps: SandboxEngineDeps, state: State): Ctx {
  return {
    deps,
    state,
    ids: createIds(deps.random),
    now: () => deps.clock.now(),
    later: (delayMs, fn) =>
      deps.clock.schedule(delayMs, () => {
        // A failing step must not take a real-clock server down with an uncaught exception;
        // it is recorded (see the engineErrors helper) and the rest of the sandbox carries on.
        try {
          fn();
        } catch (error) {
          state.taskErrors.push(error instanceof Error ? error.message : String(error));
        }
      }),
    emit: (category, payload) => deps.emit({ category, payload }),
  };
}

/** A rule violation: `field: what is wrong`, so the caller sees which input to fix. */
export function reject(code: number, field: string, message: string): SandboxError {
  return new SandboxError(code, `${field}: ${message}`);
}

export const paramError = (field: string, message: string) => reject(SandboxErrorCode.parameter, field, message);
export const notFound = (field: string, message: string) => reject(SandboxErrorCode.notFound, field, message);
export const stateError = (field: string, message: string) => reject(SandboxErrorCode.state, field, message);
export const balanceError = (field: string, message: string) =>
  reject(SandboxErrorCode.insufficientBalance, field, message);

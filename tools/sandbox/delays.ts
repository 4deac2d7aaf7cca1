/**
 * How long the sandbox's asynchronous steps take (reviews, card operations, work orders, webhook
 * retries).
 */
import type { SandboxDelays } from './contract';

/**
 * Delays for people: a review takes seconds, webhook retries 1s, 5s, 20s, 1m, 12m, 24m (the
 * provider's schedule / 60).
 */
export const DEFAULT_DELAYS: SandboxDelays = {
  reviewAdminMs: 2_000,
  reviewChannelMs: 3_000,
  cardOperationMs: 1_000,
  blockConfirmationMs: 1_000,
  workOrderMs: 3_000,
  webhookRetryScale: 1 / 60,
};

/** Delays for tests: every asynchronous step is due at once (still asynchronous). */
export const ZERO_DELAYS: SandboxDelays = {
  reviewAdminMs: 0,
  reviewChannelMs: 0,
  cardOperationMs: 0,
  blockConfirmationMs: 0,
  workOrderMs: 0,
  webhookRetryScale: 0,
};

/** DEFAULT_DELAYS times `factor` (the CLI's --delay-scale; 0 gives ZERO_DELAYS). */
export function scaledDelays(factor: number): SandboxDelays {
  const out = { ...DEFAULT_DELAYS };
  for (const key of Object.keys(out) as Array<keyof SandboxDelays>)
    out[key] = key === 'webhookRetryScale' ? out[key] * factor : Math.round(out[key] * factor);
  return out;
}

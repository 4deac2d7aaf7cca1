/**
 * The shell's own endpoints below /sandbox/ (documented in tools/sandbox/SERVER.md): faults,
 * webhook callback configuration and delivery log, and reading the sandbox clock.
 * They need X-WSB-API-KEY but no signature, like the engine's test helpers.
 */
import { exact } from '../../../domain/exact';
import { z } from 'zod';
import { SandboxError, SandboxErrorCode, type SandboxClock } from '../contract';
import { plainNumbers } from './body';
import type { CommitLog } from './commit-log';
import { parseFaultUpdate, type FaultInjector } from './faults';
import type { HelperFn } from './handler';
import type { WebhookDeliveries } from './webhooks';

const webhookConfigSchema = z
  .object({
    url: z.union([z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }), z.null()]).optional(),
    retryScale: z.number().min(0, 'must be >= 0').optional(),
  })
  .strict();

const commitFilterSchema = z.object({ operation: z.string().optional() }).strict();

const logFilterSchema = z
  .object({
    category: z.string().optional(),
    requestId: z.string().optional(),
    status: z.enum(['pending', 'held', 'delivered', 'failed', 'dropped', 'no_url']).optional(),
  })
  .strict();

export interface ShellHelperDeps {
  faults: FaultInjector;
  commits: CommitLog;
  deliveries: WebhookDeliveries;
  clock: SandboxClock;
  clockMode: 'real' | 'manual';
  retryScale: () => number;
  setRetryScale: (scale: number) => void;
}

export function createShellHelpers(deps: ShellHelperDeps): Record<string, HelperFn> {
  return {
    /** Reads (empty body) or merges fault settings; `{"reset": true}` clears them. */
    faults: (body) =>
      Object.keys(body).length === 0 ? deps.faults.current() : deps.faults.update(parseFaultUpdate(body)),

    /** Reads or sets the webhook callback URL (null: do not send) and the retry-schedule scale. */
    'webhooks/config': (body) => {
      const input = webhookConfigSchema.parse(plainNumbers(body));
      if (input.url !== undefined) deps.deliveries.setUrl(input.url);
      if (input.retryScale !== undefined) deps.setRetryScale(input.retryScale);
      return { url: deps.deliveries.callbackUrl, retryScale: deps.retryScale() };
    },

    /** Every event and attempt so far, optionally filtered by category, requestId or status. */
    'webhooks/log': (body) => {
      const filter = logFilterSchema.parse(body);
      return deps.deliveries
        .log()
        .filter(
          (d) =>
            (filter.category === undefined || d.category === filter.category) &&
            (filter.requestId === undefined || d.requestId === filter.requestId),
        )
        .filter((d) => filter.status === undefined || d.status === filter.status);
    },

    /** Delivers an event of the log again now (same request id and body). */
    'webhooks/resend': async (body) => {
      const { requestId } = z
        .object({ requestId: z.string().min(1) })
        .strict()
        .parse(body);
      const resent = await deps.deliveries.resend(requestId);
      if (!resent)
        throw new SandboxError(SandboxErrorCode.notFound, `requestId: no webhook ${requestId} in the delivery log`);
      return resent;
    },

    /**
     * Every mutation committed so far, optionally of one operation (`{"operation": "createCard"}`).
     */
    commits: (body) => deps.commits.list(exact(commitFilterSchema.parse(body))),

    /** Reads the sandbox clock (the engine's `advanceClock` helper moves a manual one). */
    clock: () => ({ now: deps.clock.now(), mode: deps.clockMode }),
  };
}

/**
 * The receiver's Prometheus metrics, fed by its `onHandled` / `onRefused` hooks (the delivery path
 * is unchanged): `cardflow_webhook_deliveries_total{category, outcome}`, every request by what
 * became of it, and `cardflow_webhook_receipt_to_signal_seconds{category}` for forwarded ones (the
 * outcomes: docs/observability.md). Labels are bounded: a category this code knows, `other` for
 * any other a signed body names, `none` before verification.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { isKnownCategory } from './categories';
import type { HandledWebhook, RefusedWebhook, WebhookReceiverOptions } from './receiver';

const OUTCOME_NAMES: Record<HandledWebhook['outcome'], string> = {
  signalled: 'forwarded',
  no_owner: 'unroutable',
  duplicate: 'duplicate',
  not_forwarded: 'not_forwarded',
  unknown_category: 'unknown_category',
  unparseable: 'unparseable',
};

/**
 * Seconds; a signal normally lands in tens of milliseconds, seconds only when Temporal or the route
 * store is slow.
 */
const SIGNAL_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function categoryLabel(category: string): string {
  return isKnownCategory(category) ? category : 'other';
}

function refusedOutcome(refused: RefusedWebhook): string {
  if (refused.kind === 'failed') return 'failed';
  return refused.httpStatus === 401 ? 'rejected_signature' : 'refused';
}

/** Registers the receiver's metrics on `registry` and returns the hooks that feed them. */
export function receiverMetrics(registry: Registry): Required<Pick<WebhookReceiverOptions, 'onHandled' | 'onRefused'>> {
  const deliveries = new Counter({
    name: 'cardflow_webhook_deliveries_total',
    help: 'Webhook requests answered, by category and what became of them',
    labelNames: ['category', 'outcome'] as const,
    registers: [registry],
  });
  const toSignal = new Histogram({
    name: 'cardflow_webhook_receipt_to_signal_seconds',
    help: "From a webhook's arrival to its signal delivered to the owning workflows",
    labelNames: ['category'] as const,
    buckets: SIGNAL_BUCKETS,
    registers: [registry],
  });
  return {
    onHandled(handled) {
      const category = categoryLabel(handled.category);
      deliveries.inc({ category, outcome: OUTCOME_NAMES[handled.outcome] });
      if (handled.outcome === 'signalled')
        toSignal.observe(
          { category },
          Math.max(0, (handled.signalledAtMs ?? handled.settledAtMs) - handled.receivedAtMs) / 1000,
        );
    },
    onRefused(refused) {
      deliveries.inc({ category: 'none', outcome: refusedOutcome(refused) });
    },
  };
}

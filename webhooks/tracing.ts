/**
 * The receiver's trace of a delivery: a `webhook <category>` span (request id and category as
 * attributes, never the record) around the forwarding, so the signal the Temporal client sends
 * (its OpenTelemetry interceptor) is its child, and the workflow's handling of the signal links
 * to it.
 */
import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { EventForwarder } from './forwarder';

export function tracedForwarder(forwarder: EventForwarder, tracer: Tracer): EventForwarder {
  return {
    forward: (event, lookups) =>
      tracer.startActiveSpan(
        `webhook ${event.category}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'cardflow.webhook.category': event.category, 'cardflow.webhook.request_id': event.requestId },
        },
        async (span) => {
          try {
            const signalled = await forwarder.forward(event, lookups);
            span.setAttribute('cardflow.webhook.signalled', signalled.length);
            return signalled;
          } catch (error) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
            throw error;
          } finally {
            span.end();
          }
        },
      ),
  };
}
